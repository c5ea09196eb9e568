// SPDX-License-Identifier: MIT
import Assets
import Display
import Foundation
import HUD
import Raster
import Testing

@testable import splashhud_display_guest

/// HUD frames through the real fbdev path: the guest program (Tests/DisplayGuest) takes the VT with
/// Console (cursor hidden, KD_GRAPHICS), then per rotation (a pass) opens /dev/fb0 of a real kernel
/// driver under QEMU with FBDevDisplay, presents GuestScene's frames (damage only) and asks for a
/// screendump after each; here the same frames are presented on a MemoryDisplay of the same size,
/// format and rotation, and every dump must equal its scanout pixel for pixel over the whole screen
/// (RGB565 on the top 5/6 bits of each channel: both sides dither by destination coordinates, so no
/// further tolerance). fbcon draws nothing while the VT is in KD_GRAPHICS, so no cell is left out.
/// Beyond the screendumps, the guest reads the framebuffer's memory before each open and after each
/// close(.restore): it must come back byte for byte (padding, alpha bytes and rows off screen too),
/// and the saved console must cost a small fraction of the page (SavedPage).
/// One boot per configuration, 10-25 s each.
@Suite("FBDevDisplay end to end under QEMU", .serialized)
struct FBDevEndToEndTests {
    struct Config: CustomTestStringConvertible, Sendable {
        var display: String
        /// One pass per rotation, in this order; every pass but the last closes with .restore.
        var rotations: [Rotation]
        var close: CloseBehaviour
        var cmdline = ""
        /// What the driver is known to give (scripts/qemu/README.md's table).
        var width: Int32
        var height: Int32
        var format: PixelFormat
        var pages: Int
        /// The row the guest pans to before opening (the page shown at open then starts there).
        var pan: Int32?

        var name: String {
            "\(display)-\(rotations.map { "r\($0.rawValue)" }.joined(separator: "+"))-\(close)\(cmdline.isEmpty ? "" : "-overalloc")"
                + (pan.map { "-panned\($0)" } ?? "")
        }
        var testDescription: String { name }
    }

    static let configs: [Config] = [
        // DRM fbdev emulation (shadow buffer, deferred I/O, damage worker), 32 bpp, restore.
        Config(display: "bochs", rotations: [.r0], close: .restore, width: 1280, height: 800, format: .xrgb8888, pages: 1),
        // vesafb: scanout mapped directly, no DRM; 90° with axes swapped; retain the last frame.
        Config(display: "vesafb32", rotations: [.r90], close: .retain, width: 1024, height: 768, format: .argb8888, pages: 1),
        // 16 bpp: RGB565 with ordered dithering; restore. (270° is checked on virtio-gpu's DRM test:
        // a second pass here would cost 12 s, mostly the full 565 present of a debug build.)
        Config(display: "vesafb16", rotations: [.r0], close: .restore, width: 1024, height: 768, format: .rgb565, pages: 1),
        // 24 bpp: three bytes a pixel, restore.
        Config(display: "vesafb24", rotations: [.r0], close: .restore, width: 1024, height: 768, format: .rgb888, pages: 1),
        // Room for two pages (over-allocated emulation), 180°, retain. bochs accepts FBIOPAN_DISPLAY
        // but keeps showing row 0 (it programs the plane's position, not its source offset): every
        // second frame was missing until FBLayout stopped panning on DRM emulation, so: one page.
        Config(display: "bochs", rotations: [.r180], close: .retain, cmdline: "drm_kms_helper.drm_fbdev_overalloc=200",
               width: 1280, height: 800, format: .xrgb8888, pages: 1),
        // The same memory panned to its second page before the open: the page saved and restored is
        // at row 800. bochs keeps showing row 0 (see above), so the frames are not on screen and only
        // the memory and the console after close are checked.
        Config(display: "bochs", rotations: [.r0], close: .restore, cmdline: "drm_kms_helper.drm_fbdev_overalloc=200",
               width: 1280, height: 800, format: .xrgb8888, pages: 1, pan: 800),
    ]

