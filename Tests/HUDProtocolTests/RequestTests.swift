// SPDX-License-Identifier: MIT
// Requests: the service verbs beside the HUD commands, parsed from one split of the line.
import Raster
import Testing
@testable import HUDProtocol

@Suite struct RequestTests {
    func request(_ line: String) throws -> Request? { try CommandParser.parseRequest(line) }

    @Test func serviceVerbs() throws {
        #expect(try request("QUIT") == .dismissAndQuit)
        #expect(try request("exit\r\n") == .dismissAndQuit)
        #expect(try request("quit") == .quit(retain: false))
        #expect(try request("  quit   --retain ") == .quit(retain: true))
        #expect(try request("deactivate") == .deactivate)
        #expect(try request("reactivate") == .reactivate)
        for r in [Request.deactivate, .reactivate] { #expect(try request(r.description) == r) }
        #expect(throws: CommandError(.tooManyArguments(command: "deactivate"), column: 12)) { try request("deactivate now") }
    }

    /// `newroot DIR`: one absolute path, quoted on the wire when it needs to be; it is root's.
    @Test func newRootTakesOneAbsoluteDirectory() throws {
        #expect(try request("newroot /root") == .newRoot("/root"))
        #expect(try request("newroot \"/mnt/real root\"") == .newRoot("/mnt/real root"))
        for r in [Request.newRoot("/root"), .newRoot("/mnt/a \"b\"")] { #expect(try request(r.description) == r) }
        #expect(throws: CommandError(.missingArgument(command: "newroot", expected: "the new root's directory, an absolute path"), column: nil)) {
            try request("newroot")
        }
        #expect(throws: CommandError(.missingArgument(command: "newroot", expected: "the new root's directory as an absolute path, not 'root'"), column: 9)) {
            try request("newroot root")
        }
        #expect(throws: CommandError(.tooManyArguments(command: "newroot"), column: 15)) { try request("newroot /root /x") }
        #expect(Request.newRoot("/root").privilegedVerb == .newRoot)
        #expect(PrivilegedVerb(allowName: "newroot") == .newRoot)
    }

    @Test func everythingElseIsAHUDCommand() throws {
        #expect(try request("MSG QUIT") == .hud(.status("QUIT")))
        // psplash's and fbsplash's progress keeps the message (SV's `progress 0.4` clears it).
        #expect(try request("PROGRESS 40") == .progressKeepingStatus(Fixed16_16(0.4)))
        #expect(try request("40") == .progressKeepingStatus(Fixed16_16(0.4)))
        #expect(try request("progress 0.4") == .hud(.progress(fraction: Fixed16_16(0.4), status: nil)))
        #expect(try request("progress-over 0.25 30") == .progressOver(fraction: Fixed16_16(0.25), seconds: .seconds(30)))
        #expect(try request("show \"quit\"") == .hud(.show(status: "quit")))
        #expect(try request("# quit") == nil)
        #expect(try request("   ") == nil)
    }

    @Test func badServiceLinesSayWhy() {
        #expect(throws: CommandError(.notOneOf(command: "quit", word: "now", choices: ["--retain"]), column: 6)) { try request("quit now") }
        #expect(throws: CommandError(.notOneOf(command: "quit", word: "--retain", choices: ["--retain"]), column: 6)) { try request("quit \"--retain\"") }
        #expect(throws: CommandError(.tooManyArguments(command: "quit"), column: 15)) { try request("quit --retain x") }
        #expect(throws: CommandError(.tooManyArguments(command: "QUIT"), column: 6)) { try request("QUIT now") }
        #expect(throws: CommandError(.unknownVerb("quti", suggestion: "quit"), column: 1)) { try request("quti") }
        #expect(throws: CommandError(.outOfRange(command: "progress-over", word: "1.5", range: "0...1"), column: 15)) { try request("progress-over 1.5 3") }
        #expect(throws: CommandError(.missingArgument(command: "progress-over", expected: "seconds"), column: nil)) { try request("progress-over 0.5") }
    }

    @Test func printedRequestsReadBack() throws {
        for r: Request in [.quit(retain: false), .quit(retain: true), .dismissAndQuit, .hud(.show(status: "a \"b\"")),
                           .hud(.dismiss(delay: .seconds(1.5))), .progressKeepingStatus(Fixed16_16(0.5)),
                           .progressOver(fraction: Fixed16_16(0.5), seconds: .seconds(2.5))] {
            #expect(try request(r.description) == r)
        }
    }

    @Test func bytesAreCheckedAsUTF8() {
        #expect(throws: CommandError.self) { try CommandParser.parseRequest(bytes: [0x71, 0xFF]) }
    }
}
