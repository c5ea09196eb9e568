// SPDX-License-Identifier: MIT
// A bad board profile: the file, the line and the key, so the message alone says what to fix,
// e.g. `boards/rpi4.conf:12: key 'rotaion' is not known (did you mean 'rotation'?)`.

/// Why a board profile could not be read.
public struct BoardProfileError: Error, Equatable, CustomStringConvertible {
    /// The file name as given to the parser.
    public var file: String
    /// 1-based line number.
    public var line: Int
    public var problem: Problem

    public enum Problem: Equatable, Sendable {
        /// `[name]` that is not a section; a close section name when it looks like a typo.
        case unknownSection(String, suggestion: String?)
        /// `[name]` a second time.
        case duplicateSection(String, firstLine: Int)
        /// A line that is neither `[section]`, `key = value`, a comment nor blank.
        case malformedLine(String)
        /// A key the section does not have: a close key when it looks like a typo, or the section
        /// the key does belong to.
        case unknownKey(String, section: String, suggestion: String?, belongsIn: String?)
        /// `key = value` before any `[section]`; the section that has the key, when one does.
        case keyOutsideSection(String, belongsIn: String?)
        /// A key set twice in the same section.
        case duplicateKey(String, firstLine: Int)
        /// `key =` with nothing after it; what was expected.
        case missingValue(key: String, expected: String)
        /// A value that does not parse: the key, the value and what was expected ("one of ...").
        case badValue(key: String, value: String, expected: String)
        /// A `"` string without its closing quote.
        case unterminatedQuote(key: String)
        /// A backslash escape other than `\"`, `\\`, `\n`, `\t` in a quoted string.
        case badEscape(key: String, escape: String)
        /// Text after a quoted string's closing quote (other than a comment).
        case textAfterQuote(key: String)
        /// A `[hud]` line the command language refuses as a `set` command, with the parser's message.
        case refusedHUDSetting(key: String, message: String)
    }

    public init(file: String, line: Int, problem: Problem) {
        self.file = file; self.line = line; self.problem = problem
    }

    /// The key the error is about, when it is about one.
    public var key: String? {
        switch problem {
        case .unknownSection, .duplicateSection, .malformedLine: return nil
        case .unknownKey(let key, _, _, _), .keyOutsideSection(let key, _), .duplicateKey(let key, _),
            .missingValue(let key, _), .badValue(let key, _, _), .unterminatedQuote(let key),
            .badEscape(let key, _), .textAfterQuote(let key), .refusedHUDSetting(let key, _):
            return key
        }
    }

    public var description: String { "\(file):\(line): \(message)" }

    /// The message without the `file:line: ` prefix.
    public var message: String {
        switch problem {
        case .unknownSection(let name, let suggestion):
            let hint = suggestion.map { " (did you mean [\($0)]?)" } ?? ""
            let known = BoardProfileParser.sections.map(\.name).joined(separator: ", ")
            return "section [\(name)] is not known\(hint); sections are \(known)"
        case .duplicateSection(let name, let first):
            return "section [\(name)] appears twice (first on line \(first))"
        case .malformedLine(let text):
            return "'\(text)' is not a [section], a key = value line or a # comment"
        case .unknownKey(let key, let section, let suggestion, let belongsIn):
            if let suggestion { return "key '\(key)' is not known (did you mean '\(suggestion)'?)" }
            if let belongsIn { return "key '\(key)' is not known in [\(section)] (it belongs in [\(belongsIn)])" }
            return "key '\(key)' is not known in [\(section)]"
        case .keyOutsideSection(let key, let belongsIn):
            let hint = belongsIn.map { " (put it under [\($0)])" } ?? ""
            return "key '\(key)' is outside any section\(hint)"
        case .duplicateKey(let key, let first):
            return "key '\(key)' is set twice (first on line \(first))"
        case .missingValue(let key, let expected):
            return "\(key): no value (expected \(expected))"
        case .badValue(let key, let value, let expected):
            return "\(key): '\(value)' is not \(expected)"
        case .unterminatedQuote(let key):
            return "\(key): unterminated quote (a \" string must end on the same line)"
        case .badEscape(let key, let escape):
            return "\(key): unknown escape '\(escape)' in a quoted string (use \\\" \\\\ \\n \\t)"
        case .textAfterQuote(let key):
            return "\(key): unexpected text after the closing quote"
        case .refusedHUDSetting(let key, let message):
            return "\(key): \(message)"
        }
    }
}
