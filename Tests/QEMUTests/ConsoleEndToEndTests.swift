// SPDX-License-Identifier: MIT
import Assets
import Display
import Foundation
import HUD
import HUDProtocol
import Raster
import Testing

@testable import splashhud_display_guest

/// The VT under the HUD, on bochs (DRM fbdev emulation): the guest (Tests/DisplayGuest/ConsoleGuest.swift)
/// takes the console into KD_GRAPHICS/VT_PROCESS with Console, shows one HUD frame through
/// FBDevDisplay, and leaves. fbcon's cursor must be gone from the HUD frame (no cell is excluded
/// here); the display is closed with .retain, so the console text that must be back afterwards can
/// only come from KD_TEXT. (The same VT round trip with DRMDisplay, whose release callback drops DRM
/// master, is DRMEndToEndTests' bochs `vt` pass.) Two boots, about 15 s each:
/// - exit: `chvt 2` while the HUD is up (release: the guest stops drawing and acknowledges; VT2's
///   text is on screen), `chvt 1` (acquire: acknowledged and redrawn), then a normal exit;
/// - sigterm: the guest sends itself SIGTERM; the main path restores the console and dies of it.
@Suite("Console end to end under QEMU", .serialized)
struct ConsoleEndToEndTests {
    static let width: Int32 = 1280, height: Int32 = 800

    @Test("console taken and given back", arguments: ["exit", "sigterm"])
    func consoleComesBack(_ mode: String) throws {
        try VMSelftestTests.requireQEMUTools()
        let program = try GuestProgram.path()
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-console-\(mode)-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: shots) }
        let run = try VMRun(display: "bochs", program: program, shotsDir: shots, args: ["--console", mode])
        print("console-\(mode): \(run.summary)")
        try #require(run.status == 0, "console-\(mode): guest failed (status \(run.status)):\n\(run.output)")
        #expect(run.info.contains("VT /dev/tty1 kd 0 vtmode 0"), "\(run.info)")
        #expect(!run.info.contains { $0.hasPrefix("DIAG") }, "restore problems: \(run.info)")
        let cursor = try #require(run.cursorCell(width: Self.width, height: Self.height), "no CONSOLE line:\n\(run.output)")

        // The HUD frame as MemoryDisplay shows it.
        let memory = MemoryDisplay(width: Self.width, height: Self.height, format: .xrgb8888)
        let player = try GuestScene.player(width: Self.width, height: Self.height, resources: try HUDResources.system())
        _ = player.render(at: .seconds(consoleInstant))
        _ = try memory.present(player.renderer.frame.view, damage: [IntRect(x: 0, y: 0, width: Self.width, height: Self.height)])
        let hud = memory.shown()

        func dump(_ shot: String) throws -> ScreenDump {
            let d = try ScreenDump(contentsOf: "\(shots)/\(shot).ppm")
            try #require(d.width == Self.width && d.height == Self.height, "\(shot): \(d.width)x\(d.height)")
            return d
        }
        func expectSame(_ shot: String, _ expected: Pixmap, excluding: IntRect = .zero) throws {
            let d = compareScreens(try dump(shot), expected, excluding: excluding)
            if d.count != 0, let p = d.picture { save(p, "\(mode)-\(shot)-diff") }
            #expect(d.count == 0, "console-\(mode) \(shot): \(d)")
        }
        // fbcon's cursor no longer blinks over the frame: its cell is the HUD's, like every other.
        let inCell = compareScreens(try dump("hud"), hud, excluding: cursor)
        #expect(inCell.excludedCount == 0, "console-\(mode): \(inCell.excludedCount) pixels of fbcon's cursor cell \(cursor) differ from the HUD")
        try expectSame("hud", hud)
        // The console's text is back (its cursor blinks again, so that one cell is left out).
        try expectSame("after", try dump("before").pixmap, excluding: cursor)

        switch mode {
        case "exit":
            #expect(run.info.contains("CHILD exited 0"), "\(run.info)")
            #expect(run.info.contains("RELEASE: stop drawing") && run.info.contains("OUTCOME released")
                && run.info.contains("OUTCOME acquired"), "\(run.info)")
            // One present at start, one on acquire; the one tried while VT2 was in front was skipped.
            #expect(run.info.contains("DRAWN 2 skipped 1"), "\(run.info)")
            // VT2: black but for its line of text at the top; nothing of the HUD.
            let vt2 = try dump("vt2")
            try #require(vt2.width == Self.width && vt2.height == Self.height, "vt2 is \(vt2.width)x\(vt2.height)")
            let (firstLine, below) = vt2.litPixels(splitAtRow: cursor.height)
            #expect(firstLine > 100, "vt2: no text in the first line (\(firstLine) lit pixels)")
            // Below it at most VT2's cursor, one cell.
            #expect(below <= Int(cursor.width * cursor.height), "vt2: \(below) lit pixels below the first line: the HUD still shows?")
            // Back on VT1: redrawn, the whole HUD again.
            try expectSame("hud-again", hud)
        default:
            #expect(run.info.contains("TERMINATE 15: console restored"), "\(run.info)")
            #expect(run.info.contains("CHILD signal 15"), "died of SIGTERM, as its parent must see: \(run.info)")
        }
    }

    func save(_ picture: Pixmap, _ name: String) {
        let dir = VMSelftestTests.repo.appendingPathComponent(".build/qemu-failures").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try? PNGEncoder.write(picture, to: "\(dir)/console-\(name).png")
    }
}
