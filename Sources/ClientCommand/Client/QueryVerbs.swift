// SPDX-License-Identifier: MIT
// The verbs that read from the daemon: its version, the HUD's state, waiting for the HUD to go,
// following its events, a screenshot of an output, raw lines (`send`), and a passphrase typed on
// the HUD's prompt (`ask-password`).
import CommandLineOptions
import HUDClient
import HUDProtocol
import LinuxSystem

extension ClientVerb {
    static let queryVerbNames = ["version", "state", "wait", "subscribe", "snapshot", "send", "ask-password", "keyboard"]

    /// The verb of `queryVerbNames` called `name`, nil for another name (each is built on first use).
    static func queryVerb(named name: String) -> ClientVerb? {
        switch name {
        case "version": return version
        case "state": return state
        case "wait": return wait
        case "subscribe": return subscribe
        case "snapshot": return snapshot
        case "send": return send
        case "ask-password": return askPassword
        case "keyboard": return keyboard
        default: return nil
        }
    }

    static let askPassword = ClientVerb(
        spec: spec("ask-password", "Show a passphrase prompt on the HUD and print what is typed (no newline), as `plymouth ask-for-password` does.",
                   discussion: """
                       The prompt shows one bullet per character typed on the HUD's keyboard (the VT's, in the user's layout) until \
                       Enter; `splashhud ask-password "PIN" | cryptsetup open --key-file=- …` hands it on without a terminal. Exit 65 \
                       when the user presses Ctrl-C or Ctrl-D, or when the HUD has no keyboard; 77 when not root or the daemon's user.
                       """,
                   options: [.option("tries", "n", help: "The tries left, as the caller counts them, shown under the entry.")],
                   operands: "<prompt>", operandHelp: [OperandHelp("prompt", "The text over the entry.")], count: 1...1),
        run: { p, connection throws(ClientFailure) in
            let tries = (try? p.number("tries", above: -1, atMost: 1_000_000)).map { Int($0) }
            let client = try connection.connect()
            let data: String?
            do throws(ControlClientError) {
                try client.request("ping")
                data = try client.request(ControlRequest.askPassword(prompt: p.operands[0], tries: tries).description, timeoutMilliseconds: Int32.max / 2)
            } catch { throw ClientFailure(error) }
            guard let text = ControlProtocol.answerText(data ?? "") else { throw ClientFailure(.protocolError("unreadable answer")) }
            do { try Files.writeAll(.standardOutput, Array(text.utf8), subject: "standard output") } catch {
                throw ClientFailure("splashhud ask-password: \(error)", status: 74)
            }
        },
        check: { p throws(UsageError) in
            if let n = try p.number("tries", above: -1, atMost: 1_000_000), n != n.rounded() { throw UsageError("--tries: a whole number, got \(n)") }
        })

    static let keyboard = ClientVerb(
        spec: spec("keyboard", "Print the on-screen keyboard's keys as the HUD shows them now, for a test that taps them.",
                   discussion: """
                       One line per key: `TAP X Y WIDTH HEIGHT NAME BASE SHIFT SYMBOLS`, the key's centre in the output's frame \
                       pixels and the frame's size (a QEMU probe's tap request), then char, shift, symbols, backspace, space or \
                       enter and the Unicode scalar the key types on each level (0: none), in decimal. Exit 65 when no \
                       on-screen keyboard is shown.
                       """,
                   options: [.option("output", "name", help: "The output's name (default: the first).")]),
        run: { p, connection throws(ClientFailure) in
            let client = try connection.connect()
            let data: String?
            do throws(ControlClientError) {
                data = try client.request(ControlRequest.keyboard(output: p.value("output")).description)
            } catch { throw ClientFailure(error) }
            let words = (data ?? "").split(separator: " ")
            guard words.count >= 2 else { throw ClientFailure(.protocolError("unreadable keyboard reply")) }
            let size = words[1].split(separator: "x")
            guard size.count == 2 else { throw ClientFailure(.protocolError("unreadable keyboard reply")) }
            for word in words.dropFirst(2) {
                let parts = word.split(separator: ":")
                let f = parts.count == 3 ? parts[1].split(separator: ",").compactMap { Int32($0) } : []
                guard f.count == 4 else { throw ClientFailure(.protocolError("unreadable key \(word)")) }
                print("TAP \(f[0] + f[2] / 2) \(f[1] + f[3] / 2) \(size[0]) \(size[1]) \(parts[0]) \(parts[2].split(separator: ",").joined(separator: " "))")
            }
        })

