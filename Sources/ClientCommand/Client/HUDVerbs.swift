// SPDX-License-Identifier: MIT
// One verb per verb of the command language: `splashhud progress 0.5 "Copying"` sends the line
// `progress 0.5 Copying` to the daemon and exits 0 once it is applied. Each argument is one word
// (quoted on the wire when it needs to be); the words after a verb's fixed arguments are its
// text, joined by spaces, so `splashhud show Starting services` needs no quotes.
import CommandLineOptions

extension ClientVerb {
    static let hudVerbNames = ["show", "progress", "progress-over", "success", "error", "info", "image", "status", "dismiss", "pop",
                               "reset", "set", "quit", "deactivate", "reactivate", "newroot", "ping"]

    static let statusOperand = OperandHelp("status", "The status text.")
    static let imageFlags = [
        OptionSpec.flag("stay", help: "Keep the image until the next command changes the HUD (a failure a person must read)."),
        OptionSpec.flag("support", help: "Add a QR code of the board profile's support address, with this device and the text (none without one)."),
    ]

    /// The verb, with `--stay` and `--support` when asked for.
    static func staying(_ verb: String, _ options: ParsedOptions) -> String {
        verb + (options.flag("stay") ? " --stay" : "") + (options.flag("support") ? " --support" : "")
    }

    /// The verb of `hudVerbNames` called `name`, nil for another name.
    static func hudVerb(named name: String) -> ClientVerb? {
        switch name {
        case "show":
            return .line(spec(name, "Show the spinner, with a status text (SV showWithStatus:).", operands: "[<status> ...]",
                              operandHelp: [statusOperand], count: nil)) { commandLine("show", [], text: $0.operands) }
        case "progress":
            return .line(spec(name, "Show the progress ring at FRACTION (0...1), with a status text (SV showProgress:status:).",
                              operands: "<fraction> [<status> ...]",
                              operandHelp: [OperandHelp("fraction", "The progress, 0...1 (negative: the spinner; write `--` before it)."), statusOperand],
                              count: 1...Int.max)) { commandLine("progress", [$0.operands[0]], text: Array($0.operands.dropFirst())) }
        case "progress-over":
            return .line(spec(name, "Move the progress on its own by FRACTION over SECONDS (Android recovery's show_progress).",
                              operands: "<fraction> <seconds>",
                              operandHelp: [OperandHelp("fraction", "How much of the bar to fill, 0...1."), OperandHelp("seconds", "Over how many seconds.")],
                              count: 2...2)) { commandLine("progress-over", $0.operands) }
        case "success", "error", "info":
            return .line(spec(name, "Show the \(name) image, dismissed after SV's display duration (or kept, with --stay).",
                              options: imageFlags, operands: "[<status> ...]", operandHelp: [statusOperand], count: nil)) {
                commandLine(staying(name, $0), [], text: $0.operands)
            }
        case "image":
            return .line(spec(name, "Show a PNG image (a path the daemon can read), with a status text.", options: imageFlags,
                              operands: "<path> [<status> ...]",
                              operandHelp: [OperandHelp("path", "The PNG's path, as the daemon sees it."), statusOperand],
                              count: 1...Int.max)) { commandLine(staying(name, $0), [$0.operands[0]], text: Array($0.operands.dropFirst())) }
        case "status":
            return .line(spec(name, "Change the status text only (SV setStatus:).", operands: "<text> ...",
                              operandHelp: [OperandHelp("text", "The text.")], count: 1...Int.max)) { commandLine("status", [], text: $0.operands) }
        case "dismiss":
            return .line(spec(name, "Dismiss the HUD, after DELAY seconds (SV dismissWithDelay:).", operands: "[<delay>]",
                              operandHelp: [OperandHelp("delay", "Seconds to wait first.")], count: 0...1)) { commandLine("dismiss", $0.operands) }
        case "pop":
            return .line(spec(name, "End one activity (SV popActivity): the HUD goes when none is left.")) { _ in "pop" }
        case "reset":
            return .line(spec(name, "Back to the default appearance, hidden at once.")) { _ in "reset" }
        case "set":
            return .line(spec(name, "Change a setting: `set style dark`, `set button Cancel`, `set mode bar`.",
                              discussion: "Every key of the command language's `set` (see docs/protocol.md and splashhud(1)).",
                              operands: "<key> [<value> ...]",
                              operandHelp: [OperandHelp("key", "The setting's key."), OperandHelp("value", "Its value (words after the key are joined).")],
                              count: 1...Int.max)) { commandLine("set", [$0.operands[0]], text: Array($0.operands.dropFirst())) }
        case "quit":
            return quit  // QuitVerb.swift
        case "deactivate":
            return .line(spec(name, "Give the display up for the next program (a kiosk's compositor or app), the last frame left on the screen: answered once DRM master is free. The profile's [handover] watchdog takes it back when no one draws.")) { _ in "deactivate" }
        case "reactivate":
            return .line(spec(name, "Take the display back and draw again.")) { _ in "reactivate" }
        case "newroot":
            return .line(spec(name, "Move the daemon into the real root mounted at DIR before the initramfs switches to it (Plymouth's update-root-fs --new-root-dir): it lives on past switch_root, and what it opens later is found there. Root only.",
                              operands: "<dir>", operandHelp: [OperandHelp("dir", "The real root's mount point, an absolute path (initramfs-tools' $rootmnt).")],
                              count: 1...1)) { commandLine("newroot", $0.operands) }
        case "ping":
            return .line(spec(name, "Exit 0 when the daemon answers within the timeout.")) { _ in "ping" }
        default:
            return nil
        }
    }
}