    @Test("screendumps equal the memory display's scanout", arguments: configs)
    func framesReachTheScreen(_ config: Config) throws {
        try VMSelftestTests.requireQEMUTools()
        let program = try GuestProgram.path()
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-e2e-\(config.name)-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: shots) }
        let run = try VMRun(display: config.display, program: program, shotsDir: shots, cmdline: config.cmdline,
                            args: ["--rotate", config.rotations.map { "\($0.rawValue)" }.joined(separator: ","), "--close", "\(config.close)"]
                                + (config.pan.map { ["--pan", "\($0)"] } ?? []))
        print("\(config.name): \(run.summary)")
        for line in run.info where ["PRESENT", "DIAG", "SAVED", "RESTORE", "PAN"].contains(where: line.hasPrefix) { print("  \(line)") }
        try #require(run.status == 0, "\(config.name): guest failed (status \(run.status)):\n\(run.output)")
        #expect(run.info.contains("VT /dev/tty1 graphics"), "\(run.info)")
        #expect(!run.info.contains { $0.hasPrefix("DIAG") && $0.contains("restor") }, "restore problems: \(run.info)")
        if let row = config.pan { #expect(run.info.contains("PAN \(row)"), "the guest did not pan to row \(row): \(run.info)") }

        let bits = config.format == .rgb565 ? (5, 6, 5) : (8, 8, 8)
        func check(_ shot: String, against expected: Pixmap) throws {
            let dump = try ScreenDump(contentsOf: "\(shots)/\(shot).ppm")
            try #require(dump.width == config.width && dump.height == config.height,
                         "\(shot): screendump is \(dump.width)x\(dump.height), expected \(config.width)x\(config.height)")
            let d = compareScreens(dump, expected, channelBits: bits)
            if d.count != 0 { d.save("\(config.name)-\(shot)", dump: dump, expected: expected) }
            #expect(d.count == 0, "\(config.name) \(shot): \(d) (pictures in .build/qemu-failures/)")
        }
        // The console with its text and no cursor (hidden before KD_GRAPHICS).
        let before = try ScreenDump(contentsOf: "\(shots)/before.ppm")
        let resources = try HUDResources.system()
        for (n, rotation) in config.rotations.enumerated() {
            let pass = "r\(rotation.rawValue)"
            // The guest found what the driver is known to give.
            let swapped = rotation.swapsAxes
            let layout = "LAYOUT \(pass) \(config.width) \(config.height) \(config.format.name) pages \(config.pages) frame "
                + "\(swapped ? config.height : config.width) \(swapped ? config.width : config.height)"
            #expect(run.info.contains(layout), "expected \"\(layout)\" in:\n\(run.info.joined(separator: "\n"))")
            // The console at open, kept for close(.restore): a small fraction of the page.
            let saved = run.info.first { $0.hasPrefix("SAVED \(pass) ") }
            let sizes = saved?.split(separator: " ").compactMap { Int($0) } ?? []
            #expect(sizes.count == 2 && sizes[0] * 20 < sizes[1], "saved page over 5 %: \(saved ?? "no SAVED line")")
            // Every restore gives back the memory byte for byte.
            let retained = config.close == .retain && n == config.rotations.count - 1
            if !retained {
                let restore = run.info.first { $0.hasPrefix("RESTORE \(pass) ") }
                #expect(restore?.hasPrefix("RESTORE \(pass) identical ") == true, "\(restore ?? "no RESTORE line for \(pass)")")
            }

            // The same frames, presented the same way, on a memory display.
            let memory = MemoryDisplay(width: config.width, height: config.height, format: config.format, rotation: rotation)
            let output = memory.outputs[0]
            let player = try GuestScene.player(width: output.frameWidth, height: output.frameHeight, resources: resources)
            for (seconds, name) in GuestScene.instants {
                _ = try memory.present(player.renderer.frame.view, damage: player.render(at: .seconds(seconds)))
                if config.pan == nil { try check("\(pass)-\(name)", against: memory.shown()) }
            }
            // After close: the console as it was (restore) or the last frame (retain, last pass).
            try check("\(pass)-after-close", against: retained ? memory.shown() : before.pixmap)
        }
    }
}