    static let version = ClientVerb(
        spec: spec("version", "Print this client's version and the daemon's, each with its control protocol.",
                   discussion: """
                       Two lines: `client VERSION protocol N`, then `daemon VERSION protocol N` as the daemon answers. Without \
                       a daemon only the client's line is printed (exit 69). With a daemon that speaks another control \
                       protocol it exits 76 after both lines: that daemon's replies may mean something else to this client.
                       """),
        run: { _, connection throws(ClientFailure) in
            print("client \(SplashHUDVersion.current) protocol \(ControlProtocol.version)")
            CommandLineTool.flushOutput()  // before an error on standard error, in the order it happened
            let client = try connection.connect()
            let reply: String?
            do throws(ControlClientError) { reply = try client.request("version") } catch { throw ClientFailure(error) }
            guard let daemon = VersionReply(line: reply ?? "") else { throw ClientFailure(.protocolError("unreadable version '\(reply ?? "")'")) }
            print("daemon \(daemon.software) protocol \(daemon.protocolVersion)")
            CommandLineTool.flushOutput()
            guard daemon.speaksThisProtocol else {
                throw ClientFailure("splashhud version: the daemon speaks control protocol \(daemon.protocolVersion), this client \(ControlProtocol.version)",
                                    status: 76)
            }
        })

    static let stateFields = ["visible", "mode", "progress", "status", "outputs"]

    static let state = ClientVerb(
        spec: spec("state", "Print the HUD's state: visible, mode, progress, status, outputs.",
                   discussion: "One line of key/value words; with --field, only that value (`splashhud state --field visible` prints yes or no).",
                   options: [.option("field", "field", help: "Print only this field's value: visible, mode, progress, status or outputs (empty when absent).")]),
        run: { p, connection throws(ClientFailure) in
            let client = try connection.connect()
            let reply: String?
            do throws(ControlClientError) { reply = try client.request("state") } catch { throw ClientFailure(error) }
            let line = reply ?? ""
            guard let field = p.value("field") else { print(line); return }
            guard let state = HUDState(line: line) else { throw ClientFailure(.protocolError("unreadable state '\(line)'")) }
            switch field {
            case "visible": print(state.visible ? "yes" : "no")
            case "mode": print(state.mode)
            case "progress": print(state.progress.map { "\($0)" } ?? "")
            case "status": print(state.status ?? "")
            default: print(state.outputs.map { "\($0.name):\($0.width)x\($0.height)" }.joined(separator: ","))
            }
        },
        check: { p throws(UsageError) in _ = try p.choice("field", of: stateFields) })

    static let wait = ClientVerb(
        spec: spec("wait", "Wait until the HUD is hidden (its fade-out done); exit 75 after --max seconds.",
                   discussion: "The daemon must answer a ping within --timeout first, so a stopped daemon is noticed at once.",
                   options: [.option("max", "seconds", help: "The longest to wait for the HUD to go, in seconds (default 120).")]),
        run: { p, connection throws(ClientFailure) in
            let max = (try? p.number("max", above: 0, atMost: 86_400)) ?? 120
            let client = try connection.connect()
            do throws(ControlClientError) {
                try client.request("ping")
                try client.request("wait", timeoutMilliseconds: Int32(max * 1000))
            } catch { throw ClientFailure(error) }
        },
        check: { p throws(UsageError) in _ = try p.number("max", above: 0, atMost: 86_400) })

