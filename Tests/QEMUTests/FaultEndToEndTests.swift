// SPDX-License-Identifier: MIT
// Faults a boot meets, on real kernel drivers (one boot, about 40 s, the std VGA):
// - the daemon starts before the display's driver has loaded (`--wait-for-display`): it answers
//   its clients at once, and once `insmod bochs` brings the card it shows the HUD it was told
//   about within a second of the card's uevent (the release daemon, as shipped), bit for bit what
//   the host's memory display draws, and again after the kernel's console has set up;
// - the daemon is killed with SIGKILL (no clean-up at all: its socket stays, its framebuffers and
//   DRM master die with it) and the next one recovers: it takes the stale socket over, takes the
//   card and shows the same picture again;
// - DRM master lost and regained through a VT switch away and back (redrawn bit for bit);
// - its state directory full, then read-only: the boot estimate is not saved, logged, exit 0;
// - SIGINT: the daemon dies of it with the console's picture back.
import Assets
import Foundation
import Raster
import Testing

@Suite("Faults under QEMU", .serialized)
struct FaultEndToEndTests {
    static let guestScript = """
        #!/bin/sh
        S="$1"; D="$2"
        exec 3<>/dev/ttyS1
        ctl() { echo "$1" >&3; read -r answer <&3; echo "ctl $1 -> $answer"; }
        up() { i=0; while ! "$S" ping --timeout 200 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; }
        ms() { read u rest < /proc/uptime; echo $(( ${u%.*} * 1000 + 1${u#*.}0 - 1000 )); }
        mkdir -p /run
        ls /dev/dri 2>/dev/null; echo "RESULT cards before: $(ls /dev/dri 2>/dev/null | wc -l)"
        "$D" --wait-for-display --log-level info & pid=$!
        up
        "$S" progress 0.5 "Waiting for the screen"; echo "RESULT progress $?"
        echo "EARLY $("$S" state)"
        for m in $(cat /modules/late); do insmod /modules/$m || echo "insmod $m failed"; done
        t0=$(ms)
        i=0; while ! "$S" state --timeout 2000 | grep -q "outputs card"; do i=$((i+1)); [ $i -gt 200 ] && break; done
        echo "SHOWN after $(( $(ms) - t0 )) ms"
        sleep 5
        echo "LATE $("$S" state)"
        ctl "SHOT arrived settled"
        kill -9 $pid; wait $pid; echo "RESULT killed $?"
        [ -S /run/splashhud/control ] && echo "RESULT stale socket left"
        mkdir -p /mnt/full /mnt/ro
        mount -t tmpfs -o size=8k tmpfs /mnt/full && dd if=/dev/zero of=/mnt/full/fill bs=1k count=64 2>/dev/null
        mount -t tmpfs -o ro tmpfs /mnt/ro
        "$D" --boot-estimate --state-dir /mnt/full --log-level info & pid=$!
        up
        "$S" progress 0.5 "Waiting for the screen"; echo "RESULT again $?"
        sleep 5
        ctl "SHOT again settled"
        # DRM master lost and regained: a VT switch away (fbcon takes the card back) and back.
        chvt 2; sleep 2; ctl "SHOT away stable"
        chvt 1; sleep 4; ctl "SHOT back settled"
        # Its state directory is full: the boot estimate is not saved, the daemon ends cleanly.
        "$S" quit; wait $pid; echo "RESULT daemon $?"
        # A read-only state directory, then SIGINT: the console comes back.
        "$D" --boot-estimate --state-dir /mnt/ro --log-level info & pid=$!
        up
        "$S" quit; wait $pid; echo "RESULT readonly $?"
        "$D" --log-level info & pid=$!
        up
        "$S" progress 0.5 "Waiting for the screen"
        sleep 4
        kill -INT $pid; wait $pid; echo "RESULT int $?"
        sleep 1; ctl "SHOT restored stable"

        """

