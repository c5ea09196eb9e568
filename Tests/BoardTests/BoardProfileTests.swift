// SPDX-License-Identifier: MIT
// Board profiles: every file in boards/ loads, values come out as written, and each kind of
// mistake is an error naming the file, the line and the key.

import Foundation
import Raster
import Testing

@testable import Board
import Display
import HUD
import Logging

@Suite struct BoardProfileTests {
    /// The repository's boards/ directory, found from this file's path.
    static let boardsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("boards")

    static func profileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: boardsDirectory.path)
            .filter { $0.hasSuffix(".conf") }.sorted()
    }

    static func load(_ name: String) throws -> BoardProfile {
        let text = try String(contentsOf: boardsDirectory.appendingPathComponent(name), encoding: .utf8)
        return try BoardProfile.parse(text, file: "boards/" + name)
    }

    func parse(_ text: String) throws -> BoardProfile { try BoardProfile.parse(text, file: "boards/t.conf") }

    /// The error `text` raises (failing the test when it parses).
    func error(_ text: String) -> BoardProfileError? {
        do {
            _ = try BoardProfile.parse(text, file: "boards/t.conf")
            Issue.record("parsed without error:\n\(text)")
            return nil
        } catch {
            return error
        }
    }

    @Test func everyProfileLoads() throws {
        let names = try Self.profileNames()
        #expect(names.count >= 17)
        for name in names {
            do {
                let profile = try Self.load(name)
                #expect(profile.file == "boards/" + name)
                // Each profile says what it is based on in its header comment.
                let text = try String(contentsOf: Self.boardsDirectory.appendingPathComponent(name), encoding: .utf8)
                #expect(text.hasPrefix("# "), "\(name) has no header comment")
                #expect(text.contains("Based on:"), "\(name) does not say what it is based on")
            } catch let error as BoardProfileError {
                Issue.record("\(error)")
            }
        }
    }

    @Test func onlyProfilesAndTheReadmeLiveInBoards() throws {
        let others = try FileManager.default.contentsOfDirectory(atPath: Self.boardsDirectory.path)
            .filter { !$0.hasSuffix(".conf") && $0 != "README.md" }
        #expect(others.isEmpty, "not a profile (profiles end in .conf): \(others)")
    }

    @Test func listedBoardsHaveProfiles() throws {
        let names = Set(try Self.profileNames())
        for board in ["qemu-bochs", "qemu-virtio", "pc-generic", "rpi3", "rpi4", "rpi5", "rpi5-dsi",
                      "beaglebone-black", "beaglebone-black-lcd-cape", "imx6", "imx8m", "stm32mp1",
                      "rk3399", "rk3568", "allwinner-h3"] {
            #expect(names.contains(board + ".conf"), "no profile for \(board)")
        }
    }

    @Test func shippedProfilesReadAsWritten() throws {
        let rpi4 = try Self.load("rpi4.conf")
        #expect(rpi4.drivers == ["vc4"])
        #expect(rpi4.connectors == .named(["HDMI-A-1", "HDMI-A-2"]))
        #expect(rpi4.backends == [.drm, .fbdev])
        #expect(rpi4.pacing == .vblank)

        let cape = try Self.load("beaglebone-black-lcd-cape.conf")
        #expect(cape.backends == [.fbdev])
        #expect(cape.pixelFormat == .rgb565)
        #expect(cape.mode == .size(width: 480, height: 272, refreshMillihertz: nil))
        #expect(cape.refreshMillihertz == 60_000)

        let stm = try Self.load("stm32mp1.conf")
        #expect(stm.rotation == .fixed(.r90))
        #expect(stm.mode == .size(width: 480, height: 800, refreshMillihertz: nil))

        let headless = try Self.load("headless.conf")
        #expect(headless.backdropColor == Color(r: 0, g: 0, b: 0, a: 0x66))
        #expect(headless.hudDefaults.map { [$0.key, $0.value, "\($0.quoted)"] }
            == [["style", "custom", "false"], ["font-size", "16", "false"], ["label", "Loading", "true"]])
    }

    @Test func everyKeyRoundTrips() throws {
        let p = try parse("""
            # comment
            [device]
            backend = fbdev , memory
            card = /dev/dri/card1
            driver = vc4,drm-rp1-dsi
            connectors = HDMI-A-1, DSI-2   # both
            fbdev = "/dev/fb1"
            [output]
            mode = 1920x1080@59.94
            rotation = 270
            scale = 1.25
            pixel-format = bgr565
            buffers = 1
            [pacing]
            method = timer
            refresh = 30.5
            [theme]
            screen = #102030
            foreground = #FFFFFF80
            background = #0a0B0c
            backdrop = #000000  # black
            font = "fonts/My Font #1.ttf"
            logo = /usr/share/logo.png
            logo-placement = bottom
            logo-offset = -12, 40
            [hud]
            label = "Say \\"hi\\"\\tnow"
            mask = custom
            """)
        #expect(p.backends == [.fbdev, .memory])
        #expect(p.card == .path("/dev/dri/card1"))
        #expect(p.drivers == ["vc4", "drm-rp1-dsi"])
        #expect(p.connectors == .named(["HDMI-A-1", "DSI-2"]))
        #expect(p.fbdevPath == "/dev/fb1")
        #expect(p.mode == .size(width: 1920, height: 1080, refreshMillihertz: 59_940))
        #expect(p.rotation == .fixed(.r270))
        #expect(p.scale == .fixed(Fixed16_16(raw: 81_920)))  // 1.25 * 65536
        #expect(p.pixelFormat == .bgr565)
        #expect(p.buffers == 1)
        #expect(p.pacing == .timer)
        #expect(p.refreshMillihertz == 30_500)
        #expect(p.screenColor == Color(r: 0x10, g: 0x20, b: 0x30))
        #expect(p.foregroundColor == Color(r: 255, g: 255, b: 255, a: 0x80))
        #expect(p.backgroundColor == Color(r: 10, g: 11, b: 12))
        #expect(p.backdropColor == .black)
        #expect(p.fontPath == "fonts/My Font #1.ttf")
        #expect(p.resolve(path: p.fontPath!) == "boards/fonts/My Font #1.ttf")
        #expect(p.resolve(path: p.logoPath!) == "/usr/share/logo.png")
        #expect(p.logoPlacement == .bottom)
        #expect(p.logoOffsetX == -12 && p.logoOffsetY == 40)
        #expect(p.hudDefaults == [
            BoardProfile.HUDDefault(key: "label", value: "Say \"hi\"\tnow", quoted: true, line: 27),
            BoardProfile.HUDDefault(key: "mask", value: "custom", quoted: false, line: 28),
        ])
    }

    /// `[handover] watchdog`: seconds after `deactivate` until the daemon takes the display back.
    @Test func handoverSection() throws {
        #expect(try parse("[handover]\nwatchdog = 7.5\n").handoverWatchdog == 7.5)
        #expect(try parse("[handover]\nwatchdog = 0\n").handoverWatchdog == nil)
        #expect(try parse("").handoverWatchdog == nil)
        for bad in ["-1", "3601", "soon", "nan"] {
            #expect(throws: BoardProfileError.self, "\(bad)") { try parse("[handover]\nwatchdog = \(bad)\n") }
        }
    }

    @Test func updatesSectionNamesTheSupportAddress() throws {
        let p = try parse("""
            [updates]
            support-url = https://support.example.com/kiosk?lang=de   # the desk's form
            device-id = "hall 7/kiosk 2"
            """)
        #expect(p.supportURL == "https://support.example.com/kiosk?lang=de")
        #expect(p.deviceID == "hall 7/kiosk 2")
        let logger = Logger(label: "test")
        var asked = 0
        let named = p.supportAddress(hostName: { asked += 1; return "host" }, logger: logger)
        #expect(named == (try SupportAddress(url: "https://support.example.com/kiosk?lang=de", deviceID: "hall 7/kiosk 2")))
        #expect(asked == 0)  // the host name is read only when no device-id is given
        // Without device-id: the host name; without a usable one, "unknown".
        let bare = try parse("[updates]\nsupport-url = http://s.example/k")
        #expect(bare.supportAddress(hostName: { "kiosk-17" }, logger: logger)?.deviceID == "kiosk-17")
        #expect(bare.supportAddress(hostName: { nil }, logger: logger)?.deviceID == "unknown")
        #expect(try parse("[updates]\ndevice-id = a").supportAddress(hostName: { "h" }, logger: logger) == nil)
        #expect(try parse("").supportURL == nil)
    }

    @Test func badSupportAddressesSayWhy() {
        for (text, key, why) in [
            ("[updates]\nsupport-url = ftp://s.example/k", "support-url", "not an http:// or https:// address"),
            ("[updates]\nsupport-url = \"https://s.example/a b\"", "support-url", "a space (write it %20)"),
            ("[updates]\nsupport-url = https://s.example/#form", "support-url", "a fragment"),
            ("[updates]\nsupport-url = https://", "support-url", "no host"),
            ("[updates]\ndevice-id = \"a\\tb\"", "device-id", "a control character"),
            ("[updates]\ndevice-id = \"\"", "device-id", "0 bytes"),
        ] {
            let e = error(text)
            #expect(e?.line == 2 && e?.key == key, "\(text)")
            #expect(e?.description.hasPrefix("boards/t.conf:2: \(key): '") == true && e?.description.contains(why) == true,
                    "\(String(describing: e))")
        }
        // The key in another section names [updates].
        #expect(error("[hud]\n[modes]\nsupport-url = https://x")?.description.contains("[updates]") == true)
    }

    @Test func inputSection() throws {
        let p = try parse("""
            [input]
            devices = /dev/input/event2, /dev/input/by-path/platform-touch-event
            output = DSI-1
            assign = ft5x06 -> DSI-1, QEMU Virtio Tablet -> Virtual-1
            calibration = 0 1 0  -1 0 1
            grab = on
            """)
        #expect(p.inputDevices == .paths(["/dev/input/event2", "/dev/input/by-path/platform-touch-event"]))
        #expect(p.inputOutput == "DSI-1")
        #expect(p.inputAssignments == [.init(device: "ft5x06", output: "DSI-1"), .init(device: "QEMU Virtio Tablet", output: "Virtual-1")])
        #expect(p.inputCalibration == [0, 1, 0, -1, 0, 1])
        #expect(p.grabInput)
        #expect(try parse("[input]\ndevices = none").inputDevices == BoardProfile.InputDevices.none)
        #expect(try parse("").inputDevices == .auto && !(try parse("").grabInput))
        for bad in ["devices = event2", "output = HDMI", "assign = ft5x06", "assign = -> DSI-1", "calibration = 1 0 0 0 1",
                    "calibration = 1 0 0 0 1 nan", "calibration = 1 0 0 0 1 1000", "grab = yes"] {
            #expect(error("[input]\n" + bad)?.problem != nil, "\(bad) must be refused")
        }
        #expect(error("[input]\ncalibration = 1 0 0 0 1")?.description
            == "boards/t.conf:2: calibration: '1 0 0 0 1' is not six numbers a b c d e f (libinput's calibration matrix) like 0 1 0 -1 0 1")
    }

    /// The on-screen keyboard: when it shows, and its layout; a bad value names what is taken.
    @Test func onScreenKeyboardKeys() throws {
        #expect(try parse("").onScreenKeyboard == .auto && (try parse("").keymap) == nil)
        let p = try parse("[input]\non-screen-keyboard = always\nkeymap = de")
        #expect(p.onScreenKeyboard == .always && p.keymap == "de")
        #expect(try parse("[input]\non-screen-keyboard = never").onScreenKeyboard == .never)
        #expect(try parse("[input]\nkeymap = ru").keymap == "ru")
        #expect(error("[input]\non-screen-keyboard = yes")?.description
            == "boards/t.conf:2: on-screen-keyboard: 'yes' is not one of auto, never, always")
        #expect(error("[input]\nkeymap = de-latin1")?.description
            == "boards/t.conf:2: keymap: 'de-latin1' is not the on-screen keyboard's layout, one of us, de, fr, ru")
        #expect(error("[input]\nkeymap = uk")?.problem != nil)
    }

    @Test func emptyFileGivesDefaults() throws {
        let p = try parse("\n# nothing\r\n")
        #expect(p == BoardProfile(file: "boards/t.conf"))
        #expect(p.backends == [.drm, .fbdev] && p.card == .auto && p.connectors == .all)
        #expect(p.mode == .preferred && p.rotation == .panelOrientation && p.scale == .fixed(.one))
        #expect(p.pixelFormat == nil && p.pacing == .auto && p.screenColor == .black)
    }

    @Test func specialValues() throws {
        let p = try parse("[output]\r\nmode = preferred\r\nrotation = panel-orientation\r\nscale = auto\r\npixel-format = auto\r\n[device]\nconnectors = all\ncard = auto")
        #expect(p.mode == .preferred && p.rotation == .panelOrientation && p.scale == .auto && p.pixelFormat == nil)
        #expect(p.connectors == .all && p.card == .auto)
        #expect(try parse("[output]\nmode = 800x480").mode == .size(width: 800, height: 480, refreshMillihertz: nil))
    }

    @Test func autoScaleFollowsDensity() {
        let auto = BoardProfile.ScaleSetting.auto
        #expect(auto.resolve(pixels: 1920, millimetres: 531) == .one)  // 24" 1080p, 92 dpi
        #expect(auto.resolve(pixels: 3840, millimetres: 597) == Fixed16_16(raw: 114_688))  // 27" 4K, 163 dpi -> 1.75
        #expect(auto.resolve(pixels: 1920, millimetres: 344) == Fixed16_16(raw: 98_304))  // 15.6" 1080p, 142 dpi -> 1.5
        #expect(auto.resolve(pixels: 3840, millimetres: 294) == Fixed16_16(raw: 229_376))  // 13" 4K, 332 dpi -> 3.5
        #expect(auto.resolve(pixels: 800, millimetres: 0) == .one)  // unknown size
        #expect(auto.resolve(pixels: 1920, millimetres: 16) == .one)  // EDID holding an aspect ratio
        #expect(BoardProfile.ScaleSetting.fixed(.half).resolve(pixels: 3840, millimetres: 294) == .half)
    }

    // MARK: Errors

    @Test func unknownKeySuggestsTheClosest() {
        let e = error("[output]\n\nrotaion = 90\n")
        #expect(e?.description == "boards/t.conf:3: key 'rotaion' is not known (did you mean 'rotation'?)")
        #expect(e?.line == 3 && e?.key == "rotaion")
    }

    @Test func keyInTheWrongSectionNamesItsSection() {
        let e = error("[output]\nfont = /x.ttf")
        #expect(e?.description == "boards/t.conf:2: key 'font' is not known in [output] (it belongs in [theme])")
    }

    @Test func badValueListsTheChoices() {
        let e = error("[device]\n[output]\n\n\n\n# turned\nrotation = 45")
        #expect(e?.description == "boards/t.conf:7: rotation: '45' is not one of 0, 90, 180, 270, panel-orientation")
        #expect(e?.key == "rotation")
        for (text, key) in [
            ("[output]\nmode = 1920x", "mode"), ("[output]\nmode = 0x480", "mode"), ("[output]\nmode = 800x480@0", "mode"),
            ("[output]\nmode = 800x480@60.0001", "mode"), ("[output]\nscale = 0", "scale"), ("[output]\nscale = 9", "scale"),
            ("[output]\nscale = -1", "scale"), ("[output]\npixel-format = RGBA4444", "pixel-format"),
            ("[output]\nbuffers = 3", "buffers"),
            ("[device]\nbackend = drm, drm", "backend"), ("[device]\nbackend = kms", "backend"),
            ("[device]\nconnectors = HDMI1", "connectors"), ("[device]\nconnectors = HDMI-A-0", "connectors"),
            ("[device]\nconnectors = HDMI-A-1,", "connectors"), ("[device]\ncard = card0", "card"),
            ("[device]\ndriver = vc 4", "driver"), ("[pacing]\nmethod = vsync", "method"), ("[pacing]\nrefresh = 0", "refresh"),
            ("[theme]\nscreen = #12345", "screen"), ("[theme]\nforeground = red", "foreground"),
            ("[theme]\nbackdrop = #GG0000", "backdrop"), ("[theme]\nlogo-offset = 1", "logo-offset"),
            ("[theme]\nlogo-offset = 0,40000", "logo-offset"), ("[theme]\nlogo-placement = left", "logo-placement"),
            ("[hud]\nFont_Size = 3", "Font_Size"),
        ] {
            let e = error(text)
            #expect(e?.line == 2 && e?.key == key, "\(text)")
            #expect(e?.description.hasPrefix("boards/t.conf:2: \(key)") == true, "\(String(describing: e))")
        }
    }

    @Test func duplicateKeyNamesTheFirstLine() {
        let e = error("[output]\nmode = preferred\nscale = 1\nmode = 640x480")
        #expect(e?.description == "boards/t.conf:4: key 'mode' is set twice (first on line 2)")
        #expect(e?.key == "mode")
        // The same key in different sections is two keys ([output] mode and the HUD's `set mode`).
        #expect((try? parse("[output]\nmode = preferred\n[hud]\nmode = bar")) != nil)
    }

    @Test func keyOutsideASection() {
        let e = error("# profile\nrotation = 90\n[output]")
        #expect(e?.description == "boards/t.conf:2: key 'rotation' is outside any section (put it under [output])")
        #expect(e?.key == "rotation")
    }

    @Test func unterminatedQuote() {
        let e = error("[theme]\nlogo = /a.png\nfont = \"/usr/share/fonts/x.ttf\n")
        #expect(e?.description == "boards/t.conf:3: font: unterminated quote (a \" string must end on the same line)")
        #expect(e?.key == "font")
        #expect(error("[theme]\nfont = \"/x.ttf\\\"")?.problem == .unterminatedQuote(key: "font"))
        #expect(error("[theme]\nfont = \"/x.ttf\" extra")?.problem == .textAfterQuote(key: "font"))
        #expect(error("[theme]\nfont = \"/x\\q.ttf\"")?.problem == .badEscape(key: "font", escape: "\\q"))
    }

    @Test func sectionAndLineErrors() {
        #expect(error("[ouptut]")?.description
            == "boards/t.conf:1: section [ouptut] is not known (did you mean [output]?); sections are device, output, pacing, theme, input, modes, updates, handover, hud")
        #expect(error("[theme]\n[output]\n[theme]")?.description == "boards/t.conf:3: section [theme] appears twice (first on line 1)")
        #expect(error("[theme\n")?.problem == .malformedLine("[theme"))
        #expect(error("[output]\nrotation 90")?.description
            == "boards/t.conf:2: 'rotation 90' is not a [section], a key = value line or a # comment")
        #expect(error("[output]\nrotation =   # none")?.description
            == "boards/t.conf:2: rotation: no value (expected one of 0, 90, 180, 270, panel-orientation)")
    }
}
