// SPDX-License-Identifier: MIT
// The `version` reply read back: this build's reply, later replies with words this client does
// not know, and replies that are not one.
import Testing
@testable import HUDProtocol

@Suite struct VersionReplyTests {
    @Test func thisBuildsReplyReadsBack() {
        let reply = VersionReply.current
        #expect(reply.line == "protocol \(ControlProtocol.version) splashhud \(SplashHUDVersion.current)")
        #expect(VersionReply(line: reply.line) == reply)
        #expect(reply.speaksThisProtocol)
    }

    @Test func unknownWordsAreSkippedAndAnotherProtocolIsNoticed() {
        let later = VersionReply(line: "protocol 2 splashhud 1.4.0 build \"x86_64 static\"")
        #expect(later == VersionReply(protocolVersion: 2, software: "1.4.0"))
        #expect(later?.speaksThisProtocol == false)
        #expect(VersionReply(line: "splashhud 0.9.0 protocol 1") == VersionReply(protocolVersion: 1, software: "0.9.0"))
    }

    @Test func whatIsNotAVersionReply() {
        for line in ["", "pong", "protocol 1", "splashhud 0.9.0", "protocol one splashhud 0.9.0", "protocol 1 splashhud", "protocol \"1"] {
            #expect(VersionReply(line: line) == nil, "\(line)")
        }
    }

    @Test func theVersionIsSemantic() {
        let parts = SplashHUDVersion.current.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { UInt($0) != nil && ($0 == "0" || !$0.hasPrefix("0")) }, "\(SplashHUDVersion.current)")
    }
}
