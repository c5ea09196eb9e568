// SPDX-License-Identifier: MIT
// systemd's own writers to Plymouth's socket, the real binaries against splashhudd --plymouth:
// Debian's systemd-fsck runs a real e2fsck on a scratch file system (a loop device) and sends its
// progress to systemd-fsckd (socket-activated as systemd does it), which writes its updates,
// cancel hint and Ctrl+C keystroke watch to our socket. The HUD shows the check on its ring with
// systemd's sentence and fsckd's hint; Ctrl+C typed on the prompts' terminal (plymouthd reads
// keys there) cancels it; once the checks end the splash is as before. Root only (a loop device, a mount namespace
// whose /run holds fsckd's socket and the Plymouth pid file fsckd looks for); in the serialized
// suite of Plymouth's client (the socket name is fixed).
import Foundation
import GoldenSupport
import Testing

extension PlymouthClientTests {
    static let fsckPrograms = ["/lib/systemd/systemd-fsckd", "/lib/systemd/systemd-fsck", "/usr/bin/systemd-socket-activate",
                               "/usr/bin/unshare", "/sbin/losetup", "/sbin/mke2fs", "/sbin/tune2fs", "/sbin/e2fsck"]
    static var fsckRuns: Bool {
        getuid() == 0 && FileManager.default.fileExists(atPath: "/dev/loop-control")
            && fsckPrograms.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A loop device holding an ext4 file system whose check takes seconds (two million inodes
    /// with their tables written, all read by e2fsck's first pass: 3-5 s measured here) and is
    /// due (mounted 50 times, checked every 20), as a root checked at boot would be.
    func scratchFileSystem(_ dir: String) throws -> String {
        let image = "\(dir)/fs.img"
        try #require(FileManager.default.createFile(atPath: image, contents: nil) && truncate(image, 2 << 30) == 0, "\(image): cannot make it 2 GiB")
        for (program, arguments) in [("/sbin/mke2fs", ["-q", "-t", "ext4", "-N", "2000000", "-E", "lazy_itable_init=0", "-O", "^metadata_csum,^uninit_bg", image]),
                                     ("/sbin/tune2fs", ["-c", "20", "-C", "50", image])] {
            let (status, output) = try SplashBinary.run(program, arguments, timeout: 60)
            try #require(status == 0, "\(program): \(output)")
        }
        let (status, output) = try SplashBinary.run("/sbin/losetup", ["--find", "--show", image])
        try #require(status == 0, "losetup: \(output)")
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// systemd-fsck checking `device` with systemd-fsckd listening, as systemd-fsck@.service and
    /// systemd-fsckd.socket run them, in a mount namespace of its own. fsckd stays 30 s for more
    /// checks: it is stopped once `stop` exists (the test saw the check end on the HUD).
    func checkAsSystemdDoes(_ device: String, stop: String) throws -> Asker {
        let script = """
            mount -t tmpfs splashhud-fsck /run && mkdir -p /run/systemd /run/plymouth && echo $$ > /run/plymouth/pid || exit 9
            /usr/bin/systemd-socket-activate -l /run/systemd/fsck.progress /lib/systemd/systemd-fsckd 2>&1 &
            fsckd=$!
            i=0; while [ ! -S /run/systemd/fsck.progress ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
            /lib/systemd/systemd-fsck \(device) 2>&1; echo "fsck-status $?"
            i=0; while [ ! -e \(stop) ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done
            kill $fsckd; wait
            """
        return try Asker("/usr/bin/unshare", ["-m", "sh", "-c", script])
    }

    /// The running checker: util-linux's fsck runs e2fsck as fsck.ext4.
    static func checker() -> pid_t? {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { pid_t($0) } ?? []
        return pids.first { pid in
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            return comm == "fsck.ext4" || comm == "e2fsck"
        }
    }

    /// The checker at a fifth of its speed, as on a slow disk: stopped 40 ms, run 10 ms, until it
    /// ends or `end()`. It still writes progress, between whose lines systemd-fsck reads fsckd's
    /// cancel (a checker held stopped would never let it).
    final class SlowChecker: @unchecked Sendable {
        private let lock = NSLock()
        private var running = true
        private var count = 0
        private let done = DispatchSemaphore(value: 0)
        var cycles: Int { lock.withLock { count } }

        init() {
            Thread.detachNewThread { [self] in
                while lock.withLock({ running }), let pid = PlymouthClientTests.checker() {
                    kill(pid, SIGSTOP)
                    usleep(40_000)
                    kill(pid, SIGCONT)
                    lock.withLock { count += 1 }
                    usleep(10_000)
                }
                done.signal()
            }
        }

        func end() {
            guard lock.withLock({ () -> Bool in defer { running = false }; return running }) else { return }
            done.wait()
        }
    }

    /// The daemon's log once `condition` holds (the log has every text the HUD showed).
    @discardableResult
    func waitForLog(_ dir: String, _ what: String, within seconds: Double = 60, _ condition: (String) -> Bool) throws -> String {
        let end = Date().addingTimeInterval(seconds)
        var log = ""
        while Date() < end {
            log = (try? String(contentsOfFile: "\(dir)/log", encoding: .utf8)) ?? ""
            if condition(log) { return log }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("waiting for \(what) in the daemon's log: \(log)")
        return log
    }

    @Test(.enabled(if: fsckRuns, "needs root, /dev/loop-control, systemd's fsck and fsckd, e2fsprogs and util-linux"))
    func systemdFsckdShowsTheCheckAndCtrlCCancelsIt() throws {
        let dir = try temporaryDirectory("plymouth-fsckd")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tty = try PseudoTerminal()
        // Up for as long as two checks take on a loaded machine (start's 30 s is not).
        let daemon = try start(dir, extra: ["--prompt-tty", tty.path, "--log-level", "debug", "--duration", "600"])
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        #expect(try SplashBinary.run(Self.plymouth, ["--show-splash"]).0 == 0)
        let device = try scratchFileSystem(dir)
        defer { _ = try? SplashBinary.run("/sbin/losetup", ["-d", device]) }

        // Ctrl+C on the terminal (fsckd watches for 0x03) once the check is on the ring: fsckd
        // tells systemd-fsck (which reads it between e2fsck's progress lines), whose fsck sends
        // e2fsck SIGTERM; the spinner is back. e2fsck runs at a fifth of its speed from the ring
        // on, as on a slow disk: from a warm page cache it can end in 2 s, before a sanitized
        // daemon has relayed the key.
        let cancelled = try checkAsSystemdDoes(device, stop: "\(dir)/stop-1")
        let ring = try waitForState(dir, "the check on the ring") { $0.contains("mode ring") }
        #expect(ring.contains("status \"Checking in progress on 1 disk ("), "\(ring)")
        #expect(ring.contains("complete)\\nPress Ctrl+C to cancel all filesystem checks in progress\""), "\(ring)")
        let slow = SlowChecker()
        defer { slow.end() }
        let pressed = Date()
        tty.type([0x03])
        try waitForLog(dir, "the cancelled check's end") { $0.contains("plymouth: the file system checks ended") }
        slow.end()
        #expect(slow.cycles > 0, "e2fsck had ended before the key was typed")
        let after = try waitForState(dir, "the spinner back after the cancel") { $0.contains("mode spinner") }
        #expect(!after.contains("Checking") && !after.contains("Ctrl+C"), "\(after)")
        let took = Date().timeIntervalSince(pressed)
        _ = FileManager.default.createFile(atPath: "\(dir)/stop-1", contents: nil)
        let ended = try #require(cancelled.finish(within: 60), "the cancelled check did not end")
        // Debian's systemd-fsck: the request logged, e2fsck's exit 32 (cancelled) ignored.
        #expect(ended.output.contains("Request to cancel fsck for \(device) from fsckd") && ended.output.contains("e2fsck canceled"),
                "\(ended.output)\nDAEMON LOG\n\((try? String(contentsOfFile: "\(dir)/log", encoding: .utf8)) ?? "")")

        // A whole check: systemd's sentence and the least complete device's percentage on the
        // ring, rising (the HUD's log of its texts has them all; a state read could miss a check
        // this fast), with fsckd's hint below; the splash's spinner again once it ends.
        _ = try SplashBinary.run("/sbin/tune2fs", ["-C", "50", device])
        let whole = try checkAsSystemdDoes(device, stop: "\(dir)/stop-2")
        let second = try waitForLog(dir, "the second check's end") { $0.components(separatedBy: "plymouth: the file system checks ended").count > 2 }
        try waitForState(dir, "the spinner back") { $0.contains("mode spinner") }
        _ = FileManager.default.createFile(atPath: "\(dir)/stop-2", contents: nil)
        let done = try #require(whole.finish(within: 60), "the check did not end")
        #expect(done.output.contains("check forced") && done.output.contains("fsck-status 0") && !done.output.contains("ancel"), "\(done.output)")
        let checks = second.components(separatedBy: "plymouth: checking 1 file system(s) (systemd-fsckd)")
        #expect(checks.count == 3, "two checks began: \(second)")
        let shown = checks[checks.count - 1].split(separator: "\n").compactMap { line -> Double? in
            guard let r = line.range(of: "HUD: Checking in progress on 1 disk ("), let end = line[r.upperBound...].firstIndex(of: "%") else { return nil }
            return Double(line[r.upperBound..<end])
        }
        #expect(shown.count >= 3 && zip(shown, shown.dropFirst()).contains { $0 < $1 }, "the check's percentages on the HUD: \(shown)")
        print("fsckd: Ctrl+C ended the check in \(String(format: "%.2f", took)) s; a whole one showed \(shown.count) percentages")
    }
}
