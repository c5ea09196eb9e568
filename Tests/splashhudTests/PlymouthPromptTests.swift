// SPDX-License-Identifier: MIT
// Debian's real `plymouth` client asking for passphrases through splashhudd --plymouth on the
// memory display, the keys typed on a pseudo-terminal given as --prompt-tty (the VT's stand-in):
// what the client prints is what the keys said; --command with --number-of-tries re-asks until
// the command succeeds, and a later --command is served from the cache without a prompt; Ctrl-C;
// two askers at once; an asker killed mid-prompt; a non-root asker refused. In the same serialized
// suite as the other tests of Plymouth's client (its socket name is fixed).
import Foundation
import GoldenSupport
import HUDClient
import HUDProtocol
import Testing

/// A `plymouth` client running in the background, its output collected.
final class Asker {
    let process = Process()
    private let out = Pipe()

    convenience init(_ arguments: [String], as user: String? = nil) throws {
        try self.init(PlymouthClientTests.plymouth, arguments, as: user)
    }

    init(_ program: String, _ arguments: [String], as user: String? = nil) throws {
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid", user, "--regid", user, "--clear-groups", program] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        }
        process.standardOutput = out
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
    }

    /// Its exit status and what it printed, once it exits (nil if it is still running after `seconds`).
    func finish(within seconds: Double = 10) -> (status: Int32, output: String)? {
        let end = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.02) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()  // Process holds itself until its end is observed (LeakSanitizer)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    deinit {
        // SIGTERM first: systemd-ask-password removes its ask file then. One killed outright left
        // the file for the next run's agent, which asked it before that run's own.
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let end = Date().addingTimeInterval(2)
        while process.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

extension PlymouthClientTests {
    /// Waits until the daemon's state shows `prompt` (or, with nil, no prompt).
    func waitForPrompt(_ dir: String, _ prompt: String?) throws {
        try waitForState(dir, prompt.map { "prompt \"\($0)\"" } ?? "no prompt", within: 10) { state in
            prompt.map { state.contains("mode prompt status \(CommandParser.quote($0))") } ?? !state.contains("mode prompt")
        }
    }

