// SPDX-License-Identifier: MIT
// A man page (roff) from the same tables: NAME, SYNOPSIS, DESCRIPTION, OPTIONS and, for a command
// with verbs, one subsection per verb with its own options; then SEE ALSO. Section 1 for the
// client, 8 for the daemon (a system service).

public enum ManPage {
    /// `version` goes in the footer beside the package's name (`SplashHUD 0.9.0`), as man-pages(7) asks.
    public static func page(for command: CommandSpec, verbs: [CommandSpec] = [], section: Int = 1, seeAlso: [String] = [],
                            date: String = "", version: String? = nil) -> String {
        let name = command.name
        let manual = section == 8 ? "System Administration" : "User Commands"
        let source = version.map { "SplashHUD \($0)" } ?? "SplashHUD"
        var s = ".TH \(name.uppercased()) \(section) \"\(date)\" \"\(escape(source))\" \"\(manual)\"\n"
        s += ".SH NAME\n\(escape(name)) \\- \(escape(command.abstract))\n"
        s += ".SH SYNOPSIS\n.B \(escape(name))\n" + escape(command.usageWords(program: name, verbs: !verbs.isEmpty).dropFirst().joined(separator: " ")) + "\n"
        if !command.discussion.isEmpty { s += ".SH DESCRIPTION\n\(escape(command.discussion))\n" }
        s += options(command.options + [CommandSpec.help], heading: ".SH OPTIONS")
        if !verbs.isEmpty {
            s += ".SH VERBS\n"
            for v in verbs {
                s += ".SS \(escape(v.name))\n" + escape(v.usage(program: "\(name) \(v.name)")) + "\n.PP\n\(escape(v.abstract))\n"
                if !v.discussion.isEmpty { s += ".PP\n\(escape(v.discussion))\n" }
                for o in v.operandHelp { s += ".TP\n.I \(escape(o.name))\n\(escape(o.help))\n" }
                s += options(v.options, heading: "")
            }
        }
        if !seeAlso.isEmpty {
            // `name(section)` entries, bold names as man-pages(7) asks; joined by hand (see escape).
            s += ".SH SEE ALSO\n"
            for (i, entry) in seeAlso.enumerated() {
                let parts = entry.split(separator: "(", maxSplits: 1)
                s += ".BR \(escape(String(parts[0]))) (\(parts.count > 1 ? String(parts[1]) : "")\(i < seeAlso.count - 1 ? "," : "")\n"
            }
        }
        return s
    }

    static func options(_ list: [OptionSpec], heading: String) -> String {
        guard !list.isEmpty else { return "" }
        var s = heading.isEmpty ? "" : heading + "\n"
        for o in list { s += ".TP\n.B \(escape(CommandSpec.synopsis(o)))\n\(escape(o.help))\n" }
        return s
    }

    /// roff: backslashes doubled, hyphens as \-, and a leading dot or quote made literal.
    /// One pass by hand: `replacing(_:with:)` would link _StringProcessing into the client.
    static func escape(_ text: String) -> String {
        var out = ""
        var lineStart = true
        for c in text {
            if lineStart && (c == "." || c == "'") { out += "\\&" }
            switch c {
            case "\\": out += "\\\\"
            case "-": out += "\\-"
            default: out.append(c)
            }
            lineStart = c == "\n"
        }
        return out
    }
}
