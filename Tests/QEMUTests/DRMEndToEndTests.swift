import Assets
import Display
import Foundation
import Raster
import Testing

@testable import splashhud_drm_guest

/// Known frames through the real KMS path: the guest program (Tests/DRMGuest) opens the card of a
/// real kernel DRM driver under QEMU with DRMDisplay, presents DRMGuestFrames' full frame and two
/// partial ones with a screendump after each, gives up DRM master to a second opener of the card
/// and takes it back for a fourth frame, and closes; here the same frames go to a MemoryDisplay
/// and every dump must equal its scanout exactly (XRGB8888, no tolerance). The guest switches the VT
/// to KD_GRAPHICS, so fbcon's cursor stops blinking and close(.restore) must give back the console's
/// pixels exactly. One boot per configuration, 15-25 s each.
@Suite("DRMDisplay end to end under QEMU", .serialized)
struct DRMEndToEndTests {
    /// One DRMDisplay opened in the guest: the strategy, an optional mode request, and the mode
    /// it must end up in.
    struct Pass: Sendable {
        var strategy: String
        var request: String? = nil
        var width: Int32
        var height: Int32
        var argument: String { request.map { "\(strategy):\($0)" } ?? strategy }
    }

    struct Config: CustomTestStringConvertible, Sendable {
        var display: String
        var driver: String
        var passes: [Pass]
        var close: CloseBehaviour
        var rotation: Rotation = .r0
        var cmdline = ""
        /// fbcon's screen size (the "before" shot and what close(.restore) gives back).
        var consoleWidth: Int32 = 1280
        var consoleHeight: Int32 = 800
        var name: String { "\(display)-\(passes.map(\.strategy).joined(separator: "+"))-r\(rotation.rawValue)-\(close)" }
        var testDescription: String { name }
    }

    static let configs: [Config] = [
        // bochs: atomic, then legacy SetCrtc/PageFlip, both at the preferred mode; both restore the
        // console. (A mode change is checked on virtio-gpu: QEMU's bochs clears video memory on
        // every mode change, the driver does not set VBE_DISPI_NOCLEARMEM, so fbcon's pixels are
        // gone after one until fbcon redraws on leaving KD_GRAPHICS.)
        Config(display: "bochs", driver: "bochs-drm",
               passes: [Pass(strategy: "atomic", width: 1280, height: 800), Pass(strategy: "legacy", width: 1280, height: 800)],
               close: .restore),
        // virtio-gpu (needs a flip or DirtyFB to update the host's copy), frames turned 90°: atomic
        // at the kernel's `video=` mode (fbcon uses it too), then legacy with a mode request (a
        // real mode change, and back on restore); the last pass retains its frame.
        Config(display: "virtio", driver: "virtio_gpu",
               passes: [Pass(strategy: "atomic", width: 1024, height: 768),
                        Pass(strategy: "legacy", request: "800x600@60", width: 800, height: 600)],
               close: .retain, rotation: .r90, cmdline: "video=Virtual-1:1024x768@60", consoleWidth: 1024, consoleHeight: 768),
    ]

    @Test("screendumps equal the memory display's scanout", arguments: configs)
    func framesReachTheScreen(_ config: Config) throws {
        for tool in ["qemu-system-x86_64", "busybox", "python3"] {
            try #require(VMSelftestTests.onPath(tool), "\(tool) is not installed: run scripts/setup.sh")
        }
        let program = try GuestProgram.path(product: "splashhud-drm-guest")
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-drm-\(config.name)-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: shots) }
        let run = try VMRun(display: config.display, program: program, shotsDir: shots, cmdline: config.cmdline, timeout: 90,
                            args: ["--strategies", config.passes.map(\.argument).joined(separator: ","), "--close", "\(config.close)",
                                   "--rotate", "\(config.rotation.rawValue)"])
        print("\(config.name): \(run.summary)")
        for line in run.info where line.hasPrefix("PRESENT") || line.hasPrefix("DIAG") || line.hasPrefix("MASTER") { print("  \(line)") }
        try #require(run.status == 0, "\(config.name): guest failed (status \(run.status)):\n\(run.output)")

        let before = try ScreenDump(contentsOf: "\(shots)/before.ppm")
        try #require(before.width == config.consoleWidth && before.height == config.consoleHeight, "console is \(before.width)x\(before.height)")
        func check(_ shot: String, against expected: Pixmap) throws {
            let dump = try ScreenDump(contentsOf: "\(shots)/\(shot).ppm")
            try #require(dump.width == expected.width && dump.height == expected.height,
                         "\(shot): screendump is \(dump.width)x\(dump.height), expected \(expected.width)x\(expected.height)")
            let d = compareScreens(dump, expected)
            if d.count != 0 { saveFailure(config: config, shot: shot, dump: dump, expected: expected, difference: d) }
            #expect(d.count == 0, "\(config.name) \(shot): \(d) (pictures in .build/qemu-failures/)")
        }
        for pass in config.passes {
            let strategy = pass.strategy
            // The driver, the strategy asked for, the mode, XRGB8888, the rotation.
            let output = run.info.first { $0.hasPrefix("OUTPUT \(strategy) ") } ?? "no OUTPUT line"
            #expect(output.hasPrefix("OUTPUT \(strategy) /dev/dri/card0 \(config.driver) \(strategy) Virtual-1 \(pass.width)x\(pass.height) "),
                    "\(output)")
            #expect(output.contains(" XRGB8888 r\(config.rotation.rawValue) outputs 1"), "\(output)")

            let memory = MemoryDisplay(width: pass.width, height: pass.height, format: .xrgb8888, rotation: config.rotation)
            let frameWidth = memory.outputs[0].frameWidth, frameHeight = memory.outputs[0].frameHeight
            let frame = Pixmap(width: frameWidth, height: frameHeight)
            for step in DRMGuestFrames.steps(width: frameWidth, height: frameHeight) {
                step.draw(frame.view)
                _ = try memory.present(frame.view, damage: step.damage)
                try check("\(strategy)-\(step.name)", against: memory.shown())
            }
            // Master given up, taken by a second opener: present refuses clearly; once that opener
            // is gone the next present takes master back and shows the fourth frame.
            let refused = run.info.first { $0.hasPrefix("MASTER \(strategy) ") } ?? "no MASTER line"
            #expect(refused.hasPrefix("MASTER \(strategy) refused: ioctl drmSetMaster (another process holds DRM master"), "\(refused)")
            let after = DRMGuestFrames.afterMasterLoss(width: frameWidth, height: frameHeight)
            after.draw(frame.view)
            _ = try memory.present(frame.view, damage: after.damage)
            try check("\(strategy)-\(after.name)", against: memory.shown())
            // The console as it was, mode included, or (retain, last pass only) the last frame.
            let retained = config.close == .retain && strategy == config.passes.last?.strategy
            try check("\(strategy)-closed", against: retained ? memory.shown() : before.pixmap)
        }
    }

    func saveFailure(config: Config, shot: String, dump: ScreenDump, expected: Pixmap, difference: ScreenDifference) {
        let dir = VMSelftestTests.repo.appendingPathComponent(".build/qemu-failures").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let stem = "\(dir)/drm-\(config.name)-\(shot)"
        try? PNGEncoder.write(dump.pixmap, to: stem + "-screen.png")
        try? PNGEncoder.write(expected, to: stem + "-expected.png")
        if let p = difference.picture { try? PNGEncoder.write(p, to: stem + "-diff.png") }
    }
}

