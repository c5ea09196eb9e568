// One line a splash accepts from any transport (the FIFO, a script, a client): a HUD command, or a
// service verb that ends the splash. psplash's `QUIT` and fbsplash's `exit` dismiss the HUD, let its
// fade-out play and then end; our own `quit` ends at once and `quit --retain` also keeps the
// current frame on the screen. The line is split into words once, here, whatever it turns out to be.

public enum Request: Equatable, Sendable {
    /// A command for the HUD (every verb of `CommandParser`'s table).
    case hud(HUDCommand)
    /// `quit [--retain]`: end now, keeping the last frame on the screen when `retain`.
    case quit(retain: Bool)
    /// `QUIT` (psplash) / `exit` (fbsplash): dismiss, let the fade-out finish, then end.
    case dismissAndQuit
}

extension CommandParser {
    /// The service verbs, which end the splash rather than change the HUD.
    public static let serviceVerbs = ["quit"]

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

    static func request(_ words: ArraySlice<CommandWord>) throws(CommandError) -> Request {
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
        default:
            return .hud(try command(words, otherVerbs: serviceVerbs))
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
        }
    }
}
