// SPDX-License-Identifier: MIT
// Every malformed line gets a message that says what is wrong, and no command.
import Testing
import Raster
@testable import HUDProtocol

@Suite struct CommandErrorTests {
    @Test func unknownVerbsSuggestTheClosest() {
        #expect(commandError("shwo") == "unknown verb 'shwo' (did you mean 'show'?)")
        #expect(commandError("Show Loading") == "unknown verb 'Show' (did you mean 'show'?)")
        #expect(commandError("progres 0.5") == "unknown verb 'progres' (did you mean 'progress'?)")
        #expect(commandError("dismis") == "unknown verb 'dismis' (did you mean 'dismiss'?)")
        #expect(commandError("msg hello") == "unknown verb 'msg' (did you mean 'MSG'?)")
        #expect(commandError("quit") == "unknown verb 'quit' (did you mean 'QUIT'?)")
        #expect(commandError("frobnicate") == "unknown verb 'frobnicate'")
        #expect(commandError("\"\"") == "unknown verb ''")
    }

    @Test func missingAndExtraArguments() {
        #expect(commandError("progress") == "progress needs a number")
        #expect(commandError("image") == "image needs a path")
        #expect(commandError("image \"\"") == "image needs a path")
        #expect(commandError("status") == "status needs a text")
        #expect(commandError("MSG") == "MSG needs a text")
        #expect(commandError("PROGRESS") == "PROGRESS needs a number")
        #expect(commandError("set") == "set needs a key and a value")
        #expect(commandError("set mask") == "set mask needs one of none, clear, black, gradient, custom")
        #expect(commandError("set square") == "set square needs one of on, off")
        #expect(commandError("set font-size") == "set font-size needs a value")
        #expect(commandError("set label") == "set label needs a text")
        #expect(commandError("pop now") == "too many arguments for pop")
        #expect(commandError("reset all") == "too many arguments for reset")
        #expect(commandError("dismiss 1 2") == "too many arguments for dismiss")
        #expect(commandError("QUIT now") == "too many arguments for QUIT")
        #expect(commandError("exit 0") == "too many arguments for exit")
        #expect(commandError("PROGRESS 5 0") == "too many arguments for PROGRESS")
        #expect(commandError("50 60") == "too many arguments for fbsplash progress")
        #expect(commandError("set mask black white") == "too many arguments for set mask")
        #expect(commandError("set font /a b") == "too many arguments for set font")
        #expect(commandError("show \"Copying\" files") == "show: quote the whole text or none of it")
        #expect(commandError("set label Please \"wait\"") == "set label: quote the whole text or none of it")
    }

    @Test func badNumbers() {
        #expect(commandError("progress abc") == "progress needs a number, got 'abc'")
        #expect(commandError("progress nan") == "progress needs a number, got 'nan'")
        #expect(commandError("progress inf") == "progress needs a number, got 'inf'")
        #expect(commandError("progress 1e3") == "progress needs a number, got '1e3'")
        #expect(commandError("progress 0x10") == "progress needs a number, got '0x10'")
        #expect(commandError("progress -") == "progress needs a number, got '-'")
        #expect(commandError("progress .") == "progress needs a number, got '.'")
        #expect(commandError("progress 1.2.3") == "progress needs a number, got '1.2.3'")
        #expect(commandError("progress 1000.5") == "progress: '1000.5' is out of range -1000...1000")
        #expect(commandError("progress -99999999999999999999") == "progress: '-99999999999999999999' is out of range -1000...1000")
        #expect(commandError("dismiss -1") == "dismiss: '-1' is out of range 0...1000000")
        #expect(commandError("dismiss 1000000.1") == "dismiss: '1000000.1' is out of range 0...1000000")
        #expect(commandError("dismiss soon") == "dismiss needs a number, got 'soon'")
        #expect(commandError("PROGRESS 101") == "PROGRESS: '101' is out of range 0...100")
        #expect(commandError("PROGRESS half") == "PROGRESS needs a number, got 'half'")
        #expect(commandError("150") == "fbsplash progress: '150' is out of range 0...100")
        #expect(commandError("set font-size 0") == "set font-size: '0' is out of range 1...512")
        #expect(commandError("set font-size 32767") == "set font-size: '32767' is out of range 1...512")
        #expect(commandError("set ring-radius -3") == "set ring-radius: '-3' is out of range 0...2048")
        #expect(commandError("set margin 2048.5") == "set margin: '2048.5' is out of range 0...2048")
        #expect(commandError("set fade-in -0.1") == "set fade-in: '-0.1' is out of range 0...1000000")
        #expect(commandError("set min-dismiss forever") == "set min-dismiss needs a number, got 'forever'")
    }

