// SPDX-License-Identifier: MIT
// Plymouth's requests, from the bytes Debian's plymouth 22.02 client writes (observed with strace).
import Testing
@testable import HUDProtocol

@Suite struct PlymouthProtocolTests {
    func decode(_ bytes: [UInt8]) -> [Result<PlymouthRequest, PlymouthDecoder.Failure>] {
        var d = PlymouthDecoder()
        return d.feed(bytes)
    }

    func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func theClientsBytes() {
        #expect(decode(bytes("P\0")) == [.success(.ping)])
        #expect(decode(bytes("$\0")) == [.success(.showSplash)])
        #expect(decode(bytes("M\u{02}\u{0C}Hello there\0")) == [.success(.displayMessage("Hello there"))])
        #expect(decode(bytes("u\u{02}\u{03}40\0")) == [.success(.systemUpdate(40))])
        #expect(decode(bytes("U\u{02}\u{0C}foo.service\0")) == [.success(.update("foo.service"))])
        #expect(decode(bytes("C\u{02}\u{08}updates\0")) == [.success(.changeMode("updates"))])
        #expect(decode([0x51, 0x02, 0x02, 0x01, 0x00]) == [.success(.quit(retainSplash: true))])
        #expect(decode([0x51, 0x02, 0x02, 0x00, 0x00]) == [.success(.quit(retainSplash: false))])
        #expect(decode(bytes("*\u{02}\u{0A}Password:\0")) == [.success(.askPassword(prompt: "Password:"))])
        #expect(decode(bytes("*\0")) == [.success(.askPassword(prompt: ""))])
        #expect(decode(bytes("c\0")) == [.success(.cachedPassword)])
        #expect(decode(bytes("W\u{02}\u{06}Name?\0")) == [.success(.askQuestion(prompt: "Name?"))])
        #expect(decode(bytes("A\0a\0")) == [.success(.pauseProgress), .success(.unpauseProgress)])
        #expect(decode(bytes("z\0")) == [.success(.unknown(UInt8(ascii: "z")))])
    }

    @Test func requestsInPiecesAndBackToBack() {
        var d = PlymouthDecoder()
        let all = bytes("P\0M\u{02}\u{06}Hello\0$\0")
        var got: [Result<PlymouthRequest, PlymouthDecoder.Failure>] = []
        for b in all { got += d.feed([b]) }
        #expect(got == [.success(.ping), .success(.displayMessage("Hello")), .success(.showSplash)])
        #expect(d.pendingCount == 0)
        #expect(decode(all) == got)
    }

    /// The 22.02 client's bug: a 255-byte argument makes its length byte 0 and its write stop at
    /// that NUL, so the request is `C 02 00`. It is taken (with no argument) and the stream goes on.
    @Test func aZeroLengthArgumentIsTakenAndTheStreamGoesOn() {
        #expect(decode([0x2A, 0x02, 0x00, 0x50, 0x00]) == [.success(.askPassword(prompt: "")), .success(.ping)])
    }

    /// Lengths are little-endian whatever the machine (ply_write_uint32; systemd's le32toh).
    @Test func answersCarryALittleEndianLength() {
        #expect(PlymouthWire.answer(bytes("pw")) == [0x02, 0x02, 0x00, 0x00, 0x00, 0x70, 0x77])
        #expect(PlymouthWire.answer([UInt8](repeating: 0x61, count: 300)).prefix(5) == [0x02, 0x2C, 0x01, 0x00, 0x00])
        #expect(PlymouthWire.answer(PlymouthWire.cancelled) == [0x02, 0x01, 0x00, 0x00, 0x00, 0x03])
        #expect(PlymouthWire.answer([]) == [0x02, 0, 0, 0, 0])
    }

    /// MULTIPLE_ANSWERS: each entry with its NUL; nothing past 255 bytes (the 22.02 client's
    /// 8-bit loop) and nothing for no entries (NO_ANSWER instead).
    @Test func multipleAnswersStayWithinWhatTheClientReads() {
        #expect(PlymouthWire.multipleAnswers([bytes("ab"), bytes("c")]) == [0x09, 0x05, 0, 0, 0, 0x61, 0x62, 0, 0x63, 0])
        #expect(PlymouthWire.multipleAnswers([]) == nil)
        #expect(PlymouthWire.multipleAnswers([[UInt8](repeating: 0x61, count: 254)])?.count == 5 + 255)
        #expect(PlymouthWire.multipleAnswers([[UInt8](repeating: 0x61, count: 255)]) == nil)
    }

    @Test func aMalformedRequestEndsTheStream() {
        #expect(decode([0x50, 0x07, 0x50, 0x00]) == [.failure(.malformed(command: 0x50, second: 0x07))])
    }
}

/// systemd-fsckd's writes, as Debian's systemd 252 formats them ("fsckd:%d:%3.1f:%s").
@Suite struct FsckdMessagesTests {
    @Test func updates() {
        #expect(FsckdUpdate(status: "fsckd:1:37.2:Checking in progress on 1 disk (37.2% complete)")
                == FsckdUpdate(devices: 1, percent: 37.2, text: "Checking in progress on 1 disk (37.2% complete)"))
        // The end, and a translated sentence with colons of its own.
        #expect(FsckdUpdate(status: "fsckd:0:100.0:Checking in progress on 0 disks (100.0% complete)")?.devices == 0)
        #expect(FsckdUpdate(status: "fsckd:2:5.0:Vérification : 2 disques") == FsckdUpdate(devices: 2, percent: 5, text: "Vérification : 2 disques"))
        // Bounded, and what is no update: unit names, broken fields.
        #expect(FsckdUpdate(status: "fsckd:1:180:x")?.percent == 100)
        for bad in ["systemd-fsck-root.service", "fsckd:", "fsckd:1:37.2", "fsckd:-1:5:x", "fsckd:one:5:x", "fsckd:1:nan:x", "fsckd:1:inf:x"] {
            #expect(FsckdUpdate(status: bad) == nil, "\(bad)")
        }
    }

    @Test func cancelHint() {
        #expect(FsckdUpdate.cancelHint(inMessage: "fsckd-cancel-msg:Press Ctrl+C to cancel all filesystem checks in progress")
                == "Press Ctrl+C to cancel all filesystem checks in progress")
        #expect(FsckdUpdate.cancelHint(inMessage: "fsckd-cancel-msg: Appuyez sur Ctrl+C") == "Appuyez sur Ctrl+C")
        #expect(FsckdUpdate.cancelHint(inMessage: "Hello there") == nil)
        #expect(FsckdUpdate.cancelHint(inMessage: "") == nil)
    }

    /// fsckd's keystroke watch: `K\2\2\3\0`, the keys Ctrl+C's 0x03.
    @Test func theKeystrokeWatch() {
        var d = PlymouthDecoder()
        #expect(d.feed([0x4B, 0x02, 0x02, 0x03, 0x00]) == [.success(.watchKeystroke(keys: "\u{03}"))])
    }
}
