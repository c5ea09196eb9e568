// SPDX-License-Identifier: MIT
// `splashhud` called `plymouth` against Debian's own /usr/bin/plymouth (22.02): both run the same
// command line against a fake plymouthd that records every request's bytes and answers from a
// script (ACK, NAK, ANSWER, the Ctrl-C answer, NO_ANSWER, MULTIPLE_ANSWERS, hanging up); the
// requests, standard output, standard error and exit status must be equal.
//
// Plymouth's socket name is fixed, but abstract sockets belong to a network namespace: each run
// happens on a thread of its own that has left for a new, empty one (unshare(CLONE_NEWNET), root
// only), and the clients it spawns inherit it. So runs neither meet a plymouthd on this machine nor
// each other, and may go in parallel.
import Foundation
import HUDProtocol
import LinuxSystem
import SystemPackage
import Testing

/// What the fake daemon does with one request.
enum ScriptedReply: Sendable, CustomStringConvertible {
    case bytes([UInt8])
    case hangUp

    static let ack = ScriptedReply.bytes([PlymouthWire.ackByte]), nak = ScriptedReply.bytes([PlymouthWire.nakByte])
    static let noAnswer = ScriptedReply.bytes([PlymouthWire.noAnswerByte])
    static func answer(_ s: String) -> ScriptedReply { .bytes(PlymouthWire.answer(Array(s.utf8))) }
    static let ctrlC = ScriptedReply.bytes(PlymouthWire.answer(PlymouthWire.cancelled))
    static let twoCached = ScriptedReply.bytes(PlymouthWire.multipleAnswers([Array("old".utf8), Array("older".utf8)])!)

    var description: String {
        switch self {
        case .bytes(let b): return b.map { String($0, radix: 16) }.joined(separator: " ")
        case .hangUp: return "hang-up"
        }
    }
}

/// What one client did: the requests it sent (bytes each), its output and how it ended.
struct ClientRun: Equatable, CustomStringConvertible {
    var requests: [[UInt8]] = []
    var output: [UInt8] = []
    var errors = ""
    var status: Int32 = 0

    var description: String {
        "requests \(requests.map { $0.map { String($0, radix: 16) }.joined(separator: " ") }) output \(String(decoding: output, as: UTF8.self).debugDescription) errors \(errors.debugDescription) status \(status)"
    }
}

@Suite("splashhud as plymouth, byte for byte against Debian's plymouth",
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/plymouth") && getuid() == 0,
                "needs /usr/bin/plymouth (the plymouth package) and root for a network namespace"))
struct PlymouthPersonalityTests {
    static let real = "/usr/bin/plymouth"

    /// A link called `plymouth` to the built splashhud.
    static let ours: String = {
        let dir = try! temporaryDirectory("plymouth-personality")
        try! FileManager.default.createSymbolicLink(atPath: "\(dir)/plymouth", withDestinationPath: try! SplashBinary.path())
        return "\(dir)/plymouth"
    }()