    @Test func badChoicesColoursAndPairs() {
        #expect(commandError("set mask blak") == "set mask: 'blak' is not one of none, clear, black, gradient, custom")
        #expect(commandError("set style Dark") == "set style: 'Dark' is not one of light, dark, custom")
        #expect(commandError("set animation spin") == "set animation: 'spin' is not one of flat, native")
        #expect(commandError("set mode pie")
                == "set mode: 'pie' is not one of indeterminate, determinate, annular, bar, text, custom")
        #expect(commandError("set transition slide") == "set transition: 'slide' is not one of fade, zoom, zoom-in, zoom-out")
        #expect(commandError("set square yes") == "set square: 'yes' is not one of on, off")
        #expect(commandError("set foreground-color #12345")
                == "set foreground-color: bad colour '#12345' (use #RRGGBB or #RRGGBBAA)")
        #expect(commandError("set bezel-color 123456") == "set bezel-color: bad colour '123456' (use #RRGGBB or #RRGGBBAA)")
        #expect(commandError("set image-color #12345G") == "set image-color: bad colour '#12345G' (use #RRGGBB or #RRGGBBAA)")
        #expect(commandError("set image-color #+12345") == "set image-color: bad colour '#+12345' (use #RRGGBB or #RRGGBBAA)")
        #expect(commandError("set min-size 200") == "set min-size: bad value '200' (use WxH, e.g. 200x100)")
        #expect(commandError("set min-size 200x") == "set min-size: bad value '200x' (use WxH, e.g. 200x100)")
        #expect(commandError("set image-size 1x2x3") == "set image-size: bad value '1x2x3' (use WxH, e.g. 200x100)")
        #expect(commandError("set min-size -1x2") == "set min-size: '-1x2' is out of range 0...2048")
        #expect(commandError("set offset 10") == "set offset: bad value '10' (use X,Y, e.g. 0,-40)")
        #expect(commandError("set offset 1,2,3") == "set offset: bad value '1,2,3' (use X,Y, e.g. 0,-40)")
        #expect(commandError("set offset 0,40000") == "set offset: '0,40000' is out of range -2048...2048")
        #expect(commandError("set font \"\"") == "set font needs a path")
    }

    @Test func unknownKeys() {
        #expect(commandError("set colour #FFFFFF") == "unknown key 'colour' for set")
        #expect(commandError("set foreground-colour #FFFFFF")
                == "unknown key 'foreground-colour' for set (did you mean 'foreground-color'?)")
        #expect(commandError("set fadein 1") == "unknown key 'fadein' for set (did you mean 'fade-in'?)")
        #expect(commandError("set Mask black") == "unknown key 'Mask' for set (did you mean 'mask'?)")
    }

    @Test func lexicalErrorsNameTheirColumn() throws {
        #expect(commandError("show \"abc") == "unterminated quote starting at column 6")
        #expect(commandError("show 'abc") == "unterminated quote starting at column 6")
        #expect(commandError("show \"abc\\\"") == "unterminated quote starting at column 6")
        #expect(commandError("show \"a\\qb\"") == "unknown escape '\\q' at column 8 (use \\\" \\\\ \\n \\t or \\u{XXXX})")
        #expect(commandError("show \"\\u{110000}\"") == "unknown escape '\\u{110000}' at column 7 (use \\\" \\\\ \\n \\t or \\u{XXXX})")
        #expect(commandError("show \"\\u{D800}\"") == "unknown escape '\\u{D800}' at column 7 (use \\\" \\\\ \\n \\t or \\u{XXXX})")
        #expect(commandError("show \"\\u{}\"") == "unknown escape '\\u{}' at column 7 (use \\\" \\\\ \\n \\t or \\u{XXXX})")
        #expect(commandError("show \"\\u41\"") == "unknown escape '\\u4' at column 7 (use \\\" \\\\ \\n \\t or \\u{XXXX})")
        #expect(commandError("show \"a\"b") == "text right after a closing quote at column 9 (separate words with a space)")
        #expect(commandError("show a\u{1}b")
                == "control character U+0001 at column 7 (write it as an escape in double quotes)")
        #expect(commandError("show \"a\u{7F}\"")
                == "control character U+007F at column 8 (write it as an escape in double quotes)")
        #expect(commandError("show one\ntwo")
                == "control character U+000A at column 9 (write it as an escape in double quotes)")
        // Columns count Unicode scalars, not bytes.
        #expect(commandError("show 正在 \"安装") == "unterminated quote starting at column 9")
    }

    @Test func errorsCarryKindAndColumn() throws {
        let error = #expect(throws: CommandError.self) { try CommandParser.parse("set mask blak") }
        #expect(error?.kind == .notOneOf(command: "set mask", word: "blak", choices: ["none", "clear", "black", "gradient", "custom"]))
        #expect(error?.column == 10)
        #expect(error?.line == nil)
        let verb = #expect(throws: CommandError.self) { try CommandParser.parse("   shwo") }
        #expect(verb?.kind == .unknownVerb("shwo", suggestion: "show"))
        #expect(verb?.column == 4)
        let extra = #expect(throws: CommandError.self) { try CommandParser.parse("pop  now") }
        #expect(extra?.column == 6)
    }

    @Test func invalidUTF8IsRejectedWithItsOffset() {
        func message(_ bytes: [UInt8]) -> String? {
            do { _ = try CommandParser.parse(bytes: bytes); return nil } catch { return error.description }
        }
        let show = Array("show ".utf8)
        #expect(message(show + [0xFF]) == "invalid UTF-8 at byte 5")
        #expect(message(show + [0xC3]) == "invalid UTF-8 at byte 5")            // truncated
        #expect(message(show + [0xC3, 0x41]) == "invalid UTF-8 at byte 6")      // bad continuation
        #expect(message(show + [0xC0, 0x80]) == "invalid UTF-8 at byte 5")      // overlong NUL
        #expect(message(show + [0xE0, 0x80, 0x80]) == "invalid UTF-8 at byte 6")  // overlong
        #expect(message(show + [0xED, 0xA0, 0x80]) == "invalid UTF-8 at byte 6")  // surrogate D800
        #expect(message(show + [0xF4, 0x90, 0x80, 0x80]) == "invalid UTF-8 at byte 6")  // > U+10FFFF
        #expect(message(show + [0x80]) == "invalid UTF-8 at byte 5")            // lone continuation
        // Well-formed multi-byte text is accepted.
        #expect(message(show + Array("é正😀".utf8)) == nil)
        #expect((try? CommandParser.parse(bytes: show + Array("é正😀".utf8))) == .show(status: "é正😀"))
    }
}
