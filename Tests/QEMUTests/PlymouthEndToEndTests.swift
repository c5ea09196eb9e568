// SPDX-License-Identifier: MIT
// A boot-like script that uses only Debian's `plymouth` client, against splashhudd --plymouth on a
// real KMS driver (virtio-gpu) under QEMU: ping until it answers, show-splash, display-message,
// system-update, ask-for-password (the passphrase typed on a virtio keyboard through QMP: the
// kernel's keyboard driver, keymap and VT deliver it, as at a real boot), then quit. The
// screendumps of the static HUD and of the prompt with its bullets must equal, bit for bit, what the
// same requests give on the host's memory display; after quit the HUD is gone from the screen.
import Assets
import Foundation
import GoldenSupport
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
        sleep 6   # a debug build under TCG: fade-in and the frames after it
        ctl "SHOT hud settled"
        "$P" ask-for-password --prompt="Please unlock disk root" </dev/null >/tmp/pw & ask=$!
        i=0; while [ "$(cat /sys/class/tty/tty0/active 2>/dev/null)" = "" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
        sleep 3
        # kp_7: the keypad types a digit (Num Lock is on while the prompt reads keys).
        for k in s 3 c r e t kp_7; do ctl "KEY $k"; done
        sleep 2
        ctl "SHOT prompt settled"
        ctl "KEY ret"
        wait $ask; echo "RESULT password $? [$(cat /tmp/pw)]"
        sleep 2
        ctl "SHOT back settled"
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
                            files: files + ["\(dir)/guest.sh:/ply-test.sh"], input: true,
                            args: ["sh", "/ply-test.sh", daemon, plymouth])
        print(run.output.split(whereSeparator: \.isNewline).filter { $0.contains("RESULT") || $0.contains("ended:") || $0.contains("plymouth") }
            .joined(separator: "\n"))
        try #require(run.status == 0, "vmtest failed (\(run.status)):\n\(run.output)")
        for step in ["show", "message", "update", "quit", "daemon"] {
            #expect(run.output.contains("RESULT \(step) 0"), "\(step) must succeed:\n\(run.output)")
        }
        #expect(run.output.contains("RESULT password 0 [s3cret7]"), "the passphrase typed on the keyboard:\n\(run.output)")
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
        // Once answered, the HUD is back as it was.
        let back = try PNGDecoder.decode(contentsOf: "\(dir)/shots/back.png")
        #expect(ServiceEndToEndTests.differing(expected, back) == 0, "the HUD must come back after the prompt")

        // The prompt with seven bullets: the memory display draws the same pixels.
        let promptHost = try PromptRender.memoryDisplay(width: 1280, height: 800, prompt: "Please unlock disk root", typed: "s3cret7")
        let prompt = try PNGDecoder.decode(contentsOf: "\(dir)/shots/prompt.png")
        let promptOff = ServiceEndToEndTests.differing(promptHost, prompt)
        #expect(promptOff == 0, "\(promptOff) pixels of the prompt's screendump differ from the memory display's")
        #expect(ServiceEndToEndTests.differing(expected, prompt) > 2000, "the prompt must show over the HUD")
    }
}
