// SPDX-License-Identifier: MIT
import Testing
@testable import splashhud_tools

@Suite("render outputs")
struct RenderOutputTests {
    @Test func pairsEachOutWithTheRequestBeforeIt() throws {
        let got = try RenderOutput.parse(["--at", "0.5", "--out", "a.png", "--apng", "0:2:30", "--out", "b.png", "--at=1.25", "--out=c.png"])
        #expect(got == [.frame(seconds: 0.5, path: "a.png"), .animation(from: 0, to: 2, fps: 30, path: "b.png"),
                        .frame(seconds: 1.25, path: "c.png")])
    }

    @Test func errorsSayWhatIsWrong() {
        #expect(throws: RenderOutputError.outWithoutRequest("x.png")) { try RenderOutput.parse(["--out", "x.png"]) }
        #expect(throws: RenderOutputError.requestWithoutOut("--at 1")) { try RenderOutput.parse(["--at", "1"]) }
        #expect(throws: RenderOutputError.requestWithoutOut("--at 1")) { try RenderOutput.parse(["--at", "1", "--at", "2", "--out", "y"]) }
        #expect(throws: RenderOutputError.badTime("-1")) { try RenderOutput.parse(["--at", "-1", "--out", "y"]) }
        #expect(throws: RenderOutputError.badRange("2:1:30")) { try RenderOutput.parse(["--apng", "2:1:30", "--out", "y"]) }
        #expect(throws: RenderOutputError.missingValue("--out")) { try RenderOutput.parse(["--at", "1", "--out"]) }
        #expect(throws: RenderOutputError.unexpected("--bogus")) { try RenderOutput.parse(["--bogus"]) }
    }
}