    /// Waits until the daemon's log has `line` (a queued prompt is in the log, not in the state).
    func waitForLog(_ dir: String, _ line: String) throws {
        let end = Date().addingTimeInterval(10)
        var log = ""
        while Date() < end {
            log = try String(contentsOfFile: "\(dir)/log", encoding: .utf8)
            if log.contains(line) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("waiting for \"\(line)\" in the log:\n\(log)")
    }

    @Test func theRealClientGetsWhatWasTyped() throws {
        let dir = try temporaryDirectory("plymouth-prompt")
        let tty = try PseudoTerminal()
        let daemon = try start(dir, extra: ["--prompt-tty", tty.path, "--log-level", "debug"])
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        #expect(try SplashBinary.run(Self.plymouth, ["--show-splash"]).0 == 0)
        // Debian's askpass: `ask-for-password --prompt`, the answer verbatim on stdout.
        let asker = try Asker(["ask-for-password", "--prompt", "Please unlock disk root"])
        try waitForPrompt(dir, "Please unlock disk root")
        #expect(asker.finish(within: 0.3) == nil, "the client waits for the user")
        tty.type("zauber@Yx\u{7F}1\r")
        let answer = try #require(asker.finish())
        #expect(answer.status == 0 && answer.output == "zauber@Y1", "\(answer)")
        try waitForPrompt(dir, nil)

        // Ctrl-C: nothing printed; 22.02 exits 0 (WEXITSTATUS of its initial 127).
        let cancelled = try Asker(["ask-for-password", "--prompt", "Again"])
        try waitForPrompt(dir, "Again")
        tty.type("ab\u{03}")
        let c = try #require(cancelled.finish())
        #expect(c.output.isEmpty, "\(c)")

        // A question echoes what is typed, and prints it.
        let question = try Asker(["ask-question", "--prompt", "Serial number?"])
        try waitForPrompt(dir, "Serial number?")
        tty.type("K-42\r")
        #expect(question.finish().map { $0.status == 0 && $0.output == "K-42" } == true)
        #expect(try SplashBinary.run(Self.plymouth, ["quit"]).0 == 0)
        daemon.waitUntilExit()
        let log = try String(contentsOfFile: "\(dir)/log", encoding: .utf8)
        #expect(!log.contains("zauber") && !log.contains("@Y1"), "a passphrase reached the log:\n\(log)")
        #expect(log.contains("prompt for a passphrase: \"Please unlock disk root\""), "\(log)")
    }

    /// plymouthd reads keys from the terminal: a keystroke watch is answered from it too (only
    /// with one of its keys), a prompt coming meanwhile takes the keys typed for it, and once the
    /// watch is answered the terminal is no longer read.
    @Test func aKeystrokeWatchReadsTheTerminal() throws {
        let dir = try temporaryDirectory("plymouth-watch")
        let tty = try PseudoTerminal()
        let daemon = try start(dir, extra: ["--prompt-tty", tty.path, "--log-level", "debug"])
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        let watcher = try Asker(["watch-keystroke", "--keys=yY"])
        try waitForLog(dir, "watchKeystroke(keys: \"yY\")")
        tty.type("n")
        #expect(watcher.finish(within: 0.5) == nil, "answered with a key it does not watch")
        // A prompt now: its keys are its own, never the watch's ('Y' is in the passphrase).
        let asker = try Asker(["ask-for-password", "--prompt", "Disk"])
        try waitForPrompt(dir, "Disk")
        tty.type("Yes\r")
        #expect(try #require(asker.finish()).output == "Yes")
        #expect(watcher.finish(within: 0.3) == nil, "a passphrase's key answered the watch")
        try waitForPrompt(dir, nil)
        tty.type("Y")
        let answer = try #require(watcher.finish(), "the watch was not answered from the terminal")
        #expect(answer.status == 0 && answer.output == "Y", "\(answer)")
    }

    /// dracut's way: --command with --number-of-tries; the first try asks the cache (empty), every
    /// failed try asks again on the same connection; a later --command is served from the cache
    /// (the typed passphrases, in order) without a prompt, as a second disk would be.
    @Test func numberOfTriesWithACommandAndTheCache() throws {
        let dir = try temporaryDirectory("plymouth-prompt")
        let tty = try PseudoTerminal()
        let daemon = try start(dir, extra: ["--prompt-tty", tty.path])
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        let check = "\(dir)/check.sh"
        try "read -r pw; echo \"$pw\" >> \(dir)/tries; [ \"$pw\" = good ]\n".write(toFile: check, atomically: true, encoding: .utf8)
        let asker = try Asker(["ask-for-password", "--prompt", "Password (sda1)", "--number-of-tries=5", "--command=/bin/sh \(check)"])
        for typed in ["bad1", "bad2", "good"] {
            try waitForPrompt(dir, "Password (sda1)")
            tty.type(typed + "\r")
            Thread.sleep(forTimeInterval: 0.2)
        }
        let first = try #require(asker.finish())
        #expect(first.status == 0, "\(first)")
        #expect(try String(contentsOfFile: "\(dir)/tries", encoding: .utf8) == "bad1\nbad2\ngood\n")
        // The second disk: no prompt, the cache's entries tried in order until one works.
        let second = try Asker(["ask-for-password", "--prompt", "Password (sdb1)", "--command=/bin/sh \(check)"])
        let done = try #require(second.finish())
        #expect(done.status == 0, "\(done)")
        #expect(try String(contentsOfFile: "\(dir)/tries", encoding: .utf8) == "bad1\nbad2\ngood\nbad1\nbad2\ngood\n")
        #expect(!(try state(dir)).contains("mode prompt"))
    }

    /// Two disks asking at once: one prompt at a time, in order; killing an asker mid-prompt takes
    /// its prompt off the screen and the next one shows.
    @Test func twoAskersAndOneThatGoesAway() throws {
        let dir = try temporaryDirectory("plymouth-prompt")
        let tty = try PseudoTerminal()
        let daemon = try start(dir, extra: ["--prompt-tty", tty.path])
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        let first = try Asker(["ask-for-password", "--prompt", "sda1"])
        try waitForPrompt(dir, "sda1")
        let second = try Asker(["ask-for-password", "--prompt", "sdb1"])
        try waitForLog(dir, "prompt for a passphrase: \"sdb1\" (2 waiting)")  // queued before the third starts
        let third = try Asker(["ask-for-password", "--prompt", "sdc1"])
        try waitForLog(dir, "prompt for a passphrase: \"sdc1\" (3 waiting)")
        tty.type("one\r")
        #expect(first.finish()?.output == "one")
        try waitForPrompt(dir, "sdb1")
        tty.type("tw")
        Thread.sleep(forTimeInterval: 0.3)  // read, or at least in the terminal's queue, before the hang-up
        kill(second.process.processIdentifier, SIGKILL)  // SIGTERM may be blocked in a child Foundation spawned
        try waitForPrompt(dir, "sdc1")
        tty.type("three\r")
        #expect(third.finish()?.output == "three", "the keys typed for the withdrawn prompt are not carried over")
        try waitForPrompt(dir, nil)
    }

    /// plymouthd answers only root: an unprivileged asker is refused at once (NAK, exit 1).
    @Test(.enabled(if: getuid() == 0, "needs root to run the client as another user"))
    func aNonRootAskerIsRefused() throws {
        let dir = try temporaryDirectory("plymouth-prompt")
        let tty = try PseudoTerminal()
        let daemon = try start(dir, extra: ["--prompt-tty", tty.path])
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        let nobody = try Asker(["ask-for-password", "--prompt", "Disk", "--dont-pause-progress"], as: "65534")
        let refused = try #require(nobody.finish())
        #expect(refused.status == 1 && refused.output.isEmpty, "\(refused)")
        #expect(!(try state(dir)).contains("mode prompt"))
    }
}

/// systemd's own password agent in its Plymouth mode (what splashhud-ask-password.service runs),
/// answering a real requester (`systemd-ask-password`, as systemd-cryptsetup asks) through the
/// splash; the pid file the agent's units look for exists only while the daemon can prompt.
extension PlymouthClientTests {
    static let agent = "/usr/bin/systemd-tty-ask-password-agent", requester = "/usr/bin/systemd-ask-password"

