// SPDX-License-Identifier: MIT
// The --help text, from the same table the parser reads: OVERVIEW, USAGE, ARGUMENTS, OPTIONS,
// with the help wrapped to 80 columns.

extension CommandSpec {
    /// `program` is how the user called it (`splashhud status`).
    public func helpText(program: String, version: String? = nil, verbs: [CommandSpec] = []) -> String {
        var out = "OVERVIEW: \(abstract)\n"
        if !discussion.isEmpty { out += "\n" + Self.wrap(discussion, indent: 0) + "\n" }
        out += "\nUSAGE:\n" + Self.wrap(units: usageWords(program: program, verbs: !verbs.isEmpty), indent: 2) + "\n"
        if !operandHelp.isEmpty {
            out += "\nARGUMENTS:\n"
            for o in operandHelp { out += Self.entry("<\(o.name)>", o.help) }
        }
        if !verbs.isEmpty {
            out += "\nVERBS:\n"
            for verb in verbs { out += Self.entry(verb.name, verb.abstract) }
            out += "\n  See '\(program) VERB --help' for a verb's arguments and options.\n"
        }
        out += "\nOPTIONS:\n"
        for o in options + [CommandSpec.help] { out += Self.entry(Self.synopsis(o), o.help) }
        if let version { out += Self.entry("--version", "Show the version (\(version)).") }
        return out
    }

    /// `splashhud status [--socket <path>] [--timeout <ms>] <text> ...`
    public func usage(program: String, verbs: Bool = false) -> String {
        usageWords(program: program, verbs: verbs).joined(separator: " ")
    }

    /// The usage in one short line, for error messages: `splashhudd [<options>]`.
    public func shortUsage(program: String, verbs: Bool = false) -> String {
        var words = [program]
        if verbs { words.append("VERB") }
        if !options.isEmpty { words.append("[<options>]") }
        if !operands.isEmpty { words.append(operands) }
        return words.joined(separator: " ")
    }

    func usageWords(program: String, verbs: Bool) -> [String] {
        var words = [program]
        if verbs { words.append("VERB") }
        words += options.map { "[\(Self.synopsis($0, short: true))]" }
        if !operands.isEmpty { words.append(operands) }
        return words
    }

    static func synopsis(_ o: OptionSpec, short: Bool = false) -> String {
        let letter = short ? "" : o.letter.map { "-\($0), " } ?? ""
        switch o.value {
        case .none: return letter + "--\(o.name)"
        case .required(let v): return letter + "--\(o.name) <\(v)>"
        case .optional(let v, _): return letter + "--\(o.name)[=<\(v)>]"
        }
    }

    /// `  --name <v>  help…`, the help on the next line when the name is long.
    static func entry(_ name: String, _ help: String) -> String {
        let column = 26
        let text = wrap(help, indent: column)
        if name.count + 4 <= column {
            let pad = String(repeating: " ", count: column - 2 - name.count)
            return "  " + name + pad + text.dropFirst(column) + "\n"
        }
        return "  " + name + "\n" + text + "\n"
    }

    /// Words wrapped at 80 columns, every line indented by `indent`.
    static func wrap(_ text: String, indent: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { wrap(units: $0.split(separator: " ").map(String.init), indent: indent) }
            .joined(separator: "\n")
    }

    /// Units (words, or `[--name <value>]` kept whole) filled into lines of at most 80 columns.
    static func wrap(units: [String], indent: Int) -> String {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = ""
        for unit in units {
            if !line.isEmpty && indent + line.count + 1 + unit.count > 80 {
                lines.append(margin + line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + unit
        }
        lines.append(margin + line)
        return lines.joined(separator: "\n")
    }
}
