// SPDX-License-Identifier: MIT
// One line a splash accepts from any transport (the FIFO, a script, a client): a HUD command, or a
// service verb that ends the splash. psplash's `QUIT` and fbsplash's `exit` dismiss the HUD, let its
// fade-out play and then end; our own `quit` ends at once and `quit --retain` also keeps the
// current frame on the screen. psplash's PROGRESS keeps psplash's message, and `progress-over` moves
// the progress on its own. The line is split into words once, here, whatever it turns out to be.

import Raster

public enum Request: Equatable, Sendable {
    /// A command for the HUD (every verb of `CommandParser`'s table).
    case hud(HUDCommand)
    /// `quit [--retain]`: end now, keeping the last frame on the screen when `retain`.
    case quit(retain: Bool)
    /// `QUIT` (psplash) / `exit` (fbsplash): dismiss, let the fade-out finish, then end.
    case dismissAndQuit
    /// psplash's `PROGRESS N` and fbsplash's `NN`: the progress only. Unlike SV's `showProgress:`
    /// (`progress F`, which clears the text), psplash keeps the message a `MSG` set.
    case progressKeepingStatus(Fixed16_16)
    /// `progress-over FRACTION SECONDS`: the progress moves on its own from where it is by
    /// `fraction` over `seconds` (Android recovery's `show_progress`), until another progress,
    /// show, image or dismiss arrives.
    case progressOver(fraction: Fixed16_16, seconds: Interval)
    /// `press`: MB's button is pressed (a `button` event goes to subscribers, whose action runs);
    /// refused when no button is shown. Input devices press it the same way.
    case pressButton
    /// `deactivate` (Plymouth's): stop drawing and give the display up (DRM master), the last
    /// frame left on the screen, for the program that takes over (a kiosk's compositor).
    case deactivate
    /// `reactivate`: take the display back and draw again.
    case reactivate
    /// `newroot DIR`: move into the real root mounted at DIR before the initramfs switches to it
    /// (Plymouth's `update-root-fs --new-root-dir`), so the daemon lives on past `switch_root`.
    case newRoot(String)
}

extension CommandParser {
    /// The verbs beyond the HUD's: ending the splash, and the self-moving progress.
    public static let serviceVerbs = ["quit", "progress-over", "press", "deactivate", "reactivate", "newroot"]

    /// The request on `line`, or nil for a blank or comment line. A malformed line throws and
    /// yields nothing, so the caller changes nothing.
    public static func parseRequest(_ line: String) throws(CommandError) -> Request? {
        guard let words = try CommandLexer.words(line) else { return nil }
        return try request(words[...])
    }

    /// The request in `bytes` (one line of UTF-8), or nil for a blank or comment line.
    public static func parseRequest(bytes: [UInt8]) throws(CommandError) -> Request? {
        try parseRequest(CommandLexer.decode(bytes))
    }

    static func request(_ words: ArraySlice<CommandWord>, otherVerbs: [String] = []) throws(CommandError) -> Request {
        let verb = words[words.startIndex]
        let rest = words.dropFirst()
        switch verb.text {
        case "quit":
            guard let option = rest.first else { return .quit(retain: false) }
            guard option.text == "--retain", !option.quoted else {
                throw CommandError(.notOneOf(command: "quit", word: option.text, choices: ["--retain"]), column: option.column)
            }
            try end(rest.dropFirst(), for: "quit")
            return .quit(retain: true)
        case "QUIT", "exit":
            try end(rest, for: verb.text)
            return .dismissAndQuit
        case "press":
            try end(rest, for: verb.text)
            return .pressButton
        case "deactivate", "reactivate":
            try end(rest, for: verb.text)
            return verb.text == "deactivate" ? .deactivate : .reactivate
        case "newroot":
            let directory = try required(rest, for: verb.text, expected: "the new root's directory, an absolute path")
            try end(rest.dropFirst(), for: verb.text)
            guard directory.text.hasPrefix("/") else {
                throw CommandError(.missingArgument(command: verb.text, expected: "the new root's directory as an absolute path, not '\(directory.text)'"),
                                   column: directory.column)
            }
            return .newRoot(directory.text)
        case "progress-over":
            let f = try required(rest, for: verb.text, expected: "a fraction")
            let s = try required(rest.dropFirst(), for: verb.text, expected: "seconds")
            try end(rest.dropFirst(2), for: verb.text)
            return .progressOver(fraction: try fixed(f, for: verb.text, in: 0...1, range: "0...1"),
                                 seconds: try duration(s, for: verb.text))
        default:
            let command = try command(words, otherVerbs: serviceVerbs + otherVerbs)
            if verb.text == "PROGRESS" || verb.text.first?.isNumber == true, case .progress(let f, nil) = command {
                return .progressKeepingStatus(f)
            }
            return .hud(command)
        }
    }
}

extension Request: CustomStringConvertible {
    /// The request as a line that `parseRequest` reads back to it.
    public var description: String {
        switch self {
        case .hud(let command): return command.description
        case .quit(let retain): return retain ? "quit --retain" : "quit"
        case .dismissAndQuit: return "QUIT"
        case .progressKeepingStatus(let f): return "PROGRESS \(CommandParser.format(f * Fixed16_16(100)))"
        case .progressOver(let f, let s): return "progress-over \(CommandParser.format(f)) \(CommandParser.format(s))"
        case .pressButton: return "press"
        case .deactivate: return "deactivate"
        case .reactivate: return "reactivate"
        case .newRoot(let directory): return "newroot \(CommandParser.quote(directory))"
        }
    }
}