    @Test("a daemon started before the driver shows once it loads; after SIGKILL the next one recovers")
    func lateDriverAndKill() throws {
        try VMSelftestTests.requireQEMUTools()
        let splashhud = try GuestProgram.path(product: "splashhud")
        // The daemon as shipped (release): the time to the first frame is a shipped binary's.
        let daemon = try GuestProgram.path(product: "splashhudd", release: true)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-fault-vm-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.guestScript.write(toFile: "\(dir)/guest.sh", atomically: true, encoding: .utf8)
        let files = try guestFiles([splashhud, daemon])
        let run = try VMRun(display: "bochs-late", program: "/bin/busybox", shotsDir: "\(dir)/shots", timeout: 300, verbose: true,
                            files: files + ["\(dir)/guest.sh:/fault-test.sh"],
                            args: ["sh", "/fault-test.sh", splashhud, daemon])
        let output = run.output
        print(output.split(whereSeparator: \.isNewline).filter {
            $0.contains("vmtest: bochs-late") || $0.contains("RESULT") || $0.contains("SHOWN") || $0.contains("EARLY") || $0.contains("LATE")
                || $0.contains("splashhudd:")
        }.joined(separator: "\n"))
        try #require(run.status == 0, "vmtest failed (\(run.status)):\n\(output)")
        #expect(output.contains("RESULT cards before: 0"), "no card may exist before the driver loads:\n\(output)")
        #expect(output.contains("waiting for one to appear"), "\(output)")
        #expect(output.contains("RESULT progress 0"), "the daemon answers before it has a screen:\n\(output)")
        #expect(output.contains("EARLY visible yes mode ring progress 0.5 status \"Waiting for the screen\" outputs none"), "\(output)")
        // The daemon's own figure, from the card's uevent to its first frame presented: within a
        // second even under TCG (about 20 times slower than the hardware).
        let shown = output.split(whereSeparator: \.isNewline).first { $0.contains("first frame") && $0.contains("after its hotplug notice") }
            .flatMap { line in line.components(separatedBy: "first frame ").last?.split(separator: " ").first.flatMap { Int($0) } }
        #expect(shown.map { $0 <= 1000 } == true, "the HUD must reach the new screen within 1 s: \(shown.map { "\($0) ms" } ?? "never")")
        #expect(output.contains("SHOWN after"), "the client sees the new output too:\n\(output)")
        #expect(output.contains("RESULT killed 137"), "\(output)")
        #expect(output.contains("RESULT stale socket left"), "SIGKILL leaves the socket behind:\n\(output)")
        #expect(output.contains("took over a stale socket"), "the next daemon takes it over:\n\(output)")
        #expect(output.contains("RESULT again 0") && output.contains("RESULT daemon 0"), "\(output)")
        #expect(output.contains("boot estimate: not remembered") && output.contains("No space left on device"), "a full state directory is logged:\n\(output)")
        #expect(output.contains("RESULT readonly 0") && output.contains("Read-only file system"), "a read-only one too:\n\(output)")
        #expect(output.contains("RESULT int 130"), "SIGINT ends the daemon by the signal (128 + 2):\n\(output)")

        // Both screens equal the host's memory display drawing the same HUD at the same size.
        let arrived = try PNGDecoder.decode(contentsOf: "\(dir)/shots/arrived.png")
        let again = try PNGDecoder.decode(contentsOf: "\(dir)/shots/again.png")
        try "@0 progress 0.5 \"Waiting for the screen\"\n".write(toFile: "\(dir)/s.hud", atomically: true, encoding: .utf8)
        let (hostStatus, hostLog) = try runProcess(daemon, ["--display", "memory:\(arrived.width)x\(arrived.height)", "--socket", "none",
                                                               "--script", "\(dir)/s.hud", "--duration", "1.5", "--retain",
                                                               "--out", "\(dir)/host", "--log-level", "error"])
        try #require(hostStatus == 0, "\(hostLog)")
        let expected = try PNGDecoder.decode(contentsOf: "\(dir)/host/shown-last.png")
        try #require(again.width == arrived.width && again.height == arrived.height)
        #expect(ServiceEndToEndTests.differing(expected, arrived) == 0, "the late screen differs from the host's render")
        #expect(ServiceEndToEndTests.differing(expected, again) == 0, "after SIGKILL the next daemon's screen differs from the host's render")
        // Away on VT2 the console is on the card, not the HUD; back on VT1 the HUD is redrawn bit for bit.
        let away = try PNGDecoder.decode(contentsOf: "\(dir)/shots/away.png")
        let back = try PNGDecoder.decode(contentsOf: "\(dir)/shots/back.png")
        #expect(ServiceEndToEndTests.differing(expected, away) > 1000, "VT2 must not show the HUD")
        #expect(ServiceEndToEndTests.differing(expected, back) == 0, "after the VT switch back the HUD differs from the host's render")
        // After SIGINT the console's picture is back: hardly any of the HUD's pixels remain.
        let restored = try PNGDecoder.decode(contentsOf: "\(dir)/shots/restored.png")
        var lit = 0, left = 0
        for y in 0..<expected.height {
            let e = expected.view.row(y), r = restored.view.row(y)
            for x in 0..<Int(expected.width) where e[x] & 0x00FF_FFFF != 0 {
                lit += 1
                if r[x] & 0x00FF_FFFF == e[x] & 0x00FF_FFFF { left += 1 }
            }
        }
        #expect(lit > 2000 && left * 20 < lit, "after SIGINT \(left) of the HUD's \(lit) pixels are still on screen")
    }
}
