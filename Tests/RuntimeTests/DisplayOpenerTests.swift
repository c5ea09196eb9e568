// SPDX-License-Identifier: MIT
// DisplayOpener: the profile's backends tried in order with the options the profile asks for, each
// failure logged with its reason, the memory display when nothing opens, and connector selection
// applied to the outputs.
import Display
import Logging
import Raster
import Board
import Runtime
import Testing

@Suite("DisplayOpener")
struct DisplayOpenerTests {
    final class Calls { var drm: [DRMDisplaySetOptions] = []; var fbdev: [(String, Rotation)] = [] }

    static func failing(_ profile: BoardProfile, _ log: LogLines, _ calls: Calls) -> DisplayOpener {
        var opener = DisplayOpener(profile: profile, logger: log.logger)
        opener.openDRM = { (o) throws(DisplayError) in calls.drm.append(o); throw .unsupported("/dev/dri", "no card can modeset") }
        opener.openFBDev = { (p, r, _) throws(DisplayError) in calls.fbdev.append((p, r)); throw .unsupported(p, "not a framebuffer") }
        return opener
    }

    @Test("the profile's DRM and fbdev settings reach the backends; both failing falls back to memory, reasons logged")
    func optionsAndFallback() throws {
        let profile = try BoardProfile.parse("""
            [device]
            backend = drm, fbdev
            card = /dev/dri/card1
            driver = vc4, v3d-not
            fbdev = /dev/fb1
            [output]
            mode = 1920x1080@59.94
            rotation = 270
            pixel-format = RGB565
            """, file: "b.conf")
        let log = LogLines(), calls = Calls()
        let opened = Self.failing(profile, log, calls).open()
        #expect(opened.backend == .memory)
        #expect(opened.display is MemoryDisplay)
        let drm = try #require(calls.drm.first)
        #expect(drm.devicePaths == ["/dev/dri/card1"])
        #expect(drm.drivers == ["vc4", "v3d-not"])
        #expect(drm.display.mode == DRMModeRequest(width: 1920, height: 1080, refreshHertz: 60))
        #expect(drm.display.rotation == .r270)
        #expect(drm.display.format == .rgb565)
        #expect(calls.fbdev.count == 1 && calls.fbdev[0].0 == "/dev/fb1" && calls.fbdev[0].1 == .r270)
        #expect(opened.failures.count == 2)
        #expect(opened.failures[0].hasPrefix("drm: ") && opened.failures[0].contains("no card can modeset"))
        #expect(opened.failures[1].hasPrefix("fbdev: ") && opened.failures[1].contains("not a framebuffer"))
        #expect(log.contains("no card can modeset", level: .warning))
        #expect(log.contains("running on the memory display", level: .error))
        // The memory fallback keeps the profile's size, rotation and format.
        let out = opened.display.outputs[0]
        #expect(out.mode.width == 1920 && out.mode.height == 1080 && out.rotation == .r270 && out.format == .rgb565)
    }

    @Test("a caller that gives up without a screen (the daemon's explicit --display) is not said to go on on memory")
    func noFallbackSaid() throws {
        let profile = try BoardProfile.parse("[device]\nbackend = drm\n", file: "b.conf")
        let log = LogLines(), calls = Calls()
        var opener = Self.failing(profile, log, calls)
        opener.continuesOnMemory = false
        _ = opener.open()
        #expect(log.contains("no screen could be opened (drm: ", level: .error))
        #expect(!log.contains("running on the memory display", level: .error))
    }

    @Test("backends are tried in the profile's order and the first that opens is used")
    func order() throws {
        let profile = try BoardProfile.parse("[device]\nbackend = fbdev, drm\n", file: "b.conf")
        let log = LogLines(), calls = Calls()
        var opener = Self.failing(profile, log, calls)
        opener.openFBDev = { (p, r, _) throws(DisplayError) in calls.fbdev.append((p, r)); return MemoryDisplay(width: 32, height: 16, name: p) }
        let opened = opener.open()
        #expect(opened.backend == .fbdev && opened.failures.isEmpty)
        #expect(calls.drm.isEmpty)
        #expect(opened.display.outputs.map(\.name) == ["/dev/fb0"])
        #expect(log.contains("display: fbdev", level: .info))
    }

