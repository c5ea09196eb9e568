// SPDX-License-Identifier: MIT
// Splitting one command line into words (the grammar is in CommandParser.swift). Works on Unicode
// scalars so columns count what a person sees in a terminal for most text, and so nothing here
// depends on grapheme breaking (which changes between Unicode versions).

/// One word of a command line.
struct CommandWord: Equatable, Sendable {
    var text: String
    /// 1-based column (in Unicode scalars) where the word, or its opening quote, starts.
    var column: Int
    var quoted: Bool
}

enum CommandLexer {
    static func isBlank(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\t" }

    /// C0 controls other than tab, and DEL: never allowed raw in a line.
    static func isControl(_ s: Unicode.Scalar) -> Bool { (s.value < 0x20 && s != "\t") || s.value == 0x7F }

    /// The words of `line`, or nil when it is blank or a comment. One trailing "\n", "\r\n" or
    /// "\r" is the line's terminator and ignored.
    static func words(_ line: String) throws(CommandError) -> [CommandWord]? {
        var s = Array(line.unicodeScalars)
        if s.last == "\n" { s.removeLast() }
        if s.last == "\r" { s.removeLast() }
        var words: [CommandWord] = []
        var i = 0
        while true {
            while i < s.count && isBlank(s[i]) { i += 1 }
            if i == s.count { break }
            let column = i + 1
            if words.isEmpty && s[i] == "#" { return nil }
            var text = String.UnicodeScalarView()
            var quoted = false
            if s[i] == "\"" || s[i] == "'" {
                quoted = true
                i = try s[i] == "\"" ? doubleQuoted(s, from: i, into: &text) : singleQuoted(s, from: i, into: &text)
                if i < s.count && !isBlank(s[i]) {
                    throw CommandError(.textAfterQuote(column: i + 1), column: i + 1)
                }
            } else {
                while i < s.count && !isBlank(s[i]) {
                    if isControl(s[i]) { throw controlError(s[i], at: i) }
                    text.append(s[i])
                    i += 1
                }
            }
            words.append(CommandWord(text: String(text), column: column, quoted: quoted))
        }
        return words.isEmpty ? nil : words
    }

    /// Reads `"…"` starting at the quote `s[start]`; returns the index after the closing quote.
    private static func doubleQuoted(_ s: [Unicode.Scalar], from start: Int,
                                     into text: inout String.UnicodeScalarView) throws(CommandError) -> Int {
        var i = start + 1
        while i < s.count {
            let c = s[i]
            if c == "\"" { return i + 1 }
            if isControl(c) { throw controlError(c, at: i) }
            if c != "\\" {
                text.append(c)
                i += 1
                continue
            }
            guard i + 1 < s.count else { break }
            switch s[i + 1] {
            case "\"": text.append("\""); i += 2
            case "\\": text.append("\\"); i += 2
            case "n": text.append("\n"); i += 2
            case "t": text.append("\t"); i += 2
            case "u":
                let (scalar, next) = try unicodeEscape(s, at: i)
                text.append(scalar)
                i = next
            default:
                let shown = isControl(s[i + 1]) ? CommandError.hex(s[i + 1].value) : String(s[i + 1])
                throw CommandError(.badEscape("\\" + shown, column: i + 1), column: i + 1)
            }
        }
        throw CommandError(.unterminatedQuote(column: start + 1), column: start + 1)
    }

    /// `\u{X…}` at `s[i]` (the backslash): 1 to 6 hex digits naming a Unicode scalar value.
    private static func unicodeEscape(_ s: [Unicode.Scalar], at i: Int) throws(CommandError) -> (Unicode.Scalar, Int) {
        var j = i + 2
        var value: UInt32 = 0
        var digits = 0
        if j < s.count && s[j] == "{" {
            j += 1
            while j < s.count, digits < 7, let d = hexValue(s[j]) {
                value = value << 4 | d
                digits += 1
                j += 1
            }
            if j < s.count && s[j] == "}" && (1...6).contains(digits), let scalar = Unicode.Scalar(value) {
                return (scalar, j + 1)
            }
        }
        let end = min(s.count, max(j + 1, i + 2))
        var shown = String.UnicodeScalarView()
        for k in i..<end where !isControl(s[k]) { shown.append(s[k]) }
        throw CommandError(.badEscape(String(shown), column: i + 1), column: i + 1)
    }

    /// Reads `'…'`: everything up to the next single quote, literally (no escapes).
    private static func singleQuoted(_ s: [Unicode.Scalar], from start: Int,
                                     into text: inout String.UnicodeScalarView) throws(CommandError) -> Int {
        var i = start + 1
        while i < s.count {
            if s[i] == "'" { return i + 1 }
            if isControl(s[i]) { throw controlError(s[i], at: i) }
            text.append(s[i])
            i += 1
        }
        throw CommandError(.unterminatedQuote(column: start + 1), column: start + 1)
    }

    static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c.value {
        case 0x30...0x39: return c.value - 0x30
        case 0x41...0x46: return c.value - 0x41 + 10
        case 0x61...0x66: return c.value - 0x61 + 10
        default: return nil
        }
    }

    private static func controlError(_ c: Unicode.Scalar, at i: Int) -> CommandError {
        CommandError(.controlCharacter(c.value, column: i + 1), column: i + 1)
    }

    /// `bytes` as a String, or `invalidUTF8` at the first byte that is not well-formed UTF-8
    /// (overlong forms, surrogates and values above U+10FFFF are rejected, as Unicode requires).
    static func decode(_ bytes: [UInt8]) throws(CommandError) -> String {
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i]
            let length: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF  // the second byte's range
            switch b0 {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: throw CommandError(.invalidUTF8(byteOffset: i), column: nil)
            }
            for k in 1..<length {
                let (lo, hi): (UInt8, UInt8) = k == 1 ? (lower, upper) : (0x80, 0xBF)
                guard i + k < bytes.count, (lo...hi).contains(bytes[i + k]) else {
                    throw CommandError(.invalidUTF8(byteOffset: i + k < bytes.count ? i + k : i), column: nil)
                }
            }
            i += length
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
