// SPDX-License-Identifier: MIT
// splashhud-updates following Debian 12's real SWUpdate (2022.12) while it installs real signed
// updates (scripts/updates/swupdate-swu.sh: three rawfile images), a daemon on the memory display
// showing them: started before the daemon, it waits for it; the HUD's states, read as fast as the
// daemon answers, show one bar from 0 to 100 that never goes back, each image's name and the
// success; a corrupt update ends on SWUpdate's own reason; SWUpdate restarted is followed again.
import Foundation
import HUDClient
import HUDProtocol
import LinuxSystem
import Testing

@Suite("splashhud-updates with Debian's SWUpdate", .serialized)
struct SWUpdateEndToEndTests {
    typealias Daemon = DaemonProcessTests.Running

    static func requireTools() throws {
        for tool in ["swupdate", "swupdate-client", "swugenerator", "openssl"] {
            let found = ["/usr/bin", "/usr/sbin", "/bin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
            try #require(found, "\(tool) is not installed: run scripts/setup.sh --tests")
        }
    }

    /// A process whose output goes to `log`, ended at the end: SIGTERM, then SIGKILL after 5 s. With
    /// `group` (a pattern of the command lines of the program's processes: SWUpdate forks a child that
    /// does not exec), every process it names gets them, as systemd's stop signals a unit's whole
    /// cgroup; Foundation sees the program end only once that child is gone too.
    final class Program: @unchecked Sendable {
        let process = Process()
        let log: String
        let group: String?
        /// Ended once: a group's pattern would also name the next program started with it.
        private var ended = false
        init(_ path: String, _ arguments: [String], environment: [String: String], log: String, group: String? = nil) throws {
            self.log = log
            self.group = group
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let handle = FileHandle(forWritingAtPath: log)
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
        }
        var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        func end() {
            guard !ended else { return }
            ended = true
            func signal(_ name: String) {
                if let group { _ = try? SplashBinary.run("/usr/bin/pkill", ["-\(name)", "-f", group]) } else {
                    kill(process.processIdentifier, name == "TERM" ? SIGTERM : SIGKILL)
                }
            }
            func gone() -> Bool {
                guard let group else { return !process.isRunning }
                return (try? SplashBinary.run("/usr/bin/pgrep", ["-f", group]).0) == 1
            }
            if process.isRunning || group != nil { signal("TERM") }
            let deadline = Date() + 5
            while !gone() && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if !gone() { signal("KILL") }
            process.waitUntilExit()
        }
        deinit { end() }
    }

    /// Every state the daemon reports while it runs, each once, read over one connection as fast as
    /// it answers.
    final class StateRecorder: @unchecked Sendable {
        private let lock = NSLock()
        private var states: [HUDState] = []
        private var stop = false
        let socket: String
        init(socket: String) {
            self.socket = socket
            Thread.detachNewThread { [self] in run() }
        }
        private func run() {
            var client: ControlClient?
            while !lock.withLock({ stop }) {
                do {
                    let c = try client ?? ControlClient(socket: socket, timeoutMilliseconds: 2000)
                    client = c
                    if let line = try c.request("state"), let s = HUDState(line: line) {
                        lock.withLock { if states.last != s { states.append(s) } }
                    }
                } catch {
                    client = nil
                    Thread.sleep(forTimeInterval: 0.05)
                }
                Thread.sleep(forTimeInterval: 0.002)
            }
        }
        var recorded: [HUDState] { lock.withLock { states } }
        func clear() { lock.withLock { states.removeAll() } }
        func end() { lock.withLock { stop = true } }
    }

    /// Every item of `part` is in `whole`, in `whole`'s order, each once.
    static func isInOrder(_ part: [String], within whole: [String]) -> Bool {
        var rest = whole[...]
        for item in part {
            guard let i = rest.firstIndex(of: item) else { return false }
            rest = rest[(i + 1)...]
        }
        return true
    }

    static func eventually(seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        let deadline = Date() + seconds
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

    @Test("a real install, a corrupt one and a restarted SWUpdate, on the HUD")
    func installs() throws {
        try Self.requireTools()
        let dir = try temporaryDirectory("swu")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 32 MiB images: each is installed for about half a second here, long enough for a daemon
        // under a sanitizer to take a request or two (a shorter one would be rightly coalesced away).
        let (made, madeLog) = try SplashBinary.run("/bin/bash", ["\(DocumentationTests.root.path)/scripts/updates/swupdate-swu.sh", dir, "32"])
        try #require(made == 0, "\(madeLog)")
        let env = ["TMPDIR": "\(dir)/run"]
        func startSWUpdate(_ n: Int) throws -> Program {
            for socket in ["swupdateprog", "sockinstctrl"] { try? FileManager.default.removeItem(atPath: "\(dir)/run/\(socket)") }
            let p = try Program("/usr/bin/swupdate", ["-v", "-k", "\(dir)/cert.pem", "-H", "splashhud:1.0"], environment: env,
                                log: "\(dir)/swupdate-\(n).log", group: "swupdate -v -k \(dir)/cert.pem")
            // Listening, not just bound: a connect to each socket goes through.
            func listening(_ socket: String) -> Bool {
                guard let fd = try? UnixSocket.connect(to: "\(dir)/run/\(socket)") else { return false }
                Files.close(fd)
                return true
            }
            #expect(Self.eventually { listening("swupdateprog") && listening("sockinstctrl") }, "\(p.output)")
            return p
        }
        var swupdate = try startSWUpdate(1)
        // No daemon yet: the adapter finds SWUpdate by its rules ($TMPDIR) and waits for the daemon.
        let updates = try Program(try SplashBinary.path("splashhud-updates"), ["swupdate", "--socket", "\(dir)/control"],
                                  environment: env, log: "\(dir)/updates.log")
        defer { updates.end() }
        #expect(Self.eventually { updates.output.contains("following SWUpdate's messages at \(dir)/run/sockinstctrl") }, "\(updates.output)")
        let daemon = try Daemon(extra: ["--display", "memory:320x240", "--duration", "300"], dir: dir)
        defer { daemon.end() }
        let recorder = StateRecorder(socket: daemon.socket)
        defer { recorder.end() }

        let (good, goodLog) = try SplashBinary.run("/usr/bin/env", ["TMPDIR=\(dir)/run", "swupdate-client", "\(dir)/good.swu"])
        #expect(good == 0, "\(goodLog)\n\(swupdate.output)")
        #expect(Self.eventually { recorder.recorded.last?.status == "Update installed" }, "\(recorder.recorded)\n\(updates.output)")
        let states = recorder.recorded
        let bar = states.compactMap { $0.mode == "ring" ? $0.progress : nil }
        #expect(bar.count >= 3 && bar.first! <= 0.05 && bar.contains { $0 > 0 && $0 < 1 } && bar.last == 1, "\(bar)")
        #expect(zip(bar, bar.dropFirst()).allSatisfy { $0 <= $1 }, "the bar went back: \(bar)")
        #expect(states.last?.mode == "image", "\(states.last.map { "\($0)" } ?? "")")
        // Every text the HUD took, in order, as the daemon announces them (its log, at the end of each turn).
        // A daemon that lags (a sanitizer's, on a loaded machine) can take an image's start and the
        // next one's in one turn; the first is then never drawn, so never announced. The texts must
        // come in order, from the start to the success, with at most one such image skipped.
        let shown = daemon.log.split(separator: "\n").compactMap { line in line.range(of: "HUD: ").map { String(line[$0.upperBound...]) } }
        let images = ["boot.img (1 of 3)", "rootfs.img (2 of 3)", "app.img (3 of 3)"]
        let expected = ["Installing update"] + images + ["Update installed"]
        let taken = Array(shown.prefix { $0 != "Update installed" }) + ["Update installed"]
        #expect(taken.first == "Installing update" && shown.contains("Update installed") && Self.isInOrder(taken, within: expected)
                && taken.filter(images.contains).count >= images.count - 1, "\(shown)")
        for image in ["boot", "rootfs", "app"] {
            #expect(FileManager.default.contentsEqual(atPath: "\(dir)/out/\(image).img", andPath: "\(dir)/art/\(image).img"))
        }

        // A corrupt image: SWUpdate's own reason, from its control socket, under the error icon;
        // whole in the end, even where a loaded machine had it shown cut short first.
        recorder.clear()
        let (bad, badLog) = try SplashBinary.run("/usr/bin/env", ["TMPDIR=\(dir)/run", "swupdate-client", "\(dir)/bad.swu"])
        #expect(bad != 0, "\(badLog)")
        #expect(Self.eventually { recorder.recorded.last?.mode == "image" && recorder.recorded.last?.status != "Update installed"
                    && recorder.recorded.last?.status?.hasSuffix("\nImage invalid or corrupted. Not installing ...") == true },
                "\(recorder.recorded)")
        let reason = recorder.recorded.last?.status ?? ""
        #expect(reason.hasPrefix("HASH mismatch : ") && reason.hasSuffix("\nImage invalid or corrupted. Not installing ..."), "\(reason)")

        // SWUpdate restarted: waited out, followed again.
        swupdate.end()
        #expect(Self.eventually { updates.output.contains("SWUpdate closed its progress socket") }, "\(updates.output)")
        swupdate = try startSWUpdate(2)
        defer { swupdate.end() }
        recorder.clear()
        let (again, againLog) = try SplashBinary.run("/usr/bin/env", ["TMPDIR=\(dir)/run", "swupdate-client", "\(dir)/good.swu"])
        #expect(again == 0, "\(againLog)")
        #expect(Self.eventually { recorder.recorded.last?.status == "Update installed" }, "\(recorder.recorded)\n\(updates.output)")
        #expect(updates.process.isRunning, "\(updates.output)")
        #expect(!updates.output.contains("not a SWUpdate progress frame"), "\(updates.output)")
    }
}