    static let subscribe = ClientVerb(
        spec: spec("subscribe", "Print the HUD's events as they happen, one `event T KIND \"STATUS\" [KEY VALUE]...` line each.",
                   discussion: """
                       Runs until the daemon ends (exit 0), or until --until's event or --count events. Each line is written as it \
                       comes, so a script can read them one by one: `splashhud subscribe --keys --until key` waits for any key \
                       ("press any key to skip"). Touch events carry `x X y Y output NAME`, key events `key NAME text TEXT`.
                       """,
                   options: [
                       .option("until", "event", help: "Stop after this event: will-appear, did-appear, will-disappear, did-disappear, hidden, button, touch, touch-inside, cancel, key."),
                       .option("count", "n", help: "Stop after this many events."),
                       .flag("keys", help: "Also watch the keyboard: every key press is a `key` event while this runs (the daemon reads keys only while someone watches)."),
                   ]),
        run: { p, connection throws(ClientFailure) in
            let until = p.value("until"), count = Int(p.value("count") ?? "")
            let client = try connection.connect()
            do throws(ControlClientError) { try client.request(p.flag("keys") ? "subscribe keys" : "subscribe") } catch { throw ClientFailure(error) }
            var seen = 0
            while true {
                let event: HUDEvent?
                do throws(ControlClientError) { event = try client.nextEvent() } catch {
                    if error == .daemonClosed { return }  // the daemon ended
                    throw ClientFailure(error)  // not the protocol (a line past its bound): 76
                }
                guard let event else { continue }
                print(event.line)
                CommandLineTool.flushOutput()  // the line reaches a pipe now
                seen += 1
                if event.kind.rawValue == until || seen == count { return }
            }
        },
        check: { p throws(UsageError) in
            if let until = p.value("until"), HUDEvent.Kind(rawValue: until) == nil { throw UsageError("--until: unknown event '\(until)'") }
            _ = try p.integer("count", in: 1...Int.max)
        })

    static let snapshot = ClientVerb(
        spec: spec("snapshot", "Save what an output shows now as a PNG (the daemon sends it over the socket).",
                   options: [.option("output", "name", help: "The output's name (default: the first).")],
                   operands: "<file>", operandHelp: [OperandHelp("file", "The PNG file to write (replaced atomically).")], count: 1...1),
        run: { p, connection throws(ClientFailure) in
            let file = p.operands[0]
            let client = try connection.connect()
            let shot: (png: [UInt8], output: String, size: String)
            do throws(ControlClientError) { shot = try client.snapshot(output: p.value("output"), timeoutMilliseconds: Swift.max(connection.timeout, 5000)) } catch {
                throw ClientFailure(error)
            }
            do { try Files.writeAtomically(shot.png, to: file) } catch {
                throw ClientFailure("splashhud: cannot write \(file): \(error)", status: 73)  // EX_CANTCREAT
            }
            print("\(file): \(shot.output) \(shot.size)")
        })

    static let send = ClientVerb(
        spec: spec("send", "Send command lines as they are (one per argument), to the daemon or to a FIFO.",
                   discussion: """
                       Each LINE is one request: `show "Starting"`, `progress 0.4 "Installing 3 of 7"`, psplash's `MSG text`, \
                       `PROGRESS 40`, `QUIT`, fbsplash's `40`, `exit`, or `quit --retain`. Every line is checked first; nothing is \
                       sent when one is wrong. Over the socket all lines go in one round trip and the first refusal exits 65. With \
                       --fifo they are written to that FIFO instead, never blocking (exit 1 at once when nobody reads it).
                       """,
                   options: [.option("fifo", "path", help: "Write to this FIFO (a daemon's --fifo, --psplash-fifo or --fbsplash-fifo) instead of the socket.")],
                   operands: "<line> ...", operandHelp: [OperandHelp("line", "Command lines, one per argument.")], count: 1...Int.max),
        run: { p, connection throws(ClientFailure) in
            let lines = p.operands
            if let fifo = p.value("fifo") {
                do { try CommandFIFOSender.send(lines, to: fifo, timeoutMilliseconds: connection.timeout) } catch {
                    throw ClientFailure("splashhud send: \(error)", status: 1)
                }
                return
            }
            let client = try connection.connect()
            let replies: [Result<String?, ControlClientError>]
            do throws(ControlClientError) { replies = try client.pipeline(lines) } catch { throw ClientFailure(error) }
            for (line, reply) in zip(lines, replies) {
                switch reply {
                case .success(let data?): print(data)
                case .success(nil): break
                case .failure(let e): throw ClientFailure("splashhud send: '\(line)': \(e)", status: e.exitStatus)
                }
            }
        },
        check: { p throws(UsageError) in
            for (i, line) in p.operands.enumerated() {
                do {
                    if p.value("fifo") == nil { _ = try ControlRequest.parse(line) } else { _ = try CommandParser.parseRequest(line) }
                } catch {
                    throw UsageError("line \(i + 1) '\(line)': \(error)")
                }
            }
        })
}
