// One subcommand per verb of the command language: `splashhud progress 0.5 "Copying"` sends the
// line `progress 0.5 Copying` to the daemon and exits 0 once it is applied. Each argument is one
// word (quoted on the wire when it needs to be); the words after a verb's fixed arguments are its
// text, joined by spaces, so `splashhud show Starting services` needs no quotes.
import ArgumentParser
import HUDClient
import HUDProtocol

/// A client verb that sends one line and expects `ok`.
protocol LineVerb: ParsableCommand, ClientVerb {
    /// The request line to send.
    func line() -> String
}

extension LineVerb {
    func validate() throws {
        do { _ = try ControlRequest.parse(line()) } catch { throw ValidationError("\(error)") }
    }

    func run() throws {
        try reporting {
            let client = try connection.connect()
            try client.request(line())
        }
    }
}

/// `verb` + `fixed` words + the rest joined as one text word (absent when empty).
func commandLine(_ verb: String, _ fixed: [String], text: [String] = []) -> String {
    var words = [verb] + fixed.map(CommandParser.word)
    if !text.isEmpty { words.append(CommandParser.word(text.joined(separator: " "))) }
    return words.joined(separator: " ")
}

struct ShowVerb: LineVerb {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the spinner, with a status text (SV showWithStatus:).")
    @OptionGroup var connection: ClientOptions
    @Argument(help: "The status text.") var status: [String] = []
    func line() -> String { commandLine("show", [], text: status) }
}

struct ProgressVerb: LineVerb {
    static let configuration = CommandConfiguration(commandName: "progress", abstract: "Show the progress ring at FRACTION (0...1), with a status text (SV showProgress:status:).")
    @OptionGroup var connection: ClientOptions
    @Argument(help: "The progress, 0...1 (negative: the spinner).") var fraction: String
    @Argument(help: "The status text.") var status: [String] = []
    func line() -> String { commandLine("progress", [fraction], text: status) }
}

struct ProgressOverVerb: LineVerb {
    static let configuration = CommandConfiguration(commandName: "progress-over", abstract: "Move the progress on its own by FRACTION over SECONDS (Android recovery's show_progress).")
    @OptionGroup var connection: ClientOptions
    @Argument(help: "How much of the bar to fill, 0...1.") var fraction: String
    @Argument(help: "Over how many seconds.") var seconds: String
    func line() -> String { commandLine("progress-over", [fraction, seconds]) }
}

struct SuccessVerb: LineVerb {
    static let configuration = CommandConfiguration(commandName: "success", abstract: "Show the success image, dismissed after SV's display duration.")
    @OptionGroup var connection: ClientOptions
    @Argument(help: "The status text.") var status: [String] = []
    func line() -> String { commandLine("success", [], text: status) }
}

struct ErrorVerb: LineVerb {
    static let configuration = CommandConfiguration(commandName: "error", abstract: "Show the error image, dismissed after SV's display duration.")
    @OptionGroup var connection: ClientOptions
    @Argument(help: "The status text.") var status: [String] = []
    func line() -> String { commandLine("error", [], text: status) }
}

struct InfoVerb: LineVerb {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Show the info image, dismissed after SV's display duration.")
    @OptionGroup var connection: ClientOptions
    @Argument(help: "The status text.") var status: [String] = []
    func line() -> String { commandLine("info", [], text: status) }
}

struct ImageVerb: LineVerb {
    static let configuration = CommandConfiguration(commandName: "image", abstract: "Show a PNG image (a path the daemon can read), with a status text.")
    @OptionGroup var connection: ClientOptions
    @Argument(help: "The PNG's path, as the daemon sees it.") var path: String
    @Argument(help: "The status text.") var status: [String] = []
    func line() -> String { commandLine("image", [path], text: status) }
}

struct StatusVerb: LineVerb {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Change the status text only (SV setStatus:).")
    @OptionGroup var connection: ClientOptions
    @Argument(help: "The text.") var text: [String]
    func line() -> String { commandLine("status", [], text: text) }
}

struct DismissVerb: LineVerb {
    static let configuration = CommandConfiguration(commandName: "dismiss", abstract: "Dismiss the HUD, after DELAY seconds (SV dismissWithDelay:).")
    @OptionGroup var connection: ClientOptions
    @Argument(help: "Seconds to wait first.") var delay: String?
    func line() -> String { commandLine("dismiss", delay.map { [$0] } ?? []) }
}

struct PopVerb: LineVerb {
    static let configuration = CommandConfiguration(commandName: "pop", abstract: "End one activity (SV popActivity): the HUD goes when none is left.")
    @OptionGroup var connection: ClientOptions
    func line() -> String { "pop" }
}

struct ResetVerb: LineVerb {
    static let configuration = CommandConfiguration(commandName: "reset", abstract: "Back to the default appearance, hidden at once.")
    @OptionGroup var connection: ClientOptions
    func line() -> String { "reset" }
}

struct SetVerb: LineVerb {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Change a setting: `set style dark`, `set button Cancel`, `set mode bar`.",
        discussion: "Every key of the command language's `set` (see the README's protocol reference).")
    @OptionGroup var connection: ClientOptions
    @Argument(help: "The setting's key.") var key: String
    @Argument(help: "Its value (words after the key are joined).") var value: [String] = []
    func line() -> String { commandLine("set", [key], text: value) }
}

struct QuitVerb: LineVerb {
    static let configuration = CommandConfiguration(commandName: "quit", abstract: "End the daemon now, restoring the screen (or keeping the frame with --retain).")
    @OptionGroup var connection: ClientOptions
    @Flag(help: "Keep the last frame on the screen.") var retain = false
    func line() -> String { retain ? "quit --retain" : "quit" }
}

struct PingVerb: LineVerb {
    static let configuration = CommandConfiguration(commandName: "ping", abstract: "Exit 0 when the daemon answers within the timeout.")
    @OptionGroup var connection: ClientOptions
    func line() -> String { "ping" }
}
