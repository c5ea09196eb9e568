// Faults a boot meets, on real kernel drivers (one boot, about 40 s, the std VGA):
// - the daemon starts before the display's driver has loaded (`--wait-for-display`): it answers
//   its clients at once, and once `insmod bochs` brings the card it shows the HUD it was told
//   about at once (about 1 s from the card's uevent in this debug build under TCG), bit for bit
//   what the host's memory display draws, and again after the kernel's console has set up;
// - the daemon is killed with SIGKILL (no clean-up at all: its socket stays, its framebuffers and
//   DRM master die with it) and the next one recovers: it takes the stale socket over, takes the
//   card and shows the same picture again.
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
        "$D" --log-level info & pid=$!
        up
        "$S" progress 0.5 "Waiting for the screen"; echo "RESULT again $?"
        sleep 5
        ctl "SHOT again settled"
        "$S" quit; wait $pid; echo "RESULT daemon $?"

        """

    @Test("a daemon started before the driver shows once it loads; after SIGKILL the next one recovers")
    func lateDriverAndKill() throws {
        try VMSelftestTests.requireQEMUTools()
        let splashhud = try GuestProgram.path(product: "splashhud")
        let daemon = try GuestProgram.path(product: "splashhudd")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-fault-vm-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.guestScript.write(toFile: "\(dir)/guest.sh", atomically: true, encoding: .utf8)
        var libs: Set<String> = []
        for binary in [splashhud, daemon] {
            let (lddStatus, ldd) = try runProcess("/usr/bin/ldd", [binary])
            try #require(lddStatus == 0, "ldd \(binary): \(ldd)")
            for line in ldd.split(whereSeparator: \.isNewline) {
                if let lib = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first(where: { $0.hasPrefix("/") }) { libs.insert(String(lib)) }
            }
        }
        let run = try VMRun(display: "bochs-late", program: "/bin/busybox", shotsDir: "\(dir)/shots", timeout: 300, verbose: true,
                            files: [splashhud, daemon, "\(dir)/guest.sh:/fault-test.sh"] + libs.sorted(),
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
        // The daemon's own figure, from the card's uevent to its first frame presented. A debug
        // build under TCG renders and copies its first 1280x800 frame in about a second (a release
        // build on hardware, in a few milliseconds): the bound leaves room for a loaded host.
        let shown = output.split(whereSeparator: \.isNewline).first { $0.contains("first frame") && $0.contains("after its hotplug notice") }
            .flatMap { line in line.components(separatedBy: "first frame ").last?.split(separator: " ").first.flatMap { Int($0) } }
        #expect(shown.map { $0 <= 1500 } == true, "the HUD must reach the new screen at once: \(shown.map { "\($0) ms" } ?? "never")")
        #expect(output.contains("SHOWN after"), "the client sees the new output too:\n\(output)")
        #expect(output.contains("RESULT killed 137"), "\(output)")
        #expect(output.contains("RESULT stale socket left"), "SIGKILL leaves the socket behind:\n\(output)")
        #expect(output.contains("took over a stale socket"), "the next daemon takes it over:\n\(output)")
        #expect(output.contains("RESULT again 0") && output.contains("RESULT daemon 0"), "\(output)")

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
    }
}
