// SPDX-License-Identifier: MIT
import Display
import Foundation
import Raster
import Testing

@testable import splashhud_drm_guest

/// Known frames through the real KMS path: the guest program (Tests/DRMGuest) takes the VT with
/// Console (cursor hidden, KD_GRAPHICS, VT_PROCESS), opens the card of a real kernel DRM driver
/// under QEMU with DRMDisplay, presents DRMGuestFrames' full frame and two partial ones with a
/// screendump after each, gives up DRM master to a second opener of the card and takes it back for
/// a fourth frame, and closes; here the same frames go to a MemoryDisplay and every dump must equal
/// its scanout exactly (XRGB8888, no tolerance; RGB565 on its top 5/6/5 bits, both sides dithered
/// alike; no cell left out: fbcon draws nothing in
/// KD_GRAPHICS, so close(.restore) must give back the console's pixels exactly). A `vt` pass also
/// switches to VT2 and back with chvt: Console's release callback drops DRM master, fbcon shows
/// VT2's text and a second opener of the card becomes master there; on the acquire the whole frame
/// is presented again (master taken back) and must be on screen exactly.
/// After the last pass the console goes back to KD_TEXT and must show its text again. One boot
/// per configuration, 15-30 s each.
@Suite("DRMDisplay end to end under QEMU", .serialized)
struct DRMEndToEndTests {
    /// One DRMDisplay opened in the guest: the strategy, rotation, an optional mode request, the
    /// mode it must end up in, and whether it goes through a VT switch.
    struct Pass: Sendable {
        var strategy: String
        var rotation: Rotation = .r0
        var request: String? = nil
        var vt = false
        /// 1: drawn into the buffer on screen, shown by drmModeDirtyFB (no flips).
        var buffers = 2
        /// .rgb565: the pixel-format override (a profile's `pixel-format`), dithered like the
        /// memory display; compared on the top 5/6/5 bits.
        var format = PixelFormat.xrgb8888
        /// The third frame's page-flip event is swallowed in the guest: the display must give the
        /// flip up after its (shortened) timeout and go on showing exact frames.
        var lostFlip = false
        var width: Int32
        var height: Int32
        /// The guest's --passes word ("legacy:r270:800x600@60").
        var argument: String {
            ([strategy, "r\(rotation.rawValue)"] + [request, vt ? "vt" : nil, buffers == 1 ? "1buf" : nil, format == .rgb565 ? "rgb565" : nil, lostFlip ? "lostflip" : nil]
                .compactMap { $0 }).joined(separator: ":")
        }
        /// The guest's name for its shots and INFO lines.
        var label: String { "\(strategy)-r\(rotation.rawValue)" + (format == .rgb565 ? "-rgb565" : "") }
    }

    struct Config: CustomTestStringConvertible, Sendable {
        var display: String
        var driver: String
        var passes: [Pass]
        var close: CloseBehaviour
        var cmdline = ""
        /// The connector the driver names (cirrus calls its one "VGA-1").
        var connector = "Virtual-1"
        /// fbcon's screen size (the "before" shot and what close(.restore) gives back).
        var consoleWidth: Int32 = 1280
        var consoleHeight: Int32 = 800
        var name: String { "\(display)-\(passes.map { $0.label + ($0.vt ? "-vt" : "") }.joined(separator: "+"))-\(close)" }
        var testDescription: String { name }
    }

    /// fbcon's character cell (the kernel's 8x16 VGA font at these sizes).
    static let cellWidth: Int32 = 8, cellHeight: Int32 = 16

