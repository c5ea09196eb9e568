// A boot-like script that uses only Debian's `plymouth` client, against splashhudd --plymouth on a
// real KMS driver (virtio-gpu) under QEMU: ping until it answers, show-splash, display-message,
// system-update, then quit. The screendump of the static HUD must equal, bit for bit, what the same
// requests give on the host's memory display; after quit the HUD is gone from the screen.
import Assets
import Foundation
import Raster
import Testing

@Suite("Plymouth's client under QEMU", .serialized)
struct PlymouthEndToEndTests {
    static let guestScript = """
        #!/bin/sh
        D="$1"; P="$2"
        exec 3<>/dev/ttyS1
        ctl() { echo "$1" >&3; read -r answer <&3; echo "ctl $1 -> $answer"; }
        mkdir -p /run
        "$D" --plymouth --socket none --log-level info & pid=$!
        i=0; while ! "$P" --ping && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
        "$P" --show-splash; echo "RESULT show $?"
        "$P" display-message --text="Booting"; echo "RESULT message $?"
        "$P" system-update --progress=50; echo "RESULT update $?"
        "$P" ask-for-password --prompt=Disk </dev/null; echo "RESULT password $?"
        sleep 6   # a debug build under TCG: fade-in and the frames after it
        ctl "SHOT hud settled"
        "$P" quit; echo "RESULT quit $?"
        wait $pid; echo "RESULT daemon $?"
        ctl "SHOT after stable"

        """

    @Test func aBootScriptWithOnlyPlymouthCommands() throws {
        try VMSelftestTests.requireQEMUTools()
        let plymouth = "/usr/bin/plymouth"
        try #require(FileManager.default.isExecutableFile(atPath: plymouth), "the plymouth package is not installed")
        let daemon = try GuestProgram.path(product: "splashhudd")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-plymouth-vm-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.guestScript.write(toFile: "\(dir)/guest.sh", atomically: true, encoding: .utf8)
        let files = try guestFiles([daemon, plymouth])
        let run = try VMRun(display: "virtio", program: "/bin/busybox", shotsDir: "\(dir)/shots", timeout: 300, verbose: true,
                            files: files + ["\(dir)/guest.sh:/ply-test.sh"],
                            args: ["sh", "/ply-test.sh", daemon, plymouth])
        print(run.output.split(whereSeparator: \.isNewline).filter { $0.contains("RESULT") || $0.contains("ended:") || $0.contains("plymouth") }
            .joined(separator: "\n"))
        try #require(run.status == 0, "vmtest failed (\(run.status)):\n\(run.output)")
        for step in ["show", "message", "update", "quit", "daemon"] {
            #expect(run.output.contains("RESULT \(step) 0"), "\(step) must succeed:\n\(run.output)")
        }
        #expect(!run.output.contains("RESULT password 0"), "a password request must be refused:\n\(run.output)")
        #expect(run.output.contains("display: drm, outputs card0-Virtual-1 1280x800"), "\(run.output)")

        // The same on the host's memory display (a script's `progress` sets the text with the value,
        // as psplash's PROGRESS after its MSG leaves it).
        try "@0 show\n@0 progress 0.5 Booting\n".write(toFile: "\(dir)/s.hud", atomically: true, encoding: .utf8)
        let (hostStatus, hostLog) = try runProcess(daemon, ["--display", "memory:1280x800", "--socket", "none", "--script", "\(dir)/s.hud",
                                                            "--duration", "1.5", "--retain", "--out", "\(dir)/host", "--log-level", "error"])
        try #require(hostStatus == 0, "\(hostLog)")
        let expected = try PNGDecoder.decode(contentsOf: "\(dir)/host/shown-last.png")
        let hud = try PNGDecoder.decode(contentsOf: "\(dir)/shots/hud.png")
        let after = try PNGDecoder.decode(contentsOf: "\(dir)/shots/after.png")
        try #require(hud.width == expected.width && hud.height == expected.height)
        let off = ServiceEndToEndTests.differing(expected, hud)
        #expect(off == 0, "\(off) pixels of the screendump differ from the memory display's frame")

        #expect(ServiceEndToEndTests.differing(expected, after) > 2000, "after quit the HUD must be gone")
    }
}