    /// The requester's ask file is there (an agent run with --query earlier finds nothing).
    /// Removes ask files whose asker is gone (one killed by SIGKILL leaves its file, which the
    /// agent would still try); live ones, another program's, are left alone.
    func removeStaleAskFiles() {
        let dir = "/run/systemd/ask-password"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where name.hasPrefix("ask.") {
            guard let text = try? String(contentsOfFile: "\(dir)/\(name)", encoding: .utf8),
                  let line = text.split(separator: "\n").first(where: { $0.hasPrefix("PID=") }),
                  let pid = Int32(line.dropFirst(4)), kill(pid, 0) != 0 && errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: "\(dir)/\(name)")
        }
    }

    func waitForAskFile() throws {
        let end = Date().addingTimeInterval(10)
        while Date() < end {
            if ((try? FileManager.default.contentsOfDirectory(atPath: "/run/systemd/ask-password")) ?? []).contains(where: { $0.hasPrefix("ask.") }) { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        Issue.record("systemd-ask-password wrote no ask file")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: agent) && FileManager.default.isExecutableFile(atPath: requester)
                   && getuid() == 0, "needs systemd's agent and requester, and root (they use /run/systemd/ask-password)"))
    func systemdsAgentAsksThroughTheSplash() throws {
        removeStaleAskFiles()
        let dir = try temporaryDirectory("plymouth-prompt")
        let tty = try PseudoTerminal()
        let daemon = try start(dir, extra: ["--prompt-tty", tty.path, "--plymouth-pid-file", "\(dir)/run/plymouth/pid"])
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        #expect((try? String(contentsOfFile: "\(dir)/run/plymouth/pid", encoding: .utf8)) == "\(daemon.processIdentifier)\n")
        // AcceptCached: the agent asks the cache first (empty: NO_ANSWER), then the prompt.
        let first = try Asker(Self.requester, ["--no-tty", "--timeout=30", "--accept-cached", "Please enter passphrase for disk root:"])
        try waitForAskFile()
        let agent = try Asker(Self.agent, ["--query", "--plymouth"])
        try waitForPrompt(dir, "Please enter passphrase for disk root:")
        tty.type("s3cret\r")
        #expect(first.finish()?.output == "s3cret\n")
        #expect(agent.finish()?.status == 0)
        // A second volume with the same passphrase: served from the cache, no prompt.
        let second = try Asker(Self.requester, ["--no-tty", "--timeout=30", "--accept-cached", "Please enter passphrase for disk home:"])
        try waitForAskFile()
        let again = try Asker(Self.agent, ["--query", "--plymouth"])
        #expect(second.finish()?.output == "s3cret\n")
        #expect(again.finish()?.status == 0)
        #expect(try SplashBinary.run(Self.plymouth, ["quit"]).0 == 0)
        daemon.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/run/plymouth/pid"), "the pid file outlived the daemon")
    }

