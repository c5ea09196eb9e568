// SPDX-License-Identifier: MIT
// The control socket's protocol, version 1: what `splashhudd` answers on its Unix stream socket and
// what `splashhud` and the Swift API speak.
//
// A request is one line (UTF-8, ended by "\n", at most `maxLineBytes` bytes): any line of the
// command language (`show "Booting"`, `progress 0.4`, `set style dark`, psplash's and fbsplash's
// words), a service verb (`quit [--retain]`, `QUIT`, `exit`, `progress-over FRACTION SECONDS`), or
// one of the control verbs:
//
//     ping                   ok pong
//     version                ok protocol 1 splashhud VERSION   (VersionReply: the compatibility rule)
//     state                  ok visible yes mode ring progress 0.4 status "Copying" outputs Virtual-1:1024x768
//     wait                   ok hidden            (sent once the HUD is hidden: at once if it is)
//     subscribe [keys]       ok subscribed        then one `event T KIND ["STATUS"] [KEY VALUE]...` line
//                                                 per event; `keys` also watches the keyboard (`key`
//                                                 events) for as long as the connection subscribes
//     snapshot [OUTPUT]      ok png LENGTH OUTPUT WxH   then LENGTH bytes of PNG
//     ask-password "PROMPT"  ok "TEXT"          (sent once the user pressed Enter on the HUD's
//                                                 prompt; `error cancelled` for Ctrl-C or Ctrl-D)
//
// Every request gets exactly one reply line, in the order the requests were sent: `ok [DATA]` or
// `error CODE MESSAGE` (codes: `ControlErrorCode`). Blank and comment lines get `ok` too, so a
// client can count replies. A HUD command's `ok` means it was applied (a refused one is `error
// refused`); lifecycle commands are applied in order, progress updates may be coalesced to the
// latest within one frame (each still gets its `ok`). Event lines (only after `subscribe`) start
// with `event`, never with `ok` or `error`, so they interleave with replies without ambiguity.
// The daemon closes a connection whose unread output passes its bound.

public enum ControlProtocol {
    /// Bumped when a verb's reply changes meaning; new verbs and new state keys do not bump it
    /// (SplashHUD's own version is `SplashHUDVersion.current`).
    public static let version = 1
    /// The longest request line, without its newline (the FIFO's limit too: PIPE_BUF - 1).
    public static let maxLineBytes = 4095
    /// The daemon's socket unless told otherwise.
    public static let defaultSocketPath = "/run/splashhud/control"
    /// The abstract-namespace name the daemon falls back to when it cannot bind `path` (a read-only
    /// or missing /run in early boot); clients try it when nothing is at `path`.
    public static func abstractFallback(for path: String) -> String { "@" + path }
    /// The control verbs, besides the command language and the service verbs.
    /// The text of ask-password's reply data (one quoted word), nil when it is not one.
    public static func answerText(_ data: String) -> String? {
        guard let words = try? CommandLexer.words(data), words.count == 1 else { return nil }
        return words[0].text
    }

    public static let controlVerbs = ["ping", "version", "state", "wait", "subscribe", "snapshot", "ask-password", "keyboard"]
}

/// One request on the control socket.
public enum ControlRequest: Equatable, Sendable {
    /// A HUD command or a service verb, as any transport carries it.
    case request(Request)
    case ping, version, state, wait
    /// Events from now on; `keys`: key presses too (Plymouth's watch-keystroke, for "press any key");
    /// `state`: the state too, as a `state` event line at once and whenever it changes (a client
    /// that follows the HUD then never asks `state` again: the fleet bridge).
    case subscribe(keys: Bool, state: Bool = false)
    /// The PNG of what `output` (nil: the first) shows now.
    case snapshot(output: String?)
    /// A passphrase (a PIN, a password) typed on the HUD's prompt, shown as bullets; `tries`: the
    /// tries left, as the asker counts them, shown under the field.
    case askPassword(prompt: String, tries: Int? = nil)
    /// The on-screen keyboard's keys on `output` (nil: the first) as the HUD shows them now, in
    /// frame pixels, with what each types on each level: for a test that taps them.
    case keyboard(output: String?)

