// The client verbs that read from the daemon: its version, the HUD's state, waiting for the HUD to
// go, following its events, a screenshot of an output, and raw lines (`send`).
import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import HUDClient
import HUDProtocol
import LinuxSystem
import Runtime
import SystemPackage

struct VersionVerb: ParsableCommand, ClientVerb {
    static let configuration = CommandConfiguration(commandName: "version", abstract: "Print the daemon's protocol and version.")
    @OptionGroup var connection: ClientOptions
    func run() throws {
        try reporting {
            let client = try connection.connect()
            print(try client.request("version") ?? "")
        }
    }
}

struct StateVerb: ParsableCommand, ClientVerb {
    static let configuration = CommandConfiguration(
        commandName: "state", abstract: "Print the HUD's state: visible, mode, progress, status, outputs.",
        discussion: "One line of key/value words; with --field, only that value (`splashhud state --field visible` prints yes or no).")
    @OptionGroup var connection: ClientOptions
    @Option(help: "Print only this field's value: visible, mode, progress, status or outputs (empty when absent).")
    var field: String?

    func validate() throws {
        if let field, !["visible", "mode", "progress", "status", "outputs"].contains(field) {
            throw ValidationError("--field must be visible, mode, progress, status or outputs")
        }
    }

    func run() throws {
        try reporting {
            let client = try connection.connect()
            let line: String
            line = try client.request("state") ?? ""
            guard let field else { print(line); return }
            guard let state = HUDState(line: line) else { throw ClientFailure(.protocolError("unreadable state '\(line)'")) }
            switch field {
            case "visible": print(state.visible ? "yes" : "no")
            case "mode": print(state.mode)
            case "progress": print(state.progress.map { "\($0)" } ?? "")
            case "status": print(state.status ?? "")
            default: print(state.outputs.map { "\($0.name):\($0.width)x\($0.height)" }.joined(separator: ","))
            }
        }
    }
}

struct WaitVerb: ParsableCommand, ClientVerb {
    static let configuration = CommandConfiguration(
        commandName: "wait", abstract: "Wait until the HUD is hidden (its fade-out done); exit 75 after --max seconds.",
        discussion: "The daemon must answer a ping within --timeout first, so a stopped daemon is noticed at once.")
    @OptionGroup var connection: ClientOptions
    @Option(help: "The longest to wait for the HUD to go, in seconds.") var max: Double = 120

    func validate() throws {
        guard max > 0 && max <= 86_400 else { throw ValidationError("--max must be above 0 and at most 86400 s") }
    }

    func run() throws {
        try reporting {
            let client = try connection.connect()
            try client.request("ping")
            try client.request("wait", timeoutMilliseconds: Int32(max * 1000))
        }
    }
}

struct SubscribeVerb: ParsableCommand, ClientVerb {
    static let configuration = CommandConfiguration(
        commandName: "subscribe", abstract: "Print the HUD's events as they happen, one `event T KIND \"STATUS\" [KEY VALUE]...` line each.",
        discussion: """
            Runs until the daemon ends (exit 0), or until --until's event or --count events. Each line is written as it \
            comes, so a script can read them one by one: `splashhud subscribe --keys --until key` waits for any key \
            ("press any key to skip"). Touch events carry `x Y y Y output NAME`, key events `key NAME text TEXT`.
            """)
    @OptionGroup var connection: ClientOptions
    @Option(help: "Stop after this event: will-appear, did-appear, will-disappear, did-disappear, hidden, button, touch, touch-inside, cancel, key.") var until: String?
    @Option(help: "Stop after this many events.") var count: Int?
    @Flag(help: "Also watch the keyboard: every key press is a `key` event while this runs (the daemon reads keys only while someone watches).") var keys = false

    func validate() throws {
        if let until, HUDEvent.Kind(rawValue: until) == nil { throw ValidationError("--until: unknown event '\(until)'") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    }

    func run() throws {
        try reporting {
            let client = try connection.connect()
            try client.request(keys ? "subscribe keys" : "subscribe")
            var seen = 0
            while true {
                let event: HUDEvent?
                do { event = try client.nextEvent() } catch .protocolError {
                    return  // the daemon ended
                }
                guard let event else { continue }
                print(event.line)
                fflush(nil)  // every open output stream: the line reaches a pipe now
                seen += 1
                if event.kind.rawValue == until || seen == count { return }
            }
        }
    }
}

struct SnapshotVerb: ParsableCommand, ClientVerb {
    static let configuration = CommandConfiguration(
        commandName: "snapshot", abstract: "Save what an output shows now as a PNG (the daemon sends it over the socket).")
    @OptionGroup var connection: ClientOptions
    @Argument(help: "The PNG file to write (replaced atomically).") var file: String
    @Option(help: "The output's name (default: the first).") var output: String?

    func run() throws {
        try reporting {
            let client = try connection.connect()
            let shot: (png: [UInt8], output: String, size: String)
            shot = try client.snapshot(output: output, timeoutMilliseconds: Swift.max(connection.timeout, 5000))
            do { try Files.writeAtomically(shot.png, to: file) } catch {
                printError("splashhud: cannot write \(file): \(error)")
                throw ExitCode(73)  // EX_CANTCREAT
            }
            print("\(file): \(shot.output) \(shot.size)")
        }
    }
}

struct SendVerb: ParsableCommand, ClientVerb {
    static let configuration = CommandConfiguration(
        commandName: "send", abstract: "Send command lines as they are (one per argument), to the daemon or to a FIFO.",
        discussion: """
            Each LINE is one request: `show "Starting"`, `progress 0.4 "Installing 3 of 7"`, psplash's `MSG text`,
            `PROGRESS 40`, `QUIT`, fbsplash's `40`, `exit`, or `quit --retain`. Every line is checked first; nothing is
            sent when one is wrong. Over the socket all lines go in one round trip and the first refusal exits 65. With
            --fifo they are written to that FIFO instead, never blocking (exit 1 at once when nobody reads it).
            """)
    @OptionGroup var connection: ClientOptions
    @Option(help: "Write to this FIFO (a daemon's --fifo, --psplash-fifo or --fbsplash-fifo) instead of the socket.") var fifo: String?
    @Argument(help: "Command lines, one per argument.") var lines: [String]

    func validate() throws {
        guard !lines.isEmpty else { throw ValidationError("nothing to send: give at least one command line") }
        for (i, line) in lines.enumerated() {
            do {
                if fifo == nil { _ = try ControlRequest.parse(line) } else { _ = try CommandParser.parseRequest(line) }
            } catch {
                throw ValidationError("line \(i + 1) '\(line)': \(error)")
            }
        }
    }

    func run() throws {
        if let fifo {
            do { try CommandFIFO.send(lines, to: fifo, timeoutMilliseconds: connection.timeout) } catch {
                printError("splashhud send: \(error)")
                throw ExitCode(1)
            }
            return
        }
        try reporting {
            let client = try connection.connect()
            let replies: [Result<String?, ControlClientError>]
            replies = try client.pipeline(lines)
            for (line, reply) in zip(lines, replies) {
                switch reply {
                case .success(let data?): print(data)
                case .success(nil): break
                case .failure(let e):
                    printError("splashhud send: '\(line)': \(e)")
                    throw ExitCode(e.exitStatus)
                }
            }
        }
    }
}
