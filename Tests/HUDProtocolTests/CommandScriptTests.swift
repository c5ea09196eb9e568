// SPDX-License-Identifier: MIT
// `splashhud render` scripts: `@SECONDS command` per line, times never decreasing, errors with
// their line number.
import Testing
import Raster
@testable import HUDProtocol

@Suite struct CommandScriptTests {
    func scriptError(_ text: String) -> CommandError? {
        do { _ = try CommandParser.parseScript(text); return nil } catch { return error }
    }

    @Test func theIssuesExample() throws {
        let script = """
            # boot splash
            @0.0 show "Loading"

            @1.2 progress 0.5 "Copying"
            @1.2 status Still copying
              @3 success Done
            @3.5 dismiss 0.25
            """
        let commands = try CommandParser.parseScript(script)
        #expect(commands == [
            TimedCommand(time: .zero, command: .show(status: "Loading"), line: 2),
            TimedCommand(time: Instant(nanoseconds: 1_200_000_000), command: .progress(fraction: Fixed16_16(0.5), status: "Copying"), line: 4),
            TimedCommand(time: Instant(nanoseconds: 1_200_000_000), command: .status("Still copying"), line: 5),
            TimedCommand(time: Instant(nanoseconds: 3_000_000_000), command: .image(.success, status: "Done"), line: 6),
            TimedCommand(time: Instant(nanoseconds: 3_500_000_000), command: .dismiss(delay: .milliseconds(250)), line: 7),
        ])
    }

    @Test func timesAreExactNanoseconds() throws {
        let commands = try CommandParser.parseScript("@0.000000001 pop\n@0.1 pop\n@.3 pop\n@1000000 pop")
        #expect(commands.map(\.time.nanoseconds) == [1, 100_000_000, 300_000_000, 1_000_000_000_000_000])
    }

    @Test func crlfAndTrailingNewlines() throws {
        let commands = try CommandParser.parseScript("@0 show A\r\n@1 pop\r\n\r\n")
        #expect(commands.map(\.command) == [.show(status: "A"), .pop])
        #expect(commands.map(\.line) == [1, 2])
        #expect(try CommandParser.parseScript("") == [])
        #expect(try CommandParser.parseScript("\n\n# nothing\n") == [])
    }

    @Test func timesMustNotDecrease() {
        let error = scriptError("@0 show\n@2 pop\n\n@1.5 pop")
        #expect(error?.description == "line 4: time '@1.5' is earlier than the previous line's '@2'")
        #expect(error?.line == 4)
        #expect(error?.column == 1)
        #expect(scriptError("@1 show\n@1 pop\n@1.0 pop") == nil)
    }

    @Test func errorsCarryTheLineNumber() {
        #expect(scriptError("@0 show\n@1 shwo")?.description == "line 2: unknown verb 'shwo' (did you mean 'show'?)")
        #expect(scriptError("@0 show\n@1 show \"open")?.description == "line 2: unterminated quote starting at column 9")
        #expect(scriptError("show Loading")?.description == "line 1: a script line starts with @SECONDS, got 'show'")
        #expect(scriptError("\"@1\" pop")?.description == "line 1: a script line starts with @SECONDS, got '@1'")
        #expect(scriptError("\n@1,5 pop")?.description == "line 2: bad time '@1,5' (use @SECONDS, e.g. @1.25)")
        #expect(scriptError("@-1 pop")?.description == "line 1: bad time '@-1' (use @SECONDS, e.g. @1.25)")
        #expect(scriptError("@ pop")?.description == "line 1: bad time '@' (use @SECONDS, e.g. @1.25)")
        #expect(scriptError("@0 show\n\n@2")?.description == "line 3: no command after '@2'")
        #expect(scriptError("@0 set mask blak")?.description
                == "line 1: set mask: 'blak' is not one of none, clear, black, gradient, custom")
        // The column counts from the start of the script line, time included.
        #expect(scriptError("@0 set mask blak")?.column == 13)
    }

    @Test func bytesAreCheckedLineByLine() {
        var bytes = Array("@0 show\n@1 show ok\n@2 show ".utf8)
        bytes += [0xE2, 0x28, 0xA1]
        do {
            _ = try CommandParser.parseScript(bytes: bytes)
            Issue.record("invalid UTF-8 accepted")
        } catch {
            #expect(error.description == "line 3: invalid UTF-8 at byte 9")
        }
        #expect((try? CommandParser.parseScript(bytes: Array("@0 show 正在\n@1 pop\n".utf8)))?.count == 2)
    }
}
