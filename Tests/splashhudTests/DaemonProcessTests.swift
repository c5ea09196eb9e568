// SPDX-License-Identifier: MIT
// The real `splashhudd` and `splashhud` executables as a boot uses them: the daemon in the
// background on the memory display, client verbs from other processes, psplash's and fbsplash's
// exact bytes in their FIFOs, and every way it ends; the client's exit statuses against a daemon
// that answers, refuses, is absent, or is stopped (SIGSTOP).
import Board
import Display
import Foundation
import HUDProtocol
import Testing
@testable import splashhud_tools

@Suite("splashhudd and the client as processes", .serialized)
struct DaemonProcessTests {
    final class Running: @unchecked Sendable {
        let dir: String
        let process: Process
        var socket: String { "\(dir)/control" }

        /// Starts splashhudd (this build's, or `executable`) on the memory display and waits until
        /// its socket answers a ping.
        init(extra: [String] = [], dir: String? = nil, executable: String? = nil) throws {
            self.dir = try dir ?? temporaryDirectory("daemon")
            process = Process()
            process.executableURL = URL(fileURLWithPath: try executable ?? SplashBinary.path("splashhudd"))
            process.arguments = ["--display", "memory:200x120", "--socket", "\(self.dir)/control", "--out", "\(self.dir)/out",
                                 "--duration", "30", "--log-level", "info"] + extra
            _ = FileManager.default.createFile(atPath: "\(self.dir)/log", contents: nil)
            process.standardError = FileHandle(forWritingAtPath: "\(self.dir)/log")
            try process.run()
            let deadline = ContinuousClock.now + .seconds(15)
            while ContinuousClock.now < deadline {
                if (try? client(["ping"]).0) == 0 { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
            Issue.record("splashhudd did not answer within 15 s: \(log)")
        }

        var log: String { (try? String(contentsOfFile: "\(dir)/log", encoding: .utf8)) ?? "" }

        /// `splashhud ARGS --socket SOCKET`: exit status and output.
        func client(_ args: [String]) throws -> (Int32, String) {
            try SplashBinary.run(try SplashBinary.path(), args + ["--socket", socket])
        }

        func end() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    /// Writes `bytes` to the FIFO at `path` as one write (what psplash-write and `echo >` do).
    func write(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(fd >= 0, "open \(path)")
        guard fd >= 0 else { return }
        #expect(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
        close(fd)
    }

    @Test func clientVerbsAndpsplashBytesDriveTheHUDAndQUITEndsIt() throws {
        let d = try Running()
        defer { d.end() }
        #expect(try d.client(["show", "Starting", "services"]).0 == 0)
        #expect(try d.client(["state", "--field", "status"]) == (0, "Starting services\n"))
        #expect(try d.client(["progress", "0.25", "Copying"]).0 == 0)
        #expect(try d.client(["state", "--field", "progress"]) == (0, "0.25\n"))
        // Refused by the daemon: exit 65 and the daemon's reason; the HUD keeps what it had.
        let (status, output) = try d.client(["image", "/nonexistent.png", "x"])
        #expect(status == 65 && output.contains("refused (refused): image /nonexistent.png is not a file in the asset directories"), "\(output)")
        #expect(try d.client(["state", "--field", "mode"]) == (0, "ring\n"))
        // Bad arguments never reach it: exit 64.
        #expect(try d.client(["progress", "lots"]).0 == 64)
        #expect(try d.client(["set", "no-such-key", "1"]).0 == 64)
        let shot = "\(d.dir)/shot.png"
        let (s2, o2) = try d.client(["snapshot", shot])
        #expect(s2 == 0 && o2 == "\(shot): memory 200x120\n", "\(o2)")
        #expect(FileManager.default.contents(atPath: shot)?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        d.end()
    }

    @Test func psplashAndFbsplashBytesWorkUnchanged() throws {
        let dir = try temporaryDirectory("daemon")
        let d = try Running(extra: ["--psplash-fifo", "\(dir)/psplash_fifo", "--fbsplash-fifo", "\(dir)/fbsplash.fifo"], dir: dir)
        defer { d.end() }
        // psplash-write writes its argument with the terminating NUL and no newline.
        write(Array("MSG Loading modules".utf8) + [0], to: "\(dir)/psplash_fifo")
        write(Array("PROGRESS 40".utf8) + [0], to: "\(dir)/psplash_fifo")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try d.client(["state"]).1.hasPrefix("visible yes mode ring progress 0.4 status \"Loading modules\""), "psplash keeps its message")
        // busybox fbsplash's FIFO: `echo 60 > fifo`.
        write(Array("60\n".utf8), to: "\(dir)/fbsplash.fifo")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try d.client(["state", "--field", "progress"]) == (0, "0.6\n"))
        write(Array("QUIT".utf8) + [0], to: "\(dir)/psplash_fifo")
        let start = ContinuousClock.now
        d.process.waitUntilExit()
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(d.process.terminationReason == .exit && d.process.terminationStatus == 0, "\(d.log)")
        let events = try String(contentsOfFile: "\(dir)/out/events.txt", encoding: .utf8)
        #expect(events.contains("did-appear Loading modules") && events.contains("did-disappear"), "\(events)")
        #expect(d.log.contains("HUD: Loading modules"), "status texts are announced in the log")
        for gone in ["control", "psplash_fifo", "fbsplash.fifo"] {
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/\(gone)"), "\(gone) is removed")
        }
        // Nobody answers any more: exit 69 at once.
        let (status, output) = try d.client(["ping"])
        #expect(status == 69 && output.contains("no splashhudd answers"), "\(output)")
    }

