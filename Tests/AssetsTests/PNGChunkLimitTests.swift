// SPDX-License-Identifier: MIT
// What the decoder keeps besides pixels: text chunks are measured against the limits before libpng
// inflates them (each one, iTXt as well as zTXt, and all of them together), text after the image is
// read, chunks the decoder has no use for are skipped, however large, and a chunk that runs past
// the data is refused before libpng allocates the length it declares.

@testable import Images
import CZlib
import Testing

@Suite("PNG chunk limits")
struct PNGChunkLimitTests {
    /// `rgba8.png` with `before` inserted after IHDR and `after` after the image data.
    private func rgba8(before: [PNGChunk] = [], after: [PNGChunk] = []) throws -> [UInt8] {
        let chunks = try PNGChunk.parse(fixtureBytes("rgba8.png"))
        let iend = chunks.count - 1
        return PNGChunk.stream([chunks[0]] + before + chunks[1..<iend] + after + [chunks[iend]])
    }

    private func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var size = compressBound(UInt(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        #expect(compress2(&out, &size, bytes, UInt(bytes.count), 9) == Z_OK)
        return Array(out.prefix(Int(size)))
    }

    private func itxt(_ keyword: String, _ text: [UInt8]) -> PNGChunk {
        // keyword NUL, compressed, method 0, empty language NUL, empty translated keyword NUL
        PNGChunk(type: "iTXt", data: Array(keyword.utf8) + [0, 1, 0, 0, 0] + deflate(text))
    }

    private func text(_ keyword: String, _ body: String) -> PNGChunk {
        PNGChunk(type: "tEXt", data: Array(keyword.utf8) + [0] + Array(body.utf8))
    }

    @Test("a compressed iTXt over the per-chunk limit is refused; within it, it is read")
    func itxtLimit() throws {
        let png = try rgba8(before: [itxt("Description", [UInt8](repeating: 0x42, count: 2 << 20))])
        #expect(throws: ImageError.chunkTooLarge) { try PNGDecoder.decode(png) }
        var limits = PNGLimits.default
        limits.maxChunkBytes = 3 << 20
        let image = try PNGDecoder.decodeRaw(png, limits: limits)
        #expect(image.text(forKeyword: "Description")?.utf8.count == 2 << 20)
    }

    @Test("text chunks each within the limit but over the total are refused")
    func totalLimit() throws {
        let body = String(repeating: "t", count: 900 << 10)
        let five = (0..<5).map { text("Note\($0)", body) }
        #expect(throws: ImageError.chunkTooLarge) { try PNGDecoder.decode(rgba8(before: five)) }
        let four = try PNGDecoder.decodeRaw(rgba8(before: Array(five.prefix(4))))
        #expect(four.text.map(\.keyword) == ["Note0", "Note1", "Note2", "Note3"])
    }

    @Test("text before and after the image comes back in file order")
    func textOrder() throws {
        let png = try rgba8(before: [text("Title", "first")], after: [text("Comment", "last"), itxt("Author", Array("ü".utf8))])
        let image = try PNGDecoder.decodeRaw(png)
        #expect(image.text == [PNGTextChunk(keyword: "Title", text: "first"), PNGTextChunk(keyword: "Comment", text: "last"),
                               PNGTextChunk(keyword: "Author", text: "ü")])
    }

    @Test("colour management and large unknown chunks are skipped, not applied or refused")
    func skippedChunks() throws {
        let plain = try PNGDecoder.decodeRaw(fixtureBytes("rgba8.png"))
        // gAMA 0.1 and a private chunk of 3 MiB (over every default chunk limit), after the image too.
        let gamma = PNGChunk(type: "gAMA", data: [0, 0, 0x27, 0x10])
        let big = PNGChunk(type: "prVt", data: [UInt8](repeating: 7, count: 3 << 20))
        let png = try rgba8(before: [gamma, big], after: [big])
        #expect(try PNGDecoder.decodeRaw(png).rgba == plain.rgba)
    }

    @Test("a chunk length past 2^31 is an error, read as a UInt32 (an Int on 32-bit boards would trap)")
    func hugeDeclaredLength() throws {
        var png = try rgba8(before: [text("Title", "x")])
        let at = 8 + 25  // after the signature and IHDR: the tEXt chunk's length
        png.replaceSubrange(at..<(at + 4), with: [0xFF, 0xFF, 0xFF, 0xF0])
        #expect(throws: ImageError.self) { try PNGDecoder.decode(png) }
        #expect(throws: ImageError.corrupt(reason: "chunk length 4294967280 over 2^31-1")) { try PNGChunk.parse(png) }
    }

    @Test("a damaged zTXt stream is corrupt, not too large")
    func damagedText() throws {
        var data = Array("Comment".utf8) + [0, 0] + deflate(Array("hello".utf8))
        data[data.count - 6] ^= 0xFF
        let png = try rgba8(before: [PNGChunk(type: "zTXt", data: data)])
        do {
            _ = try PNGDecoder.decode(png)
            Issue.record("a damaged zTXt decoded")
        } catch let ImageError.corrupt(reason) {
            #expect(reason.contains("zTXt"))
        }
    }

    @Test("a chunk that declares more than the data holds is truncated, found before libpng allocates for it",
          arguments: [0x6800_000B, 0x00FE_002A, 2] as [UInt32])
    func chunkPastTheEnd(declared: UInt32) throws {
        // IHDR, then an iTXt whose header (and, for the small length, its data but not its CRC)
        // is all that is left: libpng would allocate `declared + 1` bytes before reading it.
        let ihdr = try Array(fixtureBytes("rgba8.png").prefix(8 + 25))
        let length = withUnsafeBytes(of: declared.bigEndian) { Array($0) }
        for tail in [[], [UInt8](repeating: 0x41, count: 2)] {
            let png = ihdr + length + Array("iTXt".utf8) + tail
            #expect(throws: ImageError.truncated) {
                try png.withUnsafeBytes { try PNGTextLimits.check($0, .default) }
            }
            #expect(throws: ImageError.truncated) { try PNGDecoder.decode(png) }
        }
    }
}