    static let configs: [Config] = [
        // bochs: atomic upright, then legacy SetCrtc/PageFlip turned 180° with a VT switch away and
        // back, both at the preferred mode; both restore the console. (A mode change is checked on
        // virtio-gpu: QEMU's bochs clears video memory on every mode change, the driver does not set
        // VBE_DISPI_NOCLEARMEM, so fbcon's pixels are gone after one until fbcon redraws on leaving
        // KD_GRAPHICS.)
        Config(display: "bochs", driver: "bochs-drm",
               passes: [Pass(strategy: "atomic", width: 1280, height: 800),
                        Pass(strategy: "legacy", rotation: .r180, vt: true, width: 1280, height: 800)],
               close: .restore),
        // virtio-gpu (needs a flip or DirtyFB to update the host's copy): atomic at the kernel's
        // `video=` mode (fbcon uses it too) turned 90° and single-buffered (DirtyFB), then legacy
        // double-buffered with a mode request (a real mode change, and back on restore) turned
        // 270°; the last pass retains its frame.
        Config(display: "virtio", driver: "virtio_gpu",
               passes: [Pass(strategy: "atomic", rotation: .r90, buffers: 1, width: 1024, height: 768),
                        Pass(strategy: "legacy", rotation: .r270, request: "800x600@60", width: 800, height: 600)],
               close: .retain, cmdline: "video=Virtual-1:1024x768@60", consoleWidth: 1024, consoleHeight: 768),
        // The other two DRM drivers of this kernel, once each at their preferred mode: cirrus
        // (system-memory buffers copied into 4 MiB of VRAM, connector VGA-1), whose plane also
        // takes RGB565, with the pixel-format override; and qxl, whose third flip event is lost.
        Config(display: "cirrus", driver: "cirrus",
               passes: [Pass(strategy: "atomic", format: .rgb565, width: 1024, height: 768)],
               close: .restore, connector: "VGA-1", consoleWidth: 1024, consoleHeight: 768),
        Config(display: "qxl", driver: "qxl",
               passes: [Pass(strategy: "atomic", lostFlip: true, width: 1024, height: 768)],
               close: .restore, consoleWidth: 1024, consoleHeight: 768),
    ]

