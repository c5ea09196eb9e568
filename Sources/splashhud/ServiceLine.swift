// The lines `splashhud show` handles itself instead of handing them to the HUD: how the splash
// ends. psplash's `QUIT` and fbsplash's `exit` dismiss the HUD (its fade-out plays) and then end
// the splash; our own `quit` ends it at once, `quit --retain` also keeps the current frame on the
// screen. Everything else is the command language (CommandParser).
import HUD

enum ServiceLine: Equatable {
    /// `QUIT` / `exit`: dismiss, let the fade-out finish, then end.
    case dismissAndQuit
    /// `quit [--retain]`: end now.
    case quit(retain: Bool)

    /// The service command on `line`, nil when it is a HUD command (or blank).
    init?(_ line: String) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        switch words.map(String.init) {
        case ["QUIT"], ["exit"]: self = .dismissAndQuit
        case ["quit"]: self = .quit(retain: false)
        case ["quit", "--retain"]: self = .quit(retain: true)
        default: return nil
        }
    }

    /// Why `line` is not something the splash accepts, nil when it is (a service line, a HUD
    /// command, a blank or comment line). What `splashhud send` checks before writing anything.
    static func problem(in line: String) -> String? {
        if ServiceLine(line) != nil { return nil }
        if line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first == "quit" {
            return "quit takes only --retain"
        }
        do { _ = try CommandParser.parse(line) } catch { return "\(error)" }
        return nil
    }
}