    /// No keyboard (the memory display has no VT, no --prompt-tty): no pid file, so systemd keeps
    /// its console agent, which can still ask.
    @Test func noKeyboardNoPidFile() throws {
        let dir = try temporaryDirectory("plymouth-prompt")
        let daemon = try start(dir, extra: ["--plymouth-pid-file", "\(dir)/pid"])
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/pid"))
        #expect(try SplashBinary.run(Self.plymouth, ["quit"]).0 == 0)
        daemon.waitUntilExit()
        #expect(try String(contentsOfFile: "\(dir)/log", encoding: .utf8).contains("not writing \(dir)/pid"))
    }
}

/// Our own ways to ask: the client's `ask-password` (the answer on stdout, no newline, for a pipe)
/// and the Swift API's `askPassword(prompt:)`; a cancelled prompt exits 65 / throws `cancelled`.
extension PlymouthClientTests {
    @Test func askPasswordFromTheClientAndTheSwiftAPI() async throws {
        let dir = try temporaryDirectory("plymouth-prompt")
        let tty = try PseudoTerminal()
        let daemon = try start(dir, extra: ["--prompt-tty", tty.path])
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        let client = try Asker(try SplashBinary.path(), ["ask-password", "Update PIN", "--socket", "\(dir)/control"])
        try waitForPrompt(dir, "Update PIN")
        tty.type("4711\r")
        let printed = try #require(client.finish())
        #expect(printed.status == 0 && printed.output == "4711", "\(printed)")
        let cancelled = try Asker(try SplashBinary.path(), ["ask-password", "Update PIN", "--socket", "\(dir)/control"])
        try waitForPrompt(dir, "Update PIN")
        tty.type("\u{04}")
        #expect(cancelled.finish()?.status == 65)

        // The keys come from another thread once the prompt shows: the test's own task only awaits
        // (a blocking wait on a task could hold every thread of the cooperative pool).
        let hud = RemoteHUD(socket: "\(dir)/control")
        typeWhenPrompted(dir, "Swift PIN", tty, "ä 1\r")
        #expect(try await hud.askPassword(prompt: "Swift PIN") == "ä 1")
        typeWhenPrompted(dir, "Swift PIN", tty, "\u{03}")
        await #expect(throws: ControlClientError.self) { try await hud.askPassword(prompt: "Swift PIN") }
    }

    /// Types `keys` on `tty` from a thread of its own as soon as `prompt` is up (10 s at most).
    func typeWhenPrompted(_ dir: String, _ prompt: String, _ tty: PseudoTerminal, _ keys: String) {
        let expected = "mode prompt status \(CommandParser.quote(prompt))"
        Thread.detachNewThread {
            let end = Date().addingTimeInterval(10)
            while Date() < end, !((try? self.state(dir)) ?? "").contains(expected) { Thread.sleep(forTimeInterval: 0.05) }
            tty.type(keys)
        }
    }
}

/// A daemon that drops root (`--user`) opens the prompts' terminal before it does: a VT (here a
/// pseudo-terminal, root's, mode 0620) could not be opened afterwards.
extension PlymouthClientTests {
    @Test(.enabled(if: getuid() == 0, "needs root to drop it"))
    func promptsAfterDroppingRoot() throws {
        let dir = try temporaryDirectory("plymouth-prompt")
        chmod(dir, 0o777)
        let tty = try PseudoTerminal()
        let daemon = try start(dir, extra: ["--prompt-tty", tty.path, "--user", "nobody"])
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        let asker = try Asker(["ask-for-password", "--prompt", "Disk"])
        try waitForPrompt(dir, "Disk")
        tty.type("pw\r")
        #expect(asker.finish()?.output == "pw")
    }
}
