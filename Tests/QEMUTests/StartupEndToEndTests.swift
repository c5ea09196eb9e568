// SPDX-License-Identifier: MIT
// Start-up in early boot (one boot, about 20 s, bochs-drm): the guest runs its program 3 s after
// the kernel starts, when the kernel's random pool is not initialised yet (no virtio-rng). The
// Swift runtime would wait for it before main (1.1 to 1.5 s here); CEarlyStart answers that call
// with best-effort bytes, so the release daemon reaches main and its first frame, and a client
// call its answer, without waiting. execstamp (scripts/qemu/execstamp.c) says whether the pool was
// ready at the exec and gives the daemon its exec time, so its start-up line has exec to main.
import Foundation
import Testing

@Suite("Start-up under QEMU", .serialized)
struct StartupEndToEndTests {
    static let guestScript = """
        #!/bin/sh
        X="$1"; D="$2"; S="$3"
        mkdir -p /run
        "$X" "$D" --display drm --console none --socket /run/hud --duration 4 --log-level info > /tmp/daemon.log 2>&1 &
        i=0; while ! "$S" ping --socket /run/hud --timeout 200 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
        "$X" /bin/busybox time -f "CLIENT %e s" "$S" status "Early" --socket /run/hud 2>&1
        echo "CLIENT-STATUS $?"
        wait
        cat /tmp/daemon.log
        """

    @Test func neitherProgramWaitsForTheRandomPool() throws {
        try VMSelftestTests.requireQEMUTools()
        let daemon = try GuestProgram.path(product: "splashhudd", release: true)
        let client = try GuestProgram.path(product: "splashhud", release: true)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-startup-vm-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let stamp = "\(dir)/execstamp"
        let (cc, ccOutput) = try runProcess("/usr/bin/env", ["cc", "-O2", "-Wall", "-o", stamp, "scripts/qemu/execstamp.c"])
        try #require(cc == 0, "\(ccOutput)")
        try Self.guestScript.write(toFile: "\(dir)/guest.sh", atomically: true, encoding: .utf8)
        let run = try VMRun(display: "bochs", program: "/bin/busybox", shotsDir: "\(dir)/shots", timeout: 180, verbose: true,
                            files: try guestFiles([stamp, daemon, client]) + ["\(dir)/guest.sh:/startup-test.sh"], timed: true,
                            args: ["sh", "/startup-test.sh", stamp, daemon, client])
        let lines = run.output.split(whereSeparator: \.isNewline).map(String.init)
        print(lines.filter { $0.contains("POOL") || $0.contains("CLIENT") || $0.contains("start-up") || $0.contains("random pool") }
            .joined(separator: "\n"))
        #expect(run.status == 0, "\(run.output)")
        let pools = lines.filter { $0.hasPrefix("POOL ") }
        try #require(pools.count == 2, "\(run.output)")
        guard pools[0] == "POOL not-ready" else {
            // A host fast enough to initialise the pool within 3 s of boot leaves nothing to check.
            withKnownIssue("the random pool was ready before the daemon started: nothing to wait for") { Issue.record("pool ready") }
            return
        }
        #expect(lines.contains { $0.contains("the kernel's random pool was not ready at start") }, "\(run.output)")
        let startup = try #require(lines.first { $0.contains("start-up: exec to main") }, "\(run.output)")
        let execToMain = try #require(Self.milliseconds(after: "exec to main ", in: startup))
        // Waiting for the pool takes over 1000 ms here; loading and starting the program, well under.
        #expect(execToMain < 800, "\(startup)")
        // The client really reached the daemon (an option before the verb once made it fail at once).
        #expect(lines.contains("CLIENT-STATUS 0"), "\(run.output)")
        if pools[1] == "POOL not-ready" {
            let client = try #require(lines.first { $0.hasPrefix("CLIENT ") }, "\(run.output)")
            let seconds = Double(client.dropFirst("CLIENT ".count).split(separator: " ")[0]) ?? 99
            #expect(seconds < 0.8, "\(client)")
        }
    }

    static func milliseconds(after label: String, in line: String) -> Double? {
        guard let r = line.range(of: label) else { return nil }
        return Double(line[r.upperBound...].prefix { $0.isNumber || $0 == "." })
    }
}
