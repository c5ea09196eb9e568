// SPDX-License-Identifier: MIT
// The control socket's lines: requests, replies, state and event lines, each read back exactly.
import Raster
import Testing
@testable import HUDProtocol

@Suite struct ControlProtocolTests {
    @Test func controlVerbsAndTheCommandLanguage() throws {
        #expect(try ControlRequest.parse("ping") == .ping)
        #expect(try ControlRequest.parse(" state ") == .state)
        #expect(try ControlRequest.parse("snapshot HDMI-A-1") == .snapshot(output: "HDMI-A-1"))
        #expect(try ControlRequest.parse("snapshot") == .snapshot(output: nil))
        #expect(try ControlRequest.parse("subscribe state keys") == .subscribe(keys: true, state: true))
        #expect(throws: CommandError.self) { try ControlRequest.parse("subscribe keys keys") }
        #expect(try ControlRequest.parse("show \"Booting\"") == .request(.hud(.show(status: "Booting"))))
        #expect(try ControlRequest.parse("QUIT") == .request(.dismissAndQuit))
        #expect(try ControlRequest.parse("# a comment") == nil)
        #expect(throws: CommandError(.tooManyArguments(command: "ping"), column: 6)) { try ControlRequest.parse("ping now") }
        // Suggestions know the control verbs too.
        #expect(throws: CommandError(.unknownVerb("stat", suggestion: "state"), column: 1)) { try ControlRequest.parse("stat") }
        // ask-password's tries (the asker's count, shown under the field); keyboard's output.
        #expect(try ControlRequest.parse("ask-password \"PIN\" tries 3") == .askPassword(prompt: "PIN", tries: 3))
        #expect(try ControlRequest.parse("ask-password PIN") == .askPassword(prompt: "PIN", tries: nil))
        #expect(throws: CommandError.self) { try ControlRequest.parse("ask-password PIN tries") }
        #expect(throws: CommandError.self) { try ControlRequest.parse("ask-password PIN tries -1") }
        #expect(throws: CommandError.self) { try ControlRequest.parse("ask-password PIN tries 2 more") }
        #expect(try ControlRequest.parse("keyboard Virtual-1") == .keyboard(output: "Virtual-1"))
        #expect(try ControlRequest.parse("keyboard")?.privilegedVerb == nil)
        for r: ControlRequest in [.ping, .version, .state, .wait, .subscribe(keys: false), .subscribe(keys: true), .subscribe(keys: false, state: true), .subscribe(keys: true, state: true), .snapshot(output: "a b"), .snapshot(output: nil),
                                  .request(.quit(retain: true)), .askPassword(prompt: "Disk \"x\"", tries: 0), .askPassword(prompt: "P"),
                                  .keyboard(output: nil), .keyboard(output: "HDMI-A-1")] {
            #expect(try ControlRequest.parse(r.description) == r)
        }
    }

    @Test func repliesReadBack() {
        for r: ControlReply in [.ok(nil), .ok("pong"), .error(.syntax, "column 3: unknown verb"), .error(.noOutput, "x")] {
            #expect(ControlReply(line: r.line) == r)
        }
        // One line, whatever the message holds.
        #expect(ControlReply.error(.failed, "a\nb").line == "error failed a b")
        #expect(ControlReply(line: "event 1.000 hidden") == nil)
        #expect(ControlReply(line: "okay") == nil)
    }

