// SPDX-License-Identifier: MIT
// JSON (RFC 8259) read into values, for a framework that reports in JSON Lines (bootc). Written
// here because the adapter stays resident beside the daemon and links no Foundation; it reads
// what it is given strictly (a line that is not JSON is an error, never a guess) and boundedly
// (nesting depth, no recursion past it).

public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members by name; a name given twice keeps its last value.
    case object([String: JSONValue])

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A whole number from 0 to 2^53 (what a double holds exactly), else nil.
    public var count: UInt64? {
        guard case .number(let v) = self, v >= 0, v <= 9_007_199_254_740_992, v.rounded(.towardZero) == v else { return nil }
        return UInt64(v)
    }

    public var array: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The one value `bytes` hold (white space around it allowed).
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = 32) throws(JSONError) -> JSONValue {
        var reader = JSONReader(bytes: bytes, maximumDepth: maximumDepth)
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.at == bytes.count else { throw reader.error("text after the value") }
        return value
    }
}

public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The byte offset where reading stopped.
    public let offset: Int
    public let reason: String
    public var description: String { "not JSON at byte \(offset): \(reason)" }
}

struct JSONReader {
    let bytes: [UInt8]
    let maximumDepth: Int
    var at = 0

    init(bytes: [UInt8], maximumDepth: Int) { self.bytes = bytes; self.maximumDepth = maximumDepth }

    func error(_ reason: String) -> JSONError { JSONError(offset: at, reason: reason) }

    mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

    mutating func value(depth: Int) throws(JSONError) -> JSONValue {
        skipSpace()
        guard at < bytes.count else { throw error("the text ends before a value") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("no value starts with this byte")
        }
    }

    private mutating func object(depth: Int) throws(JSONError) -> JSONValue {
        guard depth <= maximumDepth else { throw error("nested deeper than \(maximumDepth)") }
        at += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
        while true {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw error("a member's name must be a string") }
            let name = try string()
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw error("':' must follow a member's name") }
            at += 1
            members[name] = try value(depth: depth)
            skipSpace()
            guard at < bytes.count else { throw error("the object is not closed") }
            if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
            guard bytes[at] == UInt8(ascii: "}") else { throw error("',' or '}' must follow a member") }
            at += 1
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(JSONError) -> JSONValue {
        guard depth <= maximumDepth else { throw error("nested deeper than \(maximumDepth)") }
        at += 1
        var items: [JSONValue] = []
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return .array(items) }
        while true {
            items.append(try value(depth: depth))
            skipSpace()
            guard at < bytes.count else { throw error("the array is not closed") }
            if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
            guard bytes[at] == UInt8(ascii: "]") else { throw error("',' or ']' must follow an item") }
            at += 1
            return .array(items)
        }
    }

    private mutating func literal(_ word: String) throws(JSONError) {
        let expected = Array(word.utf8)
        guard at + expected.count <= bytes.count, bytes[at..<at + expected.count].elementsEqual(expected) else {
            throw error("expected \(word)")
        }
        at += expected.count
    }

    /// The grammar checked byte by byte (no "+1", "01", ".5", "1.", "NaN", hexadecimal), then read.
    private mutating func number() throws(JSONError) -> Double {
        let start = at
        func digits() -> Int {
            let from = at
            while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") { at += 1 }
            return at - from
        }
        if bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") else { throw error("a number needs a digit") }
        if bytes[at] == UInt8(ascii: "0") { at += 1 } else { _ = digits() }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            guard digits() > 0 else { throw error("a fraction needs a digit") }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard digits() > 0 else { throw error("an exponent needs a digit") }
        }
        let text = String(decoding: bytes[start..<at], as: UTF8.self)
        guard let v = Double(text), v.isFinite else { throw JSONError(offset: start, reason: "a number out of range") }
        return v
    }

    private mutating func string() throws(JSONError) -> String {
        at += 1
        var out: [UInt8] = []
        while true {
            guard at < bytes.count else { throw error("the string is not closed") }
            let b = bytes[at]
            switch b {
            case UInt8(ascii: "\""):
                at += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw error("the string is not UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                at += 1
                guard at < bytes.count else { throw error("the string is not closed") }
                let e = bytes[at]
                at += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): out.append(contentsOf: try escapedScalar())
                default: throw JSONError(offset: at - 1, reason: "no such escape")
                }
            case 0..<0x20:
                throw error("a control character in a string")
            default:
                out.append(b)
                at += 1
            }
        }
    }

    /// The scalar of a \uXXXX escape (after the "u"), a surrogate pair's two together, as UTF-8.
    private mutating func escapedScalar() throws(JSONError) -> [UInt8] {
        var value = try hex4()
        if (0xD800..<0xDC00).contains(value) {
            guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                throw error("a lone high surrogate")
            }
            at += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("a high surrogate without its low one") }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(value) {
            throw error("a lone low surrogate")
        }
        guard let scalar = Unicode.Scalar(value) else { throw error("not a Unicode scalar") }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func hex4() throws(JSONError) -> UInt32 {
        guard at + 4 <= bytes.count else { throw error("\\u needs four hexadecimal digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[at]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("\\u needs four hexadecimal digits")
            }
            v = v << 4 | d
            at += 1
        }
        return v
    }
}