    @Test("connectors = DSI-1 and a fixed rotation reach DRM's options; a DRM failure falls back with its reason")
    func connectorSelection() throws {
        let profile = try BoardProfile.parse("[device]\nbackend = drm\nconnectors = DSI-1\n[output]\nrotation = 180\n", file: "b.conf")
        let log = LogLines()
        var opener = DisplayOpener(profile: profile, logger: log.logger)
        var seen: [DRMDisplaySetOptions] = []
        opener.openDRM = { (o) throws(DisplayError) in
            seen.append(o)
            throw .unsupported("/dev/dri/card0", "none of DSI-1 is connected")
        }
        let opened = opener.open()
        #expect(seen.count == 1)
        #expect(seen.first?.display.connectors == ["DSI-1"])
        #expect(seen.first?.display.allows(connector: "DSI-1") == true)
        #expect(seen.first?.display.allows(connector: "HDMI-A-1") == false)
        #expect(seen.first?.display.rotation == .r180)
        #expect(seen.first?.display.followPanelOrientation == false)
        #expect(opened.backend == .memory)
        #expect(opened.failures.first?.contains("none of DSI-1 is connected") == true, "\(opened.failures)")

        let following = try BoardProfile.parse("[device]\nbackend = drm\n[output]\nrotation = panel-orientation\n", file: "c.conf")
        let options = DisplayOpener.drmOptions(following).display
        #expect(options.followPanelOrientation && options.rotation == .r0 && options.connectors == nil)
        #expect(options.buffers == 2)
        let single = try BoardProfile.parse("[output]\nbuffers = 1\n", file: "d.conf")
        #expect(DisplayOpener.drmOptions(single).display.buffers == 1)
        var fbdevDouble: [Bool] = []
        var fbdevOpener = DisplayOpener(profile: try BoardProfile.parse("[device]\nbackend = fbdev\n[output]\nbuffers = 1\n", file: "e.conf"),
                                        logger: LogLines().logger)
        fbdevOpener.openFBDev = { (p, _, double) throws(DisplayError) in fbdevDouble.append(double); return MemoryDisplay(width: 8, height: 8, name: p) }
        #expect(fbdevOpener.open().backend == .fbdev && fbdevDouble == [false])
    }

    @Test("the real backends on paths that do not exist fail with their reasons and the HUD runs on memory")
    func realBackendsMissing() throws {
        let profile = try BoardProfile.parse("[device]\nbackend = drm, fbdev\ncard = /nonexistent/card7\nfbdev = /nonexistent/fb7\n", file: "b.conf")
        let log = LogLines()
        let opened = DisplayOpener(profile: profile, logger: log.logger).open()
        #expect(opened.backend == .memory)
        #expect(opened.failures.count == 2)
        #expect(opened.failures[1].contains("/nonexistent/fb7"), "\(opened.failures)")
        #expect(opened.display.outputs[0].mode.width == 1280)
    }

    @Test("no profile: DRM then fbdev, as an empty profile")
    func noProfile() {
        let log = LogLines(), calls = Calls()
        let opened = Self.failing(BoardProfile(file: "x"), log, calls).open()
        #expect(calls.drm.count == 1 && calls.fbdev.count == 1 && calls.fbdev[0].0 == "/dev/fb0")
        #expect(calls.drm[0].devicePaths == nil && calls.drm[0].drivers == nil && calls.drm[0].display.mode == nil)
        #expect(opened.backend == .memory)
        var none = DisplayOpener(profile: nil, logger: log.logger)
        none.openDRM = { (_) throws(DisplayError) in throw .closed }
        none.openFBDev = { (_, _, _) throws(DisplayError) in MemoryDisplay(width: 8, height: 8) }
        #expect(none.open().backend == .fbdev)
    }
}