    /// An initramfs's hand-over in one client call: what the HUD shows saved as a script, the
    /// daemon told to quit keeping its frame, and the call back only once the process has ended.
    /// The successor started with that script shows the very frame the first one kept.
    @Test func quitSavesTheHUDForASuccessorAndWaitsForTheEnd() throws {
        let d = try Running()
        defer { d.end() }
        #expect(try d.client(["progress", "0.4", "Installing \"2\" of 3"]).0 == 0)
        Thread.sleep(forTimeInterval: 0.6)  // past the fade-in
        let script = "\(d.dir)/resume.hud"
        let (status, output) = try d.client(["quit", "--retain", "--save-script", script, "--wait", "--timeout", "5000"])
        #expect(status == 0, "\(output)")
        // Back only once the process has ended: gone, or a zombie Foundation has not reaped yet.
        let stat = (try? String(contentsOfFile: "/proc/\(d.process.processIdentifier)/stat", encoding: .utf8)) ?? ""
        let state = stat.split(separator: ")").last?.split(separator: " ").first
        #expect(stat.isEmpty || state == "Z", "the daemon still runs after quit --wait: \(stat)")
        d.process.waitUntilExit()
        #expect(d.process.terminationStatus == 0, "\(d.log)")
        let saved = try String(contentsOfFile: script, encoding: .utf8)
        #expect(saved.contains("@0 progress 0.4 \"Installing \\\"2\\\" of 3\""), "\(saved)")
        try expectTheSuccessorShowsTheKeptFrame(d, script: script)
        // A path that cannot be written: the daemon is not told to quit (exit 73).
        let e = try Running()
        defer { e.end() }
        let (s2, o2) = try e.client(["quit", "--save-script", "/nonexistent/dir/resume.hud"])
        #expect(s2 == 73 && o2.contains("the daemon was not told to quit"), "\(o2)")
        #expect(try e.client(["ping"]).0 == 0)
    }

    /// MBProgressHUD's bar handed over: the successor shows the same bar at once (MB's
    /// `showAnimated:NO`, not its 0.3 s spring), not SV's ring.
    @Test func quitSavesAnMBBarForASuccessor() throws {
        let d = try Running()
        defer { d.end() }
        #expect(try d.client(["send", "set mode bar", "progress 0.4 Flashing", "show"]).0 == 0)
        Thread.sleep(forTimeInterval: 0.6)  // past MB's spring
        #expect(try d.client(["state"]).1.hasPrefix("visible yes mode bar progress 0.4 status \"Flashing\""))
        let script = "\(d.dir)/resume.hud"
        let (status, output) = try d.client(["quit", "--retain", "--save-script", script, "--wait", "--timeout", "5000"])
        #expect(status == 0, "\(output)")
        d.process.waitUntilExit()
        let saved = try String(contentsOfFile: script, encoding: .utf8)
        #expect(saved.contains("@0 set mode bar\n@0 progress 0.4 \"Flashing\"\n@0 show\n"), "\(saved)")
        try expectTheSuccessorShowsTheKeptFrame(d, script: script)
    }

