// SPDX-License-Identifier: MIT
// What is wrong with a command line. A malformed line produces one of these and no command, so
// whoever feeds the HUD keeps its state exactly as it was.

/// A command line (or script line) the parser rejected.
///
/// `description` is the message a person reads: `message`, prefixed with `line N: ` when the
/// error comes from a script. Lexical errors name their column in the message; every error also
/// carries the 1-based `column` (in Unicode scalars) of the word or character at fault.
public struct CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The bytes are not UTF-8; `byteOffset` (0-based, within the line) is the first bad byte.
        case invalidUTF8(byteOffset: Int)
        /// A `"` or `'` opened a word that the line never closes.
        case unterminatedQuote(column: Int)
        /// A backslash sequence other than `\" \\ \n \t \u{X…}` inside double quotes.
        case badEscape(String, column: Int)
        /// A raw control character (U+0000–U+001F except tab, or U+007F) in the line.
        case controlCharacter(UInt32, column: Int)
        /// A closing quote followed directly by more text (`"a"b`).
        case textAfterQuote(column: Int)
        case unknownVerb(String, suggestion: String?)
        case unknownKey(String, suggestion: String?)
        /// `command` lacks its required argument: `expected` is e.g. "a number", "a text".
        case missingArgument(command: String, expected: String)
        case tooManyArguments(command: String)
        /// A text argument made of several words, some quoted: quote all of it or none.
        case mixedQuoting(command: String)
        /// `word` is not a plain decimal number (`-`, digits, one `.`).
        case notANumber(command: String, word: String)
        /// `word` is a number outside `range` (written as the user would, e.g. "0...32767").
        case outOfRange(command: String, word: String, range: String)
        case notOneOf(command: String, word: String, choices: [String])
        case badColour(command: String, word: String)
        /// A `WxH` or `X,Y` pair that does not read as one; `format` names which.
        case badPair(command: String, word: String, format: String)
        /// A script line that does not start with `@SECONDS`.
        case missingTime(word: String)
        case badTime(String)
        /// A script time earlier than the previous line's.
        case timeGoesBackwards(String, previous: String)
        /// A script line with a time and nothing after it.
        case missingCommand(time: String)
    }

    public var kind: Kind
    /// 1-based column (Unicode scalars) of the word or character at fault; nil when the error is
    /// about something missing at the end of the line, or about bytes that are not UTF-8.
    public var column: Int?
    /// 1-based line number, for errors from `CommandParser.parseScript`.
    public var line: Int?

    public init(_ kind: Kind, column: Int?, line: Int? = nil) {
        self.kind = kind
        self.column = column
        self.line = line
    }

    public var description: String { (line.map { "line \($0): " } ?? "") + message }

    /// What is wrong, without the line number.
    public var message: String {
        switch kind {
        case .invalidUTF8(let offset): return "invalid UTF-8 at byte \(offset)"
        case .unterminatedQuote(let column): return "unterminated quote starting at column \(column)"
        case .badEscape(let escape, let column):
            return "unknown escape '\(escape)' at column \(column) (use \\\" \\\\ \\n \\t or \\u{XXXX})"
        case .controlCharacter(let value, let column):
            return "control character \(CommandError.hex(value)) at column \(column) (write it as an escape in double quotes)"
        case .textAfterQuote(let column):
            return "text right after a closing quote at column \(column) (separate words with a space)"
        case .unknownVerb(let verb, let suggestion):
            return "unknown verb '\(verb)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
        case .unknownKey(let key, let suggestion):
            return "unknown key '\(key)' for set" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
        case .missingArgument(let command, let expected): return "\(command) needs \(expected)"
        case .tooManyArguments(let command): return "too many arguments for \(command)"
        case .mixedQuoting(let command):
            return "\(command): quote the whole text or none of it"
        case .notANumber(let command, let word): return "\(command) needs a number, got '\(word)'"
        case .outOfRange(let command, let word, let range):
            return "\(command): '\(word)' is out of range \(range)"
        case .notOneOf(let command, let word, let choices):
            return "\(command): '\(word)' is not one of \(choices.joined(separator: ", "))"
        case .badColour(let command, let word):
            return "\(command): bad colour '\(word)' (use #RRGGBB or #RRGGBBAA)"
        case .badPair(let command, let word, let format):
            return "\(command): bad value '\(word)' (use \(format))"
        case .missingTime(let word):
            return "a script line starts with @SECONDS, got '\(word)'"
        case .badTime(let word): return "bad time '\(word)' (use @SECONDS, e.g. @1.25)"
        case .timeGoesBackwards(let word, let previous):
            return "time '\(word)' is earlier than the previous line's '\(previous)'"
        case .missingCommand(let time): return "no command after '\(time)'"
        }
    }

    /// A code point as Unicode writes it: "U+00E9", "U+1F9A9".
    public static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
