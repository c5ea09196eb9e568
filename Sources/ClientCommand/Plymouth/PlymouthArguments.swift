// SPDX-License-Identifier: MIT
// The `plymouth` command line read the way 22.02's ply-command-parser reads it, quirks included,
// because boot scripts were written against it: global options first (`--opt=value` or
// `--opt value`; a string option followed by another `--option` stays unset), then commands,
// each followed by its own options; parsing stops quietly at the first word it does not know.
// A flag followed by a word beginning with y/Y or n/N takes it as its value (rpmatch in the C
// locale); an integer is read as strtol(…, 0) reads it. CommandLineOptions (getopt_long) would
// reject or reorder what plymouth accepts, hence a parser of its own.

struct PlymouthArguments {
    enum Kind { case flag, string, integer }

    struct Command {
        let name: String
        var aliases: [String] = []
        let options: [(name: String, kind: Kind)]

        func kind(of option: Substring) -> Kind? { options.first { $0.name == option }?.kind }
    }

    /// What one command's options were set to.
    struct Values {
        var flags: [String: Bool] = [:]
        var strings: [String: String] = [:]
        var integers: [String: Int32] = [:]

        func flag(_ name: String) -> Bool { flags[name] ?? false }
        func string(_ name: String) -> String? { strings[name] }
        /// The integer's value, 0 when unset (as the real client's defaults).
        func integer(_ name: String) -> Int32 { integers[name] ?? 0 }
    }

    /// False when neither a global option nor a command was recognised (help on standard error, exit 1).
    var understood = false
    var global = Values()
    /// The commands, by canonical name, in order.
    var commands: [(name: String, values: Values)] = []

    static func parse(_ arguments: [String]) -> PlymouthArguments {
        var out = PlymouthArguments()
        var words = arguments[...]
        if words.isEmpty { out.understood = true; return out }
        while readOption(of: globalCommand, from: &words, into: &out.global) { out.understood = true }
        while let first = words.first, !isOption(first), let command = subcommands.first(where: { $0.name == first || $0.aliases.contains(first) }) {
            words.removeFirst()
            var values = Values()
            while readOption(of: command, from: &words, into: &values) {}
            out.commands.append((command.name, values))
        }
        if !out.commands.isEmpty { out.understood = true }
        return out
    }

    static func isOption(_ word: String) -> Bool { word.hasPrefix("--") }

    /// Reads the option at the head of `words` if `command` has it (its value too, when it
    /// takes one and one is there); false when the head is not one of its options.
    private static func readOption(of command: Command, from words: inout ArraySlice<String>, into values: inout Values) -> Bool {
        guard let head = words.first, isOption(head) else { return false }
        var name = head.dropFirst(2)
        var rest = Array(words.dropFirst())
        if let equals = name.firstIndex(of: "=") {
            rest.insert(String(name[name.index(after: equals)...]), at: 0)
            name = name[..<equals]
        }
        guard let kind = command.kind(of: name) else { return false }
        let key = String(name)
        let next = rest.first
        switch kind {
        case .flag:
            if let next, !isOption(next), let answer = yesOrNo(next) {
                values.flags[key] = answer
                rest.removeFirst()
            } else {
                values.flags[key] = true
            }
        case .string:
            if let next, !isOption(next) {
                values.strings[key] = next
                rest.removeFirst()
            }
        case .integer:
            if let next, !isOption(next), let n = integer(next) {
                values.integers[key] = n
                rest.removeFirst()
            }
        }
        words = rest[...]
        return true
    }

    /// rpmatch(3) in the C locale: true for y…, false for n…, nil for anything else.
    static func yesOrNo(_ word: String) -> Bool? {
        switch word.utf8.first {
        case UInt8(ascii: "y"), UInt8(ascii: "Y"): return true
        case UInt8(ascii: "n"), UInt8(ascii: "N"): return false
        default: return nil
        }
    }

    /// strtol(word, &end, 0) with nothing left over and at most INT_MAX; nil where the real
    /// client leaves the option unset.
    static func integer(_ word: String) -> Int32? {
        var bytes = word.utf8[...]
        while let b = bytes.first, b == 0x20 || (0x09...0x0D).contains(b) { bytes.removeFirst() }
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { negative = sign == UInt8(ascii: "-"); bytes.removeFirst() }
        var base: Int64 = 10
        if bytes.starts(with: "0x".utf8) || bytes.starts(with: "0X".utf8), bytes.count > 2 { base = 16; bytes.removeFirst(2) } else if bytes.first == UInt8(ascii: "0") { base = 8 }
        guard !bytes.isEmpty else { return nil }
        var value: Int64 = 0
        for b in bytes {
            let digit: Int64
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int64(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int64(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int64(b - UInt8(ascii: "A") + 10)
            default: return nil
            }
            guard digit < base else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: base)
            let (s, o2) = m.addingReportingOverflow(digit)
            guard !o1, !o2 else { return nil }  // strtol's ERANGE: refused either way
            value = s
        }
        if negative { value = -value }
        guard value <= Int64(Int32.max) else { return nil }
        return Int32(truncatingIfNeeded: value)
    }

    // MARK: The tables (plymouth.c's, in its order: the help lists them so)

    static let globalCommand = Command(name: "plymouth", options: [
        ("help", .flag), ("debug", .flag), ("get-splash-plugin-path", .flag), ("newroot", .string), ("quit", .flag),
        ("ping", .flag), ("has-active-vt", .flag), ("sysinit", .flag), ("show-splash", .flag), ("hide-splash", .flag),
        ("ask-for-password", .flag), ("ignore-keystroke", .string), ("update", .string), ("details", .flag), ("wait", .flag),
    ])

    static let subcommands: [Command] = [
        Command(name: "change-mode", options: [("boot-up", .flag), ("shutdown", .flag), ("reboot", .flag), ("updates", .flag),
                                               ("system-upgrade", .flag), ("firmware-upgrade", .flag)]),
        Command(name: "system-update", options: [("progress", .integer)]),
        Command(name: "update", options: [("status", .string)]),
        Command(name: "update-root-fs", options: [("new-root-dir", .string), ("read-write", .flag)]),
        Command(name: "show-splash", options: []),
        Command(name: "hide-splash", options: []),
        Command(name: "ask-for-password", options: [("command", .string), ("prompt", .string), ("number-of-tries", .integer),
                                                    ("dont-pause-progress", .flag)]),
        Command(name: "ask-question", options: [("command", .string), ("prompt", .string), ("dont-pause-progress", .flag)]),
        Command(name: "display-message", aliases: ["message"], options: [("text", .string)]),
        Command(name: "hide-message", options: [("text", .string)]),
        Command(name: "watch-keystroke", options: [("command", .string), ("keys", .string)]),
        Command(name: "ignore-keystroke", options: [("keys", .string)]),
        Command(name: "pause-progress", options: []),
        Command(name: "unpause-progress", options: []),
        Command(name: "report-error", options: []),
        Command(name: "deactivate", options: []),
        Command(name: "reactivate", options: []),
        Command(name: "quit", options: [("retain-splash", .flag)]),
    ]
}