    /// Runs `program arguments` against a fake daemon answering `script` in order (ACK after it
    /// ends), in a network namespace of its own.
    static func run(_ program: String, _ arguments: [String], script: [ScriptedReply], daemon: Bool = true) throws -> ClientRun {
        let dir = try temporaryDirectory("plymouth-run")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        nonisolated(unsafe) var result: Result<ClientRun, Error> = .success(ClientRun())
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            guard enterNewNetworkNamespace() else { result = .failure(FakeDaemonError.noNamespace(errno)); return }
            result = Result { try serve(program, arguments, script: script, daemon: daemon, dir: dir) }
        }
        thread.start()
        done.wait()
        return try result.get()
    }

    enum FakeDaemonError: Error { case noNamespace(Int32), timedOut(String) }

    /// unshare(CLONE_NEWNET) for the calling thread only (Glibc's Swift module leaves the GNU
    /// call out, so it is looked up).
    static func enterNewNetworkNamespace() -> Bool {
        typealias Unshare = @convention(c) (Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "unshare") else { return false }
        return unsafeBitCast(symbol, to: Unshare.self)(0x4000_0000) == 0  // CLONE_NEWNET
    }

    private static func serve(_ program: String, _ arguments: [String], script: [ScriptedReply], daemon: Bool, dir: String) throws -> ClientRun {
        let listener = daemon ? try UnixSocket.listen(at: PlymouthWire.socketName) : nil
        defer { listener.map { Files.close($0) } }
        let pid = try spawn(program, arguments, output: "\(dir)/out", errors: "\(dir)/err")
        var status: Int32 = 0
        func running() -> Bool { waitpid(pid, &status, WNOHANG) == 0 }
        var run = ClientRun(), pending: [UInt8] = [], connection: FileDescriptor?, replies = script[...]
        defer { connection.map { Files.close($0) } }
        let deadline = ContinuousClock.now + .seconds(5)
        while running() {
            guard ContinuousClock.now < deadline else { kill(pid, SIGKILL); _ = waitpid(pid, &status, 0); throw FakeDaemonError.timedOut("\(program) \(arguments) still running, requests \(run.requests)") }
            if let listener, connection == nil, run.requests.isEmpty {
                if try Poll.wait(listener, for: .read, timeoutMilliseconds: 10, subject: "fake plymouthd") {
                    connection = try UnixSocket.accept(listener, subject: "fake plymouthd")
                }
                continue
            }
            guard let c = connection else { Thread.sleep(forTimeInterval: 0.005); continue }
            guard try Poll.wait(c, for: .read, timeoutMilliseconds: 10, subject: "fake plymouthd") else { continue }
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = (try? buffer.withUnsafeMutableBytes { try Files.read(c, into: $0, subject: "fake plymouthd") }) ?? 0
            if n == 0 { Files.close(c); connection = nil; continue }  // the client went; it exits next
            pending += buffer[..<n]
            while let request = nextRequest(&pending) {
                run.requests.append(request)
                switch replies.popFirst() ?? .ack {
                case .hangUp:
                    Files.close(c); connection = nil; pending = []
                case .bytes(let reply):
                    // MSG_NOSIGNAL: a client already gone must not take the test runner with it.
                    _ = try? reply.withUnsafeBytes { try UnixSocket.send(c, $0, subject: "fake plymouthd") }
                }
                if connection == nil { break }
            }
        }
        run.status = status & 0x7f == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
        // LinuxSystem's read, not Foundation's: Data read on this Thread is never freed (LeakSanitizer).
        run.output = (try? Files.readFile("\(dir)/out", limit: 1 << 20)) ?? []
        run.errors = String(decoding: (try? Files.readFile("\(dir)/err", limit: 1 << 20)) ?? [], as: UTF8.self)
        return run
    }

    /// posix_spawn of `program` (argv[0] as given: our link's name matters) with standard input
    /// /dev/null and its output and errors into files. Not Foundation's Process: on a thread of its
    /// own it never saw its children end.
    static func spawn(_ program: String, _ arguments: [String], output: String, errors: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let r = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard r == 0 else { throw FakeDaemonError.noNamespace(r) }
        return pid
    }

    /// The first whole request in `bytes` (taken out), nil until one is complete.
    static func nextRequest(_ bytes: inout [UInt8]) -> [UInt8]? {
        guard bytes.count >= 2 else { return nil }
        let size = bytes[1] == 0x02 ? (bytes.count >= 3 ? 3 + Int(bytes[2]) : Int.max) : 2
        guard bytes.count >= size else { return nil }
        defer { bytes.removeFirst(size) }
        return Array(bytes[..<size])
    }

    /// Both clients' runs of `arguments` against `script`, checked equal.
    func compare(_ arguments: [String], _ script: [ScriptedReply], daemon: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let real = try Self.run(Self.real, arguments, script: script, daemon: daemon)
        let ours = try Self.run(Self.ours, arguments, script: script, daemon: daemon)
        #expect(ours == real, "plymouth \(arguments) against [\(script.map(\.description).joined(separator: ", "))]:\n  real: \(real)\n  ours: \(ours)",
                sourceLocation: sourceLocation)
    }

    // MARK: Every verb, answered ACK: the same bytes

    static let verbs: [[String]] = [
        ["--ping"], ["--show-splash"], ["--hide-splash"], ["--quit"], ["--quit", "--retain-splash"], ["--update=udev.service"],
        ["--update", "plymouth-start.service"], ["--sysinit"], ["--newroot=/sysroot"], ["--has-active-vt"], ["--details"],
        ["--ignore-keystroke=q"], ["display-message", "--text=Please wait"], ["message", "--text", "Checking disks"],
        ["hide-message", "--text=Please wait"], ["system-update", "--progress=40"], ["system-update", "--progress", "0x10"],
        ["change-mode", "--boot-up"], ["change-mode", "--shutdown"], ["change-mode", "--reboot"], ["change-mode", "--updates"],
        ["change-mode", "--system-upgrade"], ["change-mode", "--firmware-upgrade"], ["pause-progress"], ["unpause-progress"],
        ["update", "--status=fsck"], ["update-root-fs", "--read-write"], ["show-splash"], ["hide-splash"], ["quit"],
        ["quit", "--retain-splash"], ["report-error"], ["deactivate"], ["reactivate"], ["ignore-keystroke", "--keys=yn"],
        ["ignore-keystroke"], ["watch-keystroke", "--keys=yn"], ["watch-keystroke"], ["ask-question", "--prompt=Continue?"],
        ["ask-for-password"], ["ask-for-password", "--prompt", "Please unlock disk root"], ["ask-for-password", "--dont-pause-progress"],
        ["--ask-for-password"], ["--help"], ["change-mode"], ["system-update", "--progress=101"], ["bogus"],
    ]

    @Test(arguments: verbs)
    func sameRequests(arguments: [String]) throws {
        // A prompt sent first must get an answer: an ACK there makes the real client print memory.
        let promptFirst = arguments == ["--ask-for-password"] || arguments.first == "watch-keystroke" || arguments.contains("--dont-pause-progress")
        try compare(arguments, promptFirst ? [.answer("secret"), .ack] : [.ack, .answer("secret"), .ack])
    }

    // MARK: Every kind of reply

    static let ackVerbs: [[String]] = [["--ping"], ["display-message", "--text=Hi"], ["quit", "--retain-splash"], ["ignore-keystroke", "--keys=q"]]
    static let replies: [ScriptedReply] = [.ack, .nak, .noAnswer, .answer("abc"), .ctrlC, .twoCached, .hangUp, .bytes([0x7f])]

    @Test(arguments: ackVerbs, replies)
    func sameEndingForEachReply(arguments: [String], reply: ScriptedReply) throws {
        try compare(arguments, [reply])
    }

    static let prompts: [[String]] = [
        ["ask-for-password", "--prompt=Please unlock disk root"], ["ask-for-password", "--dont-pause-progress"], ["--ask-for-password"],
        ["ask-question", "--prompt=Continue?"], ["ask-question", "--dont-pause-progress"], ["watch-keystroke", "--keys=yn"],
    ]
    /// The answer to the prompt itself (MULTIPLE_ANSWERS only answers `c`: the real client would
    /// print its pointers).
    static let answers: [ScriptedReply] = [.answer("pass phrase"), .answer(""), .ctrlC, .noAnswer, .nak, .hangUp]

    @Test(arguments: prompts, answers)
    func samePromptEnding(arguments: [String], answer: ScriptedReply) throws {
        let paused = arguments.first != "watch-keystroke" && !arguments.contains("--dont-pause-progress") && arguments != ["--ask-for-password"]
        try compare(arguments, paused ? [.ack, answer, .ack] : [answer, .ack])
    }

    @Test func aRefusedPauseOrUnpause() throws {
        try compare(["ask-for-password", "--prompt=Disk"], [.nak])
        try compare(["ask-for-password", "--prompt=Disk"], [.ack, .answer("pw"), .nak])
        try compare(["ask-question", "--prompt=Q"], [.nak])
        try compare(["ask-question", "--prompt=Q"], [.ack, .answer("yes"), .nak])
    }

    @Test func noDaemon() throws {
        for arguments in [["--ping"], ["--show-splash"], ["--wait"], ["--has-active-vt"], ["ask-for-password"], ["display-message", "--text=x"]] {
            try compare(arguments, [], daemon: false)
        }
    }

    // MARK: --command: cryptsetup's retries (dracut)

    /// A command that records the password on its standard input and fails twice, then succeeds.
    static func countingCommand() throws -> (command: String, dir: String) {
        let dir = try temporaryDirectory("plymouth-command")
        let script = """
            #!/bin/sh
            n=$(cat "\(dir)/count" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "\(dir)/count"
            { cat; echo; } >> "\(dir)/passwords"
            [ $n -ge 3 ]
            """
        try script.write(toFile: "\(dir)/try", atomically: true, encoding: .utf8)
        chmod("\(dir)/try", 0o755)
        // Run by sh, not exec'd: a script just written may be open for writing in a child another
        // test is forking (ETXTBSY).
        return ("/bin/sh \(dir)/try luksOpen /dev/sda2 root", dir)
    }

    func compareCommand(_ extra: [String], _ script: [ScriptedReply], expectPasswords: String? = nil) throws {
        var runs: [(ClientRun, String)] = []
        for program in [Self.real, Self.ours] {
            let (command, dir) = try Self.countingCommand()
            let run = try Self.run(program, ["ask-for-password", "--prompt=Password (/dev/sda2)", "--command=\(command)"] + extra, script: script)
            runs.append((run, (try? String(contentsOfFile: "\(dir)/passwords", encoding: .utf8)) ?? ""))
        }
        #expect(runs[1].0 == runs[0].0, "--command \(extra):\n  real: \(runs[0].0)\n  ours: \(runs[1].0)")
        #expect(runs[1].1 == runs[0].1, "what the command read:\n  real: \(runs[0].1.debugDescription)\n  ours: \(runs[1].1.debugDescription)")
        if let expectPasswords { #expect(runs[1].1 == expectPasswords) }
    }

    @Test func commandFailsTwiceThenSucceeds() throws {
        let asked = [ScriptedReply.ack, .noAnswer, .answer("one"), .answer("two"), .answer("three"), .ack]
        try compareCommand(["--number-of-tries=5"], asked, expectPasswords: "one\ntwo\nthree\n")
        try compareCommand([], asked)  // no limit
        try compareCommand(["--number-of-tries", "2"], asked)  // gives up after two: exit 1 after `a`
        try compareCommand(["--number-of-tries=5", "--dont-pause-progress"], [.noAnswer, .answer("one"), .answer("two"), .answer("three")])
        // Cached passwords are tried first, one run each: the third run succeeds with no prompt.
        try compareCommand([], [.ack, .twoCached, .answer("new")], expectPasswords: "old\nolder\nnew\n")
        try compareCommand([], [.ack, .noAnswer, .ctrlC])
        try compareCommand(["--number-of-tries=5"], [.ack, .noAnswer, .answer("one"), .hangUp])
    }

    // MARK: The harness itself

    /// A different byte on the wire is seen (so an equal comparison means something).
    @Test func theComparisonSeesOneDifferentByte() throws {
        let real = try Self.run(Self.real, ["display-message", "--text=Hello"], script: [.ack])
        let ours = try Self.run(Self.ours, ["display-message", "--text=Hellp"], script: [.ack])
        #expect(real.requests == [[0x4D, 0x02, 0x06] + Array("Hello".utf8) + [0]])
        #expect(ours != real && ours.status == real.status)
    }

    /// Lengths are little-endian whatever the host, and replies may come in pieces.
    @Test func wireFormat() throws {
        #expect(PlymouthWire.answer(Array("pw".utf8)) == [0x02, 0x02, 0, 0, 0, 0x70, 0x77])
        #expect(PlymouthWire.answer([UInt8](repeating: 0x61, count: 0x0102)).prefix(5) == [0x02, 0x02, 0x01, 0, 0])
        #expect(PlymouthWire.multipleAnswers([Array("a".utf8), Array("bc".utf8)]) == [0x09, 5, 0, 0, 0, 0x61, 0, 0x62, 0x63, 0])
        #expect(PlymouthWire.multipleAnswers([[UInt8](repeating: 0x61, count: 255)]) == nil)
        #expect(PlymouthWire.multipleAnswers([[UInt8](repeating: 0x61, count: 254)])?.count == 260)
        #expect(PlymouthWire.multipleAnswers([]) == nil)
        #expect(PlymouthWire.request(command: 0x2A, argument: nil) == [0x2A, 0])
        #expect(PlymouthWire.request(command: 0x2A, argument: Array("Pw".utf8)) == [0x2A, 0x02, 0x03, 0x50, 0x77, 0])
        let stream: [UInt8] = [0x06] + PlymouthWire.answer(Array("xyz".utf8)) + [0x05] + PlymouthWire.multipleAnswers([[0x31], [0x32]])! + [0x15]
        var decoder = PlymouthReplyDecoder(), replies: [PlymouthReply] = []
        for byte in stream {
            decoder.feed([byte])
            while let r = try decoder.next() { replies.append(r) }
        }
        #expect(replies == [.ack, .answer(Array("xyz".utf8)), .noAnswer, .multipleAnswers([[0x31], [0x32]]), .nak])
        #expect(decoder.pendingCount == 0)
    }

    @Test func anArgumentTooLongIsRefused() throws {
        let run = try Self.run(Self.ours, ["display-message", "--text=" + String(repeating: "x", count: 255)], script: [])
        #expect(run.status == 1 && run.requests.isEmpty && run.errors.hasPrefix("error: --text is 255 bytes long"), "\(run)")
    }
}
