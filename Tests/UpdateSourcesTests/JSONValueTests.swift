// SPDX-License-Identifier: MIT
// The JSON reader the bootc source uses: RFC 8259's values, escapes and numbers, and a clear error
// (with where) for every way a line can fail to be JSON.
import Testing
import UpdateSources

@Suite("JSON, read strictly")
struct JSONValueTests {
    static func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test("every kind of value, nested, with white space")
    func values() throws {
        let v = try Self.parse(#" { "a" : [1, -2.5e3, 0, true, false, null], "b": {"c": "d"}, "e": [] , "f": {} } "#)
        #expect(v["a"] == .array([.number(1), .number(-2500), .number(0), .bool(true), .bool(false), .null]))
        #expect(v["b"]?["c"]?.string == "d")
        #expect(v["e"] == .array([]) && v["f"] == .object([:]))
        #expect(v["missing"] == nil && v["a"]?["x"] == nil)
        #expect(try Self.parse(#"{"k":1,"k":2}"#)["k"] == .number(2))
    }

    @Test("strings: every escape, surrogate pairs, UTF-8 as it is")
    func strings() throws {
        #expect(try Self.parse(#""\"\\\/\b\f\n\r\t""#).string == "\"\\/\u{08}\u{0C}\n\r\t")
        #expect(try Self.parse(#""\u00e9\u20AC\ud83d\ude00 é€😀""#).string == "é€😀 é€😀")
        #expect(try Self.parse(#""""#).string == "")
    }

    @Test("counts: whole numbers up to 2^53; anything else is not one")
    func counts() throws {
        #expect(try Self.parse("80000000").count == 80_000_000)
        #expect(try Self.parse("9007199254740992").count == 9_007_199_254_740_992)
        #expect(try Self.parse("9007199254740994").count == nil)
        #expect(try Self.parse("-1").count == nil && Self.parse("1.5").count == nil && Self.parse("\"1\"").count == nil)
        #expect(try Self.parse("1e3").count == 1000)
    }

    @Test("not JSON: each says why and where", arguments: [
        ("", "the text ends before a value"), ("{", "a member's name must be a string"), ("[1,", "the text ends before a value"),
        ("[1 2]", "',' or ']' must follow an item"), (#"{"a" 1}"#, "':' must follow a member's name"),
        (#"{"a":1 "b":2}"#, "',' or '}' must follow a member"), ("{a:1}", "a member's name must be a string"),
        ("01", "text after the value"), ("+1", "no value starts with this byte"), (".5", "no value starts with this byte"),
        ("1.", "a fraction needs a digit"), ("1e", "an exponent needs a digit"), ("-", "a number needs a digit"),
        ("1e999", "a number out of range"), ("tru", "expected true"), ("nul", "expected null"), ("NaN", "no value starts with this byte"),
        ("\"abc", "the string is not closed"), ("\"a\u{01}b\"", "a control character in a string"), (#""\x""#, "no such escape"),
        (#""\u12""#, "\\u needs four hexadecimal digits"), (#""\ud83d""#, "a lone high surrogate"),
        (#""\ude00""#, "a lone low surrogate"), (#""\ud83d\u0041""#, "a high surrogate without its low one"),
        ("{} {}", "text after the value"),
    ])
    func errors(text: String, reason: String) {
        #expect { try Self.parse(text) } throws: { ($0 as? JSONError)?.reason == reason }
    }

    @Test("invalid UTF-8 in a string, and nesting past the bound, are errors")
    func bounds() throws {
        #expect { try JSONValue.parse([0x22, 0xC3, 0x28, 0x22]) } throws: { ($0 as? JSONError)?.reason == "the string is not UTF-8" }
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect { try Self.parse(deep) } throws: { ($0 as? JSONError)?.reason == "nested deeper than 32" }
        let fine = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(try Self.parse(fine) != .null)
    }
}