    /// A successor started with `script` on the same memory display: its frame is the frame `d`
    /// kept, pixel for pixel, and it appeared at once (will-appear and did-appear together).
    func expectTheSuccessorShowsTheKeptFrame(_ d: Running, script: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let next = Process()
        next.executableURL = URL(fileURLWithPath: try SplashBinary.path("splashhudd"))
        next.arguments = ["--display", "memory:200x120", "--socket", "none", "--script", script, "--duration", "0.3",
                          "--retain", "--out", "\(d.dir)/next", "--log-level", "error"]
        try next.run()
        next.waitUntilExit()
        #expect(next.terminationStatus == 0, sourceLocation: sourceLocation)
        let kept = try PNGDecoderHelper.decode("\(d.dir)/out/shown-last.png"), shown = try PNGDecoderHelper.decode("\(d.dir)/next/shown-last.png")
        #expect(kept.pixels == shown.pixels, "the successor's frame differs from the one handed over", sourceLocation: sourceLocation)
        let events = try String(contentsOfFile: "\(d.dir)/next/events.txt", encoding: .utf8)
        let lines = events.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 2) }
        #expect(lines.count >= 2 && lines[0][1] == "will-appear" && lines[1][1] == "did-appear" && lines[0][0] == lines[1][0],
                "shown at once, with no transition: \(events)", sourceLocation: sourceLocation)
    }

    @Test func waitAndSubscribeFollowTheHUD() throws {
        let d = try Running()
        defer { d.end() }
        #expect(try d.client(["show", "Working"]).0 == 0)
        let subscriber = Process()
        subscriber.executableURL = URL(fileURLWithPath: try SplashBinary.path())
        subscriber.arguments = ["subscribe", "--until", "did-disappear", "--socket", d.socket]
        let pipe = Pipe()
        subscriber.standardOutput = pipe
        try subscriber.run()
        Thread.sleep(forTimeInterval: 0.3)
        // `wait` returns only after the HUD has gone.
        Thread.detachNewThread { Thread.sleep(forTimeInterval: 0.5); _ = try? d.client(["dismiss"]) }
        let start = ContinuousClock.now
        #expect(try d.client(["wait", "--max", "10"]).0 == 0)
        #expect(ContinuousClock.now - start >= .milliseconds(400))
        #expect(try d.client(["state", "--field", "visible"]) == (0, "no\n"))
        subscriber.waitUntilExit()
        let lines = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        // did-appear may come first (the fade-in can end after the subscriber connects).
        let last = Array(lines.suffix(2))
        #expect(last.count == 2 && last[0].contains("will-disappear \"Working\"") && last[1].contains("did-disappear"), "\(lines)")
        #expect(lines.count <= 3 && lines.allSatisfy { $0.hasPrefix("event ") }, "\(lines)")
    }

    @Test func theClientNeverWaitsLongForAnAbsentOrStoppedDaemon() throws {
        let dir = try temporaryDirectory("daemon")
        // No daemon: exit 69 at once, not after the timeout. The timeout is long, so a loaded host
        // (ASan builds of every suite at once stalled a start by 2-4 s) cannot blur the two.
        var start = ContinuousClock.now
        var (status, output) = try SplashBinary.run(try SplashBinary.path(), ["ping", "--socket", "\(dir)/none", "--timeout", "30000"])
        let absent = ContinuousClock.now - start
        #expect(status == 69 && output.contains("no socket"), "\(output)")
        #expect(absent < .seconds(15), "\(absent)")
        // A stopped daemon: exit 75 after the timeout asked for, not another. Two timeouts 8 s
        // apart: a client that waited any one fixed time fails one of the two bounds.
        let d = try Running(dir: dir)
        defer { kill(d.process.processIdentifier, SIGCONT); d.end() }
        #expect(kill(d.process.processIdentifier, SIGSTOP) == 0)
        var took: [Duration] = []
        for timeout in [300, 8300] {
            start = ContinuousClock.now
            (status, output) = try d.client(["show", "x", "--timeout", "\(timeout)"])
            took.append(ContinuousClock.now - start)
            #expect(status == 75 && output.contains("did not answer within \(timeout) ms"), "\(output)")
        }
        #expect(took[0] >= .milliseconds(300) && took[0] < .milliseconds(8300), "\(took)")
        #expect(took[1] >= .milliseconds(8300), "\(took)")
        // It goes on once continued, and the request that timed out was still applied.
        #expect(kill(d.process.processIdentifier, SIGCONT) == 0)
        #expect(try d.client(["state", "--field", "status", "--timeout", "10000"]) == (0, "x\n"))
    }

    @Test func aSecondDaemonRefusesAndAStaleSocketIsTakenOver() throws {
        let d = try Running()
        defer { d.end() }
        let (status, output) = try SplashBinary.run(try SplashBinary.path("splashhudd"),
            ["--display", "memory", "--socket", d.socket, "--duration", "1", "--log-level", "critical"])
        #expect(status == 1 && output.contains("another splashhudd already answers at \(d.socket)"), "\(output)")
        #expect(try d.client(["ping"]).0 == 0, "the first one still runs")
        // Killed without cleaning up: its socket stays, and the next daemon takes it over.
        kill(d.process.processIdentifier, SIGKILL)
        d.process.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: d.socket))
        let next = try Running(dir: d.dir)
        defer { next.end() }
        #expect(try next.client(["ping"]).0 == 0)
        #expect(next.log.contains("took over a stale socket"), "\(next.log)")
    }

    @Test func sigtermCleansUpAndDiesOfTheSignal() throws {
        let dir = try temporaryDirectory("daemon")
        let d = try Running(extra: ["--fifo", "\(dir)/fifo"], dir: dir)
        #expect(try d.client(["show", "Spinning"]).0 == 0)
        Thread.sleep(forTimeInterval: 0.4)
        d.process.terminate()  // SIGTERM
        d.process.waitUntilExit()
        #expect(d.process.terminationReason == .uncaughtSignal && d.process.terminationStatus == SIGTERM)
        // It cleaned up before dying: the socket and the FIFO are gone, what was shown is written.
        #expect(!FileManager.default.fileExists(atPath: d.socket))
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/fifo"))
        #expect(FileManager.default.fileExists(atPath: "\(dir)/out/shown.apng.png"))
        let events = try String(contentsOfFile: "\(dir)/out/events.txt", encoding: .utf8)
        #expect(events.contains("will-appear Spinning"))
    }

    /// The shutdown units' daemon: it starts in Plymouth's mode, and systemd-shutdown would spare
    /// it: its command line, as the kernel shows it, begins with '@' (as root; the tests run as
    /// root in CI, as systemd's units do).
    @Test func aShutdownDaemonStartsInItsModeAndMarksItselfToSurviveTheFinalKill() throws {
        let d = try Running(extra: ["--mode", "shutdown", "--survive-final-kill"])
        defer { d.end() }
        #expect(try d.client(["state", "--field", "status"]) == (0, "Shutting down\n"))
        #expect(try d.client(["state", "--field", "mode"]) == (0, "spinner\n"))
        let cmdline = try #require(FileManager.default.contents(atPath: "/proc/\(d.process.processIdentifier)/cmdline"))
        if getuid() == 0 {
            #expect(cmdline.first == UInt8(ascii: "@"), "\(String(decoding: cmdline, as: UTF8.self))")
            #expect(d.log.contains("systemd-shutdown's final kill spares this daemon"), "\(d.log)")
        } else {
            #expect(cmdline.first == UInt8(ascii: "/") && d.log.contains("not root"), "\(d.log)")
        }
        // The update modes are a ring that Plymouth's system-update fills.
        let u = try Running(extra: ["--mode", "updates"])
        defer { u.end() }
        #expect(try u.client(["state", "--field", "mode"]) == (0, "ring\n"))
        #expect(try u.client(["state", "--field", "status"]) == (0, "Installing updates\n"))
    }

    @Test func badOptionsAreRefusedBeforeTheScreen() throws {
        let daemon = try SplashBinary.path("splashhudd")
        var (status, output) = try SplashBinary.run(daemon, ["--display", "vga"])
        #expect(status == 64, "\(output)")
        (status, output) = try SplashBinary.run(daemon, ["--profile", "no-such-board", "--socket", "none"])
        #expect(status == 64 && output.contains("no-such-board"), "\(output)")
        let dir = try temporaryDirectory("daemon")
        (status, output) = try SplashBinary.run(daemon, ["--display", "drm:\(dir)/card9", "--socket", "none", "--duration", "1", "--log-level", "critical"])
        #expect(status == 1 && output.contains("--display drm could not be opened: drm: "), "\(output)")
    }

    @Test func demoSaysWhyNoRealScreenWasUsed() throws {
        let dir = try temporaryDirectory("proc")
        var p = BoardProfile(file: "test")
        p.card = .path("\(dir)/card9")
        p.fbdevPath = "\(dir)/fb9"
        let outcome = try DemoScreen.play(script: [], duration: 0.1, profile: p, logLevel: .critical)
        #expect(outcome.played == nil)
        #expect(outcome.notUsed.count == 2)
        #expect(outcome.notUsed.first?.hasPrefix("drm: ") == true, "\(outcome.notUsed)")
        #expect(outcome.notUsed.last?.hasPrefix("fbdev:") == true && outcome.notUsed.last?.contains("fb9") == true, "\(outcome.notUsed)")
    }
}

/// Shell completions come from the CommandLineOptions tables and know every verb and the daemon's options.
@Suite struct CompletionTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsKnowTheVerbs(shell: String) throws {
        let (status, client) = try SplashBinary.run(try SplashBinary.path(), ["--generate-completion-script", shell])
        #expect(status == 0)
        for verb in ["progress-over", "snapshot", "subscribe", "wait", "state", "quit"] { #expect(client.contains(verb), "\(shell): \(verb)") }
        let (dstatus, daemon) = try SplashBinary.run(try SplashBinary.path("splashhudd"), ["--generate-completion-script", shell])
        #expect(dstatus == 0)
        for option in ["psplash-fifo", "fbsplash-fifo", "socket-group", "boot-estimate"] { #expect(daemon.contains(option), "\(shell): \(option)") }
    }
}
