// SPDX-License-Identifier: MIT
// The HUD command language: one line of text → one `HUDCommand`. The command FIFO,
// `splashhud send`, `splashhud render` scripts, board profiles' [hud] lines and tests all go
// through here, so the grammar below is the single definition (docs/protocol.md copies it).

/// Parses the HUD command language.
///
/// ## Grammar
///
/// ```
/// line      = blank* [ comment | command ] [ "\r" ] [ "\n" ]
/// comment   = "#" anything                      ; only as the first non-blank character
/// command   = word ( blank+ word )* blank*
/// blank     = " " | TAB
/// word      = bare | dquoted | squoted
/// bare      = ( any scalar except blank and controls )+
///             ; quotes inside a bare word are literal: Don't works unquoted
/// dquoted   = '"' ( char | escape )* '"'        ; escapes: \" \\ \n \t \u{X} (1-6 hex digits)
/// squoted   = "'" ( any scalar except "'" and controls )* "'"   ; literal, no escapes
/// ```
///
/// A closing quote must be followed by a blank or the end of the line. Controls (U+0000–U+001F
/// except tab, and U+007F) may not appear raw anywhere; write them as escapes in double quotes.
/// Input is UTF-8 (`parse(bytes:)` checks it). Blank and comment lines are no command (`nil`).
///
/// ## Verbs (lowercase)
///
/// | Line                         | Command                                  |
/// |------------------------------|------------------------------------------|
/// | `show [STATUS]`              | `.show(status:)`                         |
/// | `progress FRACTION [STATUS]` | `.progress(fraction:status:)`            |
/// | `success [FLAGS] [STATUS]`   | `.image(.success, status:, stays:, support:)` |
/// | `error [FLAGS] [STATUS]`     | `.image(.error, status:, stays:, support:)` |
/// | `info [FLAGS] [STATUS]`      | `.image(.info, status:, stays:, support:)` |
/// | `image [FLAGS] PATH [STATUS]` | `.image(.custom(path:), status:, stays:, support:)` |
/// | `status TEXT`                | `.status(_)`                             |
/// | `dismiss [DELAY]`            | `.dismiss(delay:)`, default 0            |
/// | `pop`                        | `.pop`                                   |
/// | `reset`                      | `.reset`                                 |
/// | `set KEY VALUE`              | `.set(_)`, keys in `CommandParser.keys`  |
///
/// STATUS and TEXT are the rest of the line: either one quoted word (`show "Copying  files"`,
/// spaces kept) or unquoted words joined by single spaces (`show Installing update 3`). Mixing
/// quoted and unquoted words there is an error. `show ""` gives an empty status (the HUD treats
/// it as no text). PATH is one word (quote it if it has spaces).
///
/// ## Values
///
/// - number: `-?(D+(.D*)?|.D+)`, plain decimal, no exponent, no `inf`/`nan`.
/// - FRACTION: a number in -1000...1000, not clamped (SV draws what it gets; < 0 shows the
///   spinner). Converted with `Fixed16_16(Double)`.
/// - durations (DELAY, `fade-in`…): seconds in 0...1000000, read exactly to the nanosecond
///   (decimal digits, rounded half up at the tenth digit). `max-dismiss` also takes `inf` or
///   `forever` (SV's CGFLOAT_MAX).
/// - lengths (`ring-*`, `corner-radius`, `margin`): points in 0...2048; `font-size` 1...512;
///   `min-size`/`image-size` `WxH` (or `WXH`) with both in 0...2048; `offset` `X,Y` in
///   -2048...2048. Converted with `Fixed16_16(Double)`; the bounds keep a HUD at the largest
///   scale within fixed point and a glyph's mask within a few megabytes.
/// - colours: `#RRGGBB` or `#RRGGBBAA`, hex digits in either case.
/// - switches (`tint-images`, `square`, `animated`): `on` or `off`.
/// - choices: `style` light|dark|custom; `mask` none|clear|black|gradient|custom; `animation`
///   flat|native; `mode` indeterminate|determinate|annular|bar|text|custom; `transition`
///   fade|zoom|zoom-in|zoom-out.
/// - `font` is a path (one word); `label`, `details`, `button` are TEXT as above.
///
/// ## psplash and fbsplash compatibility
///
/// psplash's FIFO words, uppercase as psplash writes them: `MSG TEXT` → `.status(TEXT)`;
/// `PROGRESS N` (N a number in 0...100, percent) → `.progress(fraction: N/100, status: nil)`;
/// `QUIT` → `.dismiss(delay: 0)`. fbsplash's: a bare whole number `NN` in 0...100 →
/// `.progress(fraction: NN/100, status: nil)`; `exit` → `.dismiss(delay: 0)`. Read as a `Request`
/// (`parseRequest`, what a running splash does), `QUIT` and `exit` also end the splash after the
/// fade-out, and `quit [--retain]` ends it at once (Request.swift).
/// Note that a nil status is SV's `showProgress:` without status, which clears the label (it does
/// not keep the previous text); send `MSG` after `PROGRESS` as psplash users do.
///
/// ## Errors
///
/// A malformed line throws a `CommandError` naming what is wrong and where, and yields no
/// command, so the caller changes nothing.

