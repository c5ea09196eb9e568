// SPDX-License-Identifier: MIT
// The FIFO's line splitting, on byte pieces as reads deliver them.
import HUDProtocol
import Runtime
import Testing

@Suite("CommandFIFO line buffer")
struct CommandFIFOLineBufferTests {
    func lines(_ results: [Result<String, CommandFIFOError>]) -> [String] {
        results.map { r in
            switch r {
            case .success(let s): return s
            case .failure(let e): return "ERROR \(e)"
            }
        }
    }

    @Test func partialLinesWaitForTheirTerminator() {
        var b = CommandFIFOLineBuffer()
        #expect(b.feed(Array("show \"Lo".utf8)).isEmpty)
        #expect(b.pendingCount == 8)
        #expect(lines(b.feed(Array("ading\"\nprogress 0.4".utf8))) == ["show \"Loading\""])
        #expect(lines(b.feed(Array(" \"x\"\r\n".utf8))) == ["progress 0.4 \"x\""])
        #expect(b.pendingCount == 0)
    }

    @Test func nulEndsALineAsPsplashWriteSendsIt() {
        var b = CommandFIFOLineBuffer()
        // psplash-write "MSG Booting" writes the string and its NUL; two writes back to back.
        #expect(lines(b.feed(Array("MSG Booting\u{0}PROGRESS 40\u{0}".utf8))) == ["MSG Booting", "PROGRESS 40"])
    }

    @Test func overLongLineIsRejectedWholeAndTheNextLineSurvives() {
        var b = CommandFIFOLineBuffer(limit: 8)
        var out = b.feed(Array("12345678".utf8))  // exactly the limit: still pending
        #expect(out.isEmpty)
        out = b.feed(Array("9abc".utf8) + [0x0A] + Array("QUIT\n".utf8))
        #expect(lines(out) == ["ERROR command line of 12+ bytes is longer than 8 bytes; dropped", "QUIT"])
        #expect(out.first.map { if case .failure(.lineTooLong(12, 8)) = $0 { true } else { false } } == true)
        #expect(lines(b.feed(Array("12345678\n".utf8))) == ["12345678"])
    }

    @Test func invalidUTF8IsRejectedWithItsOffset() {
        var b = CommandFIFOLineBuffer()
        let out = b.feed(Array("MSG ca".utf8) + [0xC3, 0x28] + [0x0A] + Array("MSG caf\u{E9}\n".utf8))
        #expect(out.count == 2)
        if case .failure(let e) = out[0] { #expect(e == .invalidUTF8(byteOffset: 6)) } else { Issue.record("accepted bad UTF-8") }
        #expect(lines([out[1]]) == ["MSG caf\u{E9}"])
    }

    @Test func emptyLinesAreHandedOnForTheParserToSkip() {
        var b = CommandFIFOLineBuffer()
        #expect(lines(b.feed(Array("\n\n".utf8))) == ["", ""])
    }
}
