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

        // Ctrl+C on the terminal (fsckd watches for 0x03) as soon as the check is on the ring,
        // while its first pass reads the inode tables from the disk (the page cache is cold: 2-14
        // s measured): fsckd tells systemd-fsck, which stops e2fsck; the spinner is back.
        let cancelled = try checkAsSystemdDoes(device, stop: "\(dir)/stop-1")
        let ring = try waitForState(dir, "the check on the ring") { $0.contains("mode ring") }
        #expect(ring.contains("status \"Checking in progress on 1 disk ("), "\(ring)")
        #expect(ring.contains("complete)\\nPress Ctrl+C to cancel all filesystem checks in progress\""), "\(ring)")
        let pressed = Date()
        tty.type([0x03])
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
        try waitForState(dir, "the second check on the ring") { $0.contains("mode ring") }
        try waitForState(dir, "the spinner back") { $0.contains("mode spinner") }
        _ = FileManager.default.createFile(atPath: "\(dir)/stop-2", contents: nil)
        let done = try #require(whole.finish(within: 60), "the check did not end")
        #expect(done.output.contains("check forced") && done.output.contains("fsck-status 0") && !done.output.contains("ancel"), "\(done.output)")
        let shown = try String(contentsOfFile: "\(dir)/log", encoding: .utf8).split(separator: "\n").compactMap { line -> Double? in
            guard let r = line.range(of: "HUD: Checking in progress on 1 disk ("), let end = line[r.upperBound...].firstIndex(of: "%") else { return nil }
            return Double(line[r.upperBound..<end])
        }
        #expect(shown.count >= 3 && zip(shown, shown.dropFirst()).contains { $0 < $1 }, "the check's percentages on the HUD: \(shown)")
        let log = try String(contentsOfFile: "\(dir)/log", encoding: .utf8)
        #expect(log.contains("plymouth: checking 1 file system(s) (systemd-fsckd)"), "\(log)")
        #expect(log.contains("plymouth: the file system checks ended"), "\(log)")
        print("fsckd: Ctrl+C ended the check in \(String(format: "%.2f", took)) s; a whole one showed \(shown.count) percentages")
    }
}