    @Test func stateLinesReadBack() {
        let s = HUDState(visible: true, mode: "ring", progress: 0.4, status: "Copying \"files\"",
                         outputs: [.init(name: "Virtual-1", width: 1024, height: 768), .init(name: "HDMI-A-1", width: 1920, height: 1080)])
        #expect(s.line == "visible yes mode ring progress 0.4 status \"Copying \\\"files\\\"\" outputs Virtual-1:1024x768,HDMI-A-1:1920x1080")
        #expect(HUDState(line: s.line) == s)
        // As `subscribe state` streams it: an event line of a kind only those who asked are sent.
        #expect(s.eventLine(time: .seconds(1.5)).hasPrefix("event 1.500 state visible yes mode ring"))
        #expect(HUDState(eventLine: s.eventLine(time: .seconds(1.5))) == s)
        #expect(HUDState(eventLine: "event 1.500 hidden") == nil)
        #expect(HUDEvent(line: s.eventLine(time: .seconds(1.5))) == nil)
        let hidden = HUDState(visible: false, mode: "hidden", progress: nil, status: nil, outputs: [])
        #expect(HUDState(line: hidden.line) == hidden)
        // Unknown keys are skipped (later versions may add some).
        #expect(HUDState(line: "visible no mode hidden colour red outputs none") == hidden)
        #expect(HUDState(line: "visible") == nil)
    }

    @Test func aStateResumesAsAScript() throws {
        func commands(_ state: HUDState) throws -> [HUDCommand] {
            let script = try CommandParser.parseScript(state.resumeScript)
            #expect(script.allSatisfy { $0.time == .zero })
            return script.map(\.command)
        }
        let off = HUDCommand.set(.animated(false)), on = HUDCommand.set(.animated(true))
        // SV's ring with a quoted status: shown at once (animated off), then animated again.
        let ring = HUDState(visible: true, mode: "ring", progress: 0.4, status: "Copying \"files\" -- 2", outputs: [])
        #expect(try commands(ring) == [off, .progress(fraction: Fixed16_16(0.4), status: "Copying \"files\" -- 2"), on])
        // MB's bar, pie and annular: the mode, the progress with the label, then a show (MB's
        // progress does not show the HUD).
        let bar = HUDState(visible: true, mode: "bar", progress: 1, status: "Flashing", outputs: [])
        #expect(try commands(bar) == [off, .set(.mode(.bar)), .progress(fraction: .one, status: "Flashing"), .show(status: nil), on])
        let pie = HUDState(visible: true, mode: "pie", progress: 0.25, status: nil, outputs: [])
        #expect(try commands(pie) == [off, .set(.mode(.determinate)), .progress(fraction: Fixed16_16(0.25), status: nil), .show(status: nil), on])
        let annular = HUDState(visible: true, mode: "annular", progress: 0.5, status: nil, outputs: [])
        #expect(try commands(annular)[1] == .set(.mode(.annular)))
        // MB's activity and text: the mode, then a show with the label.
        let text = HUDState(visible: true, mode: "text", progress: nil, status: "Done", outputs: [])
        #expect(try commands(text) == [off, .set(.mode(.text)), .show(status: "Done"), on])
        let activity = HUDState(visible: true, mode: "activity", progress: nil, status: nil, outputs: [])
        #expect(try commands(activity) == [off, .set(.mode(.indeterminate)), .show(status: nil), on])
        // SV's spinner, or anything else, is shown with its status.
        let spinner = HUDState(visible: true, mode: "spinner", progress: nil, status: "--stay", outputs: [])
        #expect(try commands(spinner) == [off, .show(status: "--stay"), on])
        // Hidden: a script that shows nothing.
        let hidden = HUDState(visible: false, mode: "hidden", progress: nil, status: nil, outputs: [])
        #expect(try CommandParser.parseScript(hidden.resumeScript).isEmpty)
    }

    @Test func eventLinesReadBack() {
        let e = HUDEvent(time: .seconds(1.25), kind: .didAppear, status: "Starting \"x\"")
        #expect(e.line == "event 1.250 did-appear \"Starting \\\"x\\\"\"")
        #expect(HUDEvent(line: e.line) == e)
        let bare = HUDEvent(time: .seconds(2), kind: .hidden, status: nil)
        #expect(HUDEvent(line: bare.line) == bare)
        #expect(HUDEvent(line: "ok") == nil)
    }
}
