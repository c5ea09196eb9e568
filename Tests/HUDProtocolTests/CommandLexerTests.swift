// SPDX-License-Identifier: MIT
// Quoting, escapes, UTF-8, comments and blank lines: the grammar in CommandParser.swift.
import Testing
import Raster
@testable import HUDProtocol

@Suite struct CommandLexerTests {
    @Test func blankAndCommentLinesAreNoCommand() throws {
        for line in ["", " ", "\t \t", "\n", "\r\n", "# a comment", "   # indented comment", "\t#", "#show x"] {
            #expect(try CommandParser.parse(line) == nil, "'\(line)'")
        }
        #expect(try CommandParser.parse(bytes: []) == nil)
        #expect(try CommandParser.parse(bytes: Array("  # ünïcode comment\n".utf8)) == nil)
        // '#' only starts a comment as the first word; elsewhere it is text (colours, "#1").
        #expect(commandParsed("show Build #42") == .show(status: "Build #42"))
    }

    @Test func lineTerminatorsAreIgnored() {
        #expect(commandParsed("show Loading\n") == .show(status: "Loading"))
        #expect(commandParsed("show Loading\r\n") == .show(status: "Loading"))
        #expect(commandParsed("pop\r") == .pop)
    }

    @Test func doubleQuotedEscapes() {
        #expect(commandParsed(#"show "say \"hi\"""#) == .show(status: "say \"hi\""))
        #expect(commandParsed(#"show "back\\slash""#) == .show(status: "back\\slash"))
        #expect(commandParsed(#"show "two\nlines""#) == .show(status: "two\nlines"))
        #expect(commandParsed(#"show "tab\there""#) == .show(status: "tab\there"))
        #expect(commandParsed(#"show "\u{41}\u{e9}\u{6B63}\u{1F600}""#) == .show(status: "Aé正😀"))
        #expect(commandParsed(#"show "\u{0}""#) == .show(status: "\u{0}"))
        // A raw tab inside quotes is kept.
        #expect(commandParsed("show \"a\tb\"") == .show(status: "a\tb"))
        // Single quotes inside double quotes, and the reverse, are literal.
        #expect(commandParsed(#"show "it's""#) == .show(status: "it's"))
        #expect(commandParsed(#"show 'say "hi"'"#) == .show(status: "say \"hi\""))
    }

    @Test func singleQuotesAreLiteral() {
        #expect(commandParsed(#"show 'no \n escapes'"#) == .show(status: "no \\n escapes"))
        #expect(commandParsed("show '  spaced  '") == .show(status: "  spaced  "))
        #expect(commandParsed("image '/a b.png' 'Done'") == .image(.custom(path: "/a b.png"), status: "Done"))
    }

    @Test func unquotedWordsTakeAnyNonBlankUTF8() {
        #expect(commandParsed("show 正在安装更新") == .show(status: "正在安装更新"))
        #expect(commandParsed("show \"正在安装更新\"") == .show(status: "正在安装更新"))
        #expect(commandParsed("show Обновление системы") == .show(status: "Обновление системы"))
        #expect(commandParsed("show 😀 done") == .show(status: "😀 done"))
        // A quote inside a bare word is literal; backslashes too.
        #expect(commandParsed(#"show a"b c\n"#) == .show(status: #"a"b c\n"#))
        // U+00A0 and U+3000 are not separators (only space and tab are).
        #expect(commandParsed("show a\u{A0}b\u{3000}c") == .show(status: "a\u{A0}b\u{3000}c"))
        // Combining marks stay with their letters, whatever the word boundary.
        #expect(commandParsed("show e\u{301} x") == .show(status: "e\u{301} x"))
    }

    @Test func quotedVerbsAndKeysAreWords() {
        #expect(commandParsed("\"show\" x") == .show(status: "x"))
        #expect(commandParsed("set 'mask' \"black\"") == .set(.mask(.black)))
    }

    @Test func wordsCarryColumnsInScalars() throws {
        let words = try #require(try CommandLexer.words("  show 正在 \"a b\" 'c'"))
        #expect(words == [
            CommandWord(text: "show", column: 3, quoted: false),
            CommandWord(text: "正在", column: 8, quoted: false),
            CommandWord(text: "a b", column: 11, quoted: true),
            CommandWord(text: "c", column: 17, quoted: true),
        ])
    }
}