public enum CommandParser {
    /// Every verb, in the order of the table above.
    public static let verbs = ["show", "progress", "success", "error", "info", "image", "status",
                               "dismiss", "pop", "reset", "set"]
    /// psplash's and fbsplash's words (besides a bare number).
    public static let compatibilityVerbs = ["MSG", "PROGRESS", "QUIT", "exit"]

    /// The command on `line`, or nil for a blank or comment line.
    public static func parse(_ line: String) throws(CommandError) -> HUDCommand? {
        guard let words = try CommandLexer.words(line) else { return nil }
        return try command(words[...])
    }

    /// The command in `bytes` (one line of UTF-8), or nil for a blank or comment line.
    public static func parse(bytes: [UInt8]) throws(CommandError) -> HUDCommand? {
        try parse(CommandLexer.decode(bytes))
    }

    /// The command made of `words` (at least one). An unknown verb is compared with the HUD's verbs
    /// and `otherVerbs` (what else the caller accepts) for a suggestion.
    static func command(_ words: ArraySlice<CommandWord>, otherVerbs: [String] = []) throws(CommandError) -> HUDCommand {
        let verb = words[words.startIndex]
        let rest = words.dropFirst()
        let name = verb.text
        switch name {
        case "show":
            return .show(status: try text(rest, for: name))
        case "progress":
            let word = try required(rest, for: name, expected: "a number")
            let fraction = try fixed(word, for: name, in: -1000...1000, range: "-1000...1000")
            return .progress(fraction: fraction, status: try text(rest.dropFirst(), for: name))
        case "success", "error", "info":
            let kind: HUDImageKind = name == "success" ? .success : name == "error" ? .error : .info
            let (flags, rest) = imageFlags(rest)
            return .image(kind, status: try text(rest, for: name), stays: flags.stays, support: flags.support)
        case "image":
            let (flags, rest) = imageFlags(rest)
            let path = try required(rest, for: name, expected: "a path")
            if path.text.isEmpty { throw CommandError(.missingArgument(command: name, expected: "a path"), column: path.column) }
            return .image(.custom(path: path.text), status: try text(rest.dropFirst(), for: name), stays: flags.stays,
                          support: flags.support)
        case "status", "MSG":
            _ = try required(rest, for: name, expected: "a text")
            return .status(try text(rest, for: name) ?? "")
        case "dismiss":
            guard let word = rest.first else { return .dismiss(delay: .zero) }
            try end(rest.dropFirst(), for: name)
            return .dismiss(delay: try duration(word, for: name))
        case "pop", "reset":
            try end(rest, for: name)
            return name == "pop" ? .pop : .reset
        case "QUIT", "exit":
            try end(rest, for: name)
            return .dismiss(delay: .zero)
        case "PROGRESS":
            let word = try required(rest, for: name, expected: "a number")
            try end(rest.dropFirst(), for: name)
            return .progress(fraction: try percent(word, for: name), status: nil)
        case "set":
            return .set(try setting(rest))
        default:
            if !name.isEmpty && name.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
                let command = "fbsplash progress"
                try end(rest, for: command)
                return .progress(fraction: try percent(verb, for: command), status: nil)
            }
            throw CommandError(.unknownVerb(name, suggestion: suggestion(for: name, among: verbs + otherVerbs + compatibilityVerbs)),
                               column: verb.column)
        }
    }

    // MARK: Arguments

    /// The first of `words`, or a `missingArgument` error.
    static func required(_ words: ArraySlice<CommandWord>, for command: String,
                         expected: String) throws(CommandError) -> CommandWord {
        guard let word = words.first else {
            throw CommandError(.missingArgument(command: command, expected: expected), column: nil)
        }
        return word
    }

    /// Fails unless `words` is empty.
    static func end(_ words: ArraySlice<CommandWord>, for command: String) throws(CommandError) {
        if let extra = words.first { throw CommandError(.tooManyArguments(command: command), column: extra.column) }
    }

    /// The flags an image's verb takes, unquoted, before its other words (a status that is one of
    /// them is quoted), in any order, each at most once.
    public static let imageFlagWords = ["--stay", "--support"]

    /// An image's `--stay` and `--support` (see `imageFlagWords`) and the words after them.
    static func imageFlags(_ words: ArraySlice<CommandWord>) -> ((stays: Bool, support: Bool), ArraySlice<CommandWord>) {
        var flags = (stays: false, support: false), rest = words
        while let first = rest.first, !first.quoted {
            if first.text == "--stay" && !flags.stays { flags.stays = true } else if first.text == "--support" && !flags.support {
                flags.support = true
            } else { break }
            rest = rest.dropFirst()
        }
        return (flags, rest)
    }

    /// STATUS/TEXT: nil when absent, one quoted word as it is, or bare words joined by spaces.
    static func text(_ words: ArraySlice<CommandWord>, for command: String) throws(CommandError) -> String? {
        guard let first = words.first else { return nil }
        if words.count == 1 { return first.text }
        if let quoted = words.first(where: { $0.quoted }) {
            throw CommandError(.mixedQuoting(command: command), column: quoted.column)
        }
        return words.map(\.text).joined(separator: " ")
    }

    // MARK: Suggestions

    static func suggestion(for word: String, among candidates: [String]) -> String? {
        Suggestion.closest(to: word, among: candidates)
    }
}
