// SPDX-License-Identifier: MIT
// Encoding: colour type choice, round trips through the decoder, determinism, file output.

import Assets
import Foundation
import Raster
import Testing

/// A pixmap whose premultiplied pixels follow a fixed pattern; translucent unless `opaque`.
func patternPixmap(width: Int32, height: Int32, opaque: Bool, seed: UInt32 = 0) -> Pixmap {
    let pixmap = Pixmap(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let n = UInt32(x) &* 2654435761 ^ UInt32(y) &* 40503 ^ seed &* 97
            let color = Color(r: UInt8(truncatingIfNeeded: n >> 3), g: UInt8(truncatingIfNeeded: n >> 11),
                              b: UInt8(truncatingIfNeeded: n >> 19), a: opaque ? 255 : UInt8(truncatingIfNeeded: n >> 24))
            pixmap[x, y] = color.premultiplied
        }
    }
    return pixmap
}

@Suite("PNG encoder")
struct PNGEncoderTests {
    private func ihdr(_ png: [UInt8]) throws -> [UInt8] {
        let first = try #require(PNGChunk.parse(png).first)
        #expect(first.type == "IHDR")
        return first.data
    }

    @Test("opaque images are written as RGB8 and round-trip exactly")
    func opaqueRoundTrip() throws {
        let pixmap = patternPixmap(width: 37, height: 23, opaque: true)
        let png = try PNGEncoder.encode(pixmap)
        let header = try ihdr(png)
        #expect(header[8] == 8 && header[9] == 2)  // bit depth 8, colour type 2 (RGB)
        #expect(try PNGDecoder.decode(png).pixels == pixmap.pixels)
    }

    @Test("translucent images are written as straight RGBA8")
    func translucentStraightAlpha() throws {
        let pixmap = patternPixmap(width: 19, height: 7, opaque: false)
        let png = try PNGEncoder.encode(pixmap)
        let header = try ihdr(png)
        #expect(header[8] == 8 && header[9] == 6)
        let raw = try PNGDecoder.decodeRaw(png)
        for y in 0..<pixmap.height {
            for x in 0..<pixmap.width {
                let i = (Int(y) * Int(pixmap.width) + Int(x)) * 4
                let c = pixmap[x, y].unpremultiplied
                #expect(Array(raw.rgba[i..<(i + 4)]) == [c.r, c.g, c.b, c.a], "(\(x), \(y))")
            }
        }
        // Re-premultiplying straight values is exact whenever they came from straight values.
        #expect(try PNGDecoder.decode(png).pixels == pixmap.pixels)
    }

    @Test("a known 2x1 image gives exactly the expected straight values")
    func knownValues() throws {
        let pixmap = Pixmap(width: 2, height: 1)
        pixmap[0, 0] = PremultipliedColor(a: 128, r: 64, g: 0, b: 128)  // straight 128, 0, 255
        pixmap[1, 0] = .transparent
        let raw = try PNGDecoder.decodeRaw(PNGEncoder.encode(pixmap))
        #expect(raw.rgba == [128, 0, 255, 128, 0, 0, 0, 0])
    }

    @Test("same pixels give the same bytes, and views with padded rows encode like packed ones")
    func deterministic() throws {
        let pixmap = patternPixmap(width: 31, height: 17, opaque: false, seed: 5)
        let a = try PNGEncoder.encode(pixmap)
        let b = try PNGEncoder.encode(patternPixmap(width: 31, height: 17, opaque: false, seed: 5))
        #expect(a == b)
        // A view with a 40-pixel stride over the same pixels.
        let wide = Pixmap(width: 40, height: 17)
        wide.view.copy(IntRect(x: 0, y: 0, width: 31, height: 17), from: pixmap.view)
        let padded = PixmapView(base: wide.view.base, width: 31, height: 17, rowBytes: wide.view.rowBytes, owner: wide)
        #expect(try PNGEncoder.encode(padded) == a)
    }

    @Test("text chunks are written and read back")
    func textRoundTrip() throws {
        let pixmap = patternPixmap(width: 3, height: 3, opaque: true)
        let text = [PNGTextChunk(keyword: "Software", text: "SplashHUD"), PNGTextChunk(keyword: "Title", text: "spinner")]
        let png = try PNGEncoder.encode(pixmap, text: text)
        #expect(try PNGDecoder.decodeRaw(png).text == text)
        #expect(try PNGChunk.parse(png).filter { $0.type == "tEXt" }.count == 2)
        // Keywords libpng would rewrite are refused rather than changed: empty, too long, outer or
        // doubled spaces, non-ASCII.
        for keyword in ["", String(repeating: "k", count: 80), " Title", "Title ", "Two  spaces", "Größe"] {
            #expect(throws: ImageError.self, "\(keyword)") {
                try PNGEncoder.encode(pixmap, text: [PNGTextChunk(keyword: keyword, text: "x")])
            }
        }
        #expect(try PNGEncoder.encode(pixmap, text: [PNGTextChunk(keyword: String(repeating: "k", count: 79), text: "")]).count > 0)
    }

    @Test("empty images and wrong sample counts are refused")
    func unencodable() throws {
        let empty = Pixmap(width: 0, height: 4)
        #expect(throws: ImageError.self) { try PNGEncoder.encode(empty) }
        #expect(throws: ImageError.self) { try PNGEncoder.encode(samples: [1, 2, 3], width: 2, height: 1, colorType: .rgb) }
    }

    @Test("write puts a decodable PNG at the path; an impossible path names the errno text")
    func writeFile() throws {
        let pixmap = patternPixmap(width: 9, height: 4, opaque: false)
        let path = NSTemporaryDirectory() + "png-encoder-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNGEncoder.write(pixmap, to: path)
        #expect(try PNGDecoder.decode(contentsOf: path).pixels == pixmap.pixels)
        let bad = "/nonexistent-directory/x.png"
        #expect(throws: ImageError.unwritableFile(path: bad, reason: "No such file or directory")) {
            try PNGEncoder.write(pixmap, to: bad)
        }
    }
}