    @Test("screendumps equal the memory display's scanout", arguments: configs)
    func framesReachTheScreen(_ config: Config) throws {
        try VMSelftestTests.requireQEMUTools()
        let program = try GuestProgram.path(product: "splashhud-drm-guest")
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-drm-\(config.name)-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: shots) }
        let run = try VMRun(display: config.display, program: program, shotsDir: shots, cmdline: config.cmdline, timeout: 120,
                            args: ["--passes", config.passes.map(\.argument).joined(separator: ","), "--close", "\(config.close)"])
        print("\(config.name): \(run.summary)")
        for line in run.info where ["PRESENT", "DIAG", "MASTER", "VT", "BUFFERS"].contains(where: line.hasPrefix) { print("  \(line)") }
        try #require(run.status == 0, "\(config.name): guest failed (status \(run.status)):\n\(run.output)")

        func dump(_ shot: String) throws -> ScreenDump { try ScreenDump(contentsOf: "\(shots)/\(shot).ppm") }
        let before = try dump("before")
        try #require(before.width == config.consoleWidth && before.height == config.consoleHeight, "console is \(before.width)x\(before.height)")
        func check(_ shot: String, against expected: Pixmap, bits: (Int, Int, Int) = (8, 8, 8), excluding: IntRect = .zero) throws {
            let dump = try dump(shot)
            try #require(dump.width == expected.width && dump.height == expected.height,
                         "\(shot): screendump is \(dump.width)x\(dump.height), expected \(expected.width)x\(expected.height)")
            let d = compareScreens(dump, expected, channelBits: bits, excluding: excluding)
            if d.count != 0 { d.save("drm-\(config.name)-\(shot)", dump: dump, expected: expected) }
            #expect(d.count == 0, "\(config.name) \(shot): \(d) (pictures in .build/qemu-failures/)")
        }
        for pass in config.passes {
            let label = pass.label, strategy = pass.strategy
            // The driver, the strategy asked for, the mode, XRGB8888, the rotation.
            let output = run.info.first { $0.hasPrefix("OUTPUT \(label) ") } ?? "no OUTPUT line"
            #expect(output.hasPrefix("OUTPUT \(label) /dev/dri/card0 \(config.driver) \(strategy) \(config.connector) \(pass.width)x\(pass.height) "),
                    "\(output)")
            #expect(output.contains(" \(pass.format.name) r\(pass.rotation.rawValue) outputs 1"), "\(output)")
            // Single-buffered on virtio-gpu: only drmModeDirtyFB makes the partial frames below
            // reach the host, so their exact screendumps prove it is called with the right rects.
            let buffers = run.info.first { $0.hasPrefix("BUFFERS \(label) ") } ?? "no BUFFERS line"
            #expect(buffers.hasPrefix("BUFFERS \(label) \(pass.buffers) dirtyfb "), "\(buffers)")
            if pass.buffers == 1 { #expect(!buffers.contains(" dirtyfb 0 "), "\(buffers)") }
            // One buffer for the first frame, the second made by the second present (a round trip
            // to the host on virtio-gpu kept out of the first frame).
            #expect(run.info.contains("BUFFERS-BEFORE \(label) 1"), "\(run.info.filter { $0.hasPrefix("BUFFERS-") })")
            #expect(run.info.contains("BUFFERS-AFTER \(label) \(pass.buffers)"), "\(run.info.filter { $0.hasPrefix("BUFFERS-") })")
            if pass.lostFlip {
                let lost = run.info.first { $0.hasPrefix("LOSTFLIP \(label) ") } ?? "no LOSTFLIP line"
                #expect(lost.hasPrefix("LOSTFLIP \(label) swallowed ") && lost.hasSuffix(" timeouts 1"), "\(lost)")
            }

            let memory = MemoryDisplay(width: pass.width, height: pass.height, format: pass.format, rotation: pass.rotation)
            let bits = pass.format == .rgb565 ? (5, 6, 5) : (8, 8, 8)
            let frameWidth = memory.outputs[0].frameWidth, frameHeight = memory.outputs[0].frameHeight
            let frame = Pixmap(width: frameWidth, height: frameHeight)
            for step in DRMGuestFrames.steps(width: frameWidth, height: frameHeight) {
                step.draw(frame.view)
                _ = try memory.present(frame.view, damage: step.damage)
                try check("\(label)-\(step.name)", against: memory.shown(), bits: bits)
            }
            // Master given up, taken by a second opener: present refuses clearly; once that opener
            // is gone the next present takes master back and shows the fourth frame.
            let refused = run.info.first { $0.hasPrefix("MASTER \(label) ") } ?? "no MASTER line"
            #expect(refused.hasPrefix("MASTER \(label) refused: ioctl drmSetMaster (another process holds DRM master"), "\(refused)")
            let after = DRMGuestFrames.afterMasterLoss(width: frameWidth, height: frameHeight)
            after.draw(frame.view)
            _ = try memory.present(frame.view, damage: after.damage)
            try check("\(label)-\(after.name)", against: memory.shown(), bits: bits)

            let retained = config.close == .retain && label == config.passes.last?.label
            if pass.vt {
                try checkVTSwitch(config: config, label: label, run: run, vt2: try dump("\(label)-vt2"))
                // Back on VT1: the whole frame again, exactly.
                try check("\(label)-vt-back", against: memory.shown(), bits: bits)
                // Restored: fbcon's framebuffer, which holds VT2's text now (fbcon drew VT2 into
                // it), but for VT2's blinking cursor cell, below its one line.
                if !retained {
                    try check("\(label)-closed", against: try dump("\(label)-vt2").pixmap,
                              excluding: IntRect(x: 0, y: Self.cellHeight, width: Self.cellWidth, height: Self.cellHeight))
                    continue
                }
            }
            // The console as it was, mode included, or (retain, last pass only) the last frame.
            try check("\(label)-closed", against: retained ? memory.shown() : before.pixmap, bits: retained ? bits : (8, 8, 8))
        }
        // KD_TEXT again: the console's text is back (cursor hidden for the shot), even after retain.
        try check("text", against: before.pixmap)
    }

    /// The VT round trip's facts and VT2's screen: fbcon's text, nothing of our frame.
    func checkVTSwitch(config: Config, label: String, run: VMRun, vt2: ScreenDump) throws {
        for fact in ["VT \(label) released master dropped", "VT \(label) chvt 2 exited 0", "VT \(label) another opener became master",
                     "VT \(label) acquired master held",
                     "VT \(label) chvt 1 exited 0", "VT \(label) drawn 1 skipped 1"] {
            #expect(run.info.contains(fact), "\(config.name): no \"\(fact)\" in \(run.info)")
        }
        try #require(vt2.width == config.consoleWidth && vt2.height == config.consoleHeight, "vt2 is \(vt2.width)x\(vt2.height)")
        let (firstLine, below) = vt2.litPixels(splitAtRow: Self.cellHeight)
        #expect(firstLine > 100, "\(config.name) vt2: no text in the first line (\(firstLine) lit pixels)")
        // Below it at most VT2's cursor, one cell (our frame lights nearly every pixel).
        #expect(below <= Int(Self.cellWidth * Self.cellHeight), "\(config.name) vt2: \(below) lit pixels below the first line: our frame still shows?")
    }
}

