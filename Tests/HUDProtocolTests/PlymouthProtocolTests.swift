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
        #expect(decode(bytes("*\u{02}\u{0A}Password:\0")) == [.success(.refused(UInt8(ascii: "*"), "ask-for-password"))])
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

    @Test func aMalformedRequestEndsTheStream() {
        #expect(decode([0x50, 0x07, 0x50, 0x00]) == [.failure(.malformed(command: 0x50, second: 0x07))])
    }
}