    /// The request on `line`, nil for a blank or comment line; a malformed line throws.
    public static func parse(_ line: String) throws(CommandError) -> ControlRequest? {
        guard let words = try CommandLexer.words(line) else { return nil }
        let verb = words[0]
        let rest = words.dropFirst()
        switch verb.text {
        case "ping", "version", "state", "wait":
            try CommandParser.end(rest, for: verb.text)
            switch verb.text {
            case "ping": return .ping
            case "version": return .version
            case "state": return .state
            default: return .wait
            }
        case "subscribe":
            var keys = false, state = false
            for what in rest {
                switch what.text {
                case "keys" where !keys: keys = true
                case "state" where !state: state = true
                default: throw CommandError(.notOneOf(command: "subscribe", word: what.text, choices: ["keys", "state"]), column: what.column)
                }
            }
            return .subscribe(keys: keys, state: state)
        case "snapshot":
            try CommandParser.end(rest.dropFirst(), for: verb.text)
            return .snapshot(output: rest.first?.text)
        case "ask-password":
            guard let prompt = rest.first else { throw CommandError(.missingArgument(command: verb.text, expected: "a prompt, e.g. ask-password \"PIN\""), column: verb.column) }
            var more = rest.dropFirst()
            var tries: Int?
            if let word = more.first, word.text == "tries" {
                guard more.count >= 2, let n = Int(more.dropFirst().first!.text), (0...1_000_000).contains(n) else {
                    throw CommandError(.missingArgument(command: verb.text, expected: "a number of tries from 0 to 1000000 after tries"), column: word.column)
                }
                tries = n
                more = more.dropFirst(2)
            }
            try CommandParser.end(more, for: verb.text)
            return .askPassword(prompt: prompt.text, tries: tries)
        case "keyboard":
            try CommandParser.end(rest.dropFirst(), for: verb.text)
            return .keyboard(output: rest.first?.text)
        default:
            return .request(try CommandParser.request(words[...], otherVerbs: ControlProtocol.controlVerbs))
        }
    }
}

extension ControlRequest: CustomStringConvertible {
    /// The request as a line that `parse` reads back to it.
    public var description: String {
        switch self {
        case .request(let r): return r.description
        case .ping: return "ping"
        case .version: return "version"
        case .state: return "state"
        case .wait: return "wait"
        case .subscribe(let keys, let state): return "subscribe" + (keys ? " keys" : "") + (state ? " state" : "")
        case .snapshot(let output): return output.map { "snapshot \(CommandParser.quote($0))" } ?? "snapshot"
        case .askPassword(let prompt, let tries): return "ask-password \(CommandParser.quote(prompt))" + (tries.map { " tries \($0)" } ?? "")
        case .keyboard(let output): return output.map { "keyboard \(CommandParser.quote($0))" } ?? "keyboard"
        }
    }
}

/// Why a request failed: the second word of an `error` reply.
public enum ControlErrorCode: String, Equatable, Sendable, CaseIterable {
    /// The line does not parse (the message is the parser's, with its column).
    case syntax
    /// It parsed, but the HUD refused it and changed nothing (a bound, an unusable image or font).
    case refused
    /// Longer than `ControlProtocol.maxLineBytes`, or not UTF-8.
    case badLine = "bad-line"
    /// No such output for `snapshot`.
    case noOutput = "no-output"
    /// Too many requests waiting for their replies on this connection.
    case busy
    /// The daemon is ending and did not get to the request.
    case ending
    /// Only root or the daemon's own user may send it (quit, a file path); the socket's group may not.
    case denied
    /// Something on the daemon's side failed (the message says what).
    case failed
    /// The user cancelled the prompt (Ctrl-C or Ctrl-D), or no keyboard can answer it.
    case cancelled
}

/// One reply line.
public enum ControlReply: Equatable, Sendable {
    case ok(String?)
    case error(ControlErrorCode, String)

    public var line: String {
        switch self {
        case .ok(nil): return "ok"
        case .ok(let data?): return "ok " + data
        case .error(let code, let message): return "error \(code.rawValue) " + Self.oneLine(message)
        }
    }

    /// A reply line read back; nil when `line` is not one (an event line, garbage).
    public init?(line: String) {
        if line == "ok" { self = .ok(nil); return }
        if line.hasPrefix("ok ") { self = .ok(String(line.dropFirst(3))); return }
        guard line.hasPrefix("error ") else { return nil }
        let rest = line.dropFirst(6)
        let code = rest.prefix { $0 != " " }
        let message = rest.dropFirst(code.count).drop { $0 == " " }
        self = .error(ControlErrorCode(rawValue: String(code)) ?? .failed, String(message))
    }

    /// Messages never break the one-line framing.
    static func oneLine(_ s: String) -> String {
        String(s.unicodeScalars.map { $0 == "\n" || $0 == "\r" || $0 == "\0" ? " " : Character($0) })
    }
}
