// SPDX-License-Identifier: MIT
// The firmware logo's BMP decoder: ImageMagick's 24- and 32-bit files decode to the pixels of the
// PNG they were written from (libpng's decode), rows either way up, and every malformed or
// oversized header is its own clear error; no cut-short file crashes.

import Assets
import Images
import Raster
import Testing

@Suite("BMP decoder")
struct BMPDecoderTests {
    /// bmp-twin.png through libpng: what every BMP fixture holds (opaque, 7x5).
    func twin() throws -> [UInt32] { try PNGDecoder.decode(fixtureBytes("bmp-twin.png")).pixels }

    func error(_ bytes: [UInt8]) -> BMPError? {
        do { _ = try BMPDecoder.decode(bytes); return nil } catch { return error }
    }

    func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }

    func put(_ b: inout [UInt8], _ at: Int, _ v: UInt32) {
        for i in 0..<4 { b[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(i))) }
    }

    @Test("ImageMagick's 24-bit BMP3 (rows padded, bottom-up) and 32-bit BMP with a V5 header and bit fields")
    func imageMagickFiles() throws {
        let png = try twin()
        for name in ["logo-24.bmp", "logo-32.bmp"] {
            let image = try BMPDecoder.decode(fixtureBytes(name))
            #expect(image.width == 7 && image.height == 5, "\(name)")
            #expect(image.pixels == png, "\(name)")
        }
        // Spot checks that do not trust libpng either: the corners ImageMagick was told to draw.
        let image = try BMPDecoder.decode(fixtureBytes("logo-24.bmp"))
        #expect(image[0, 0].argb == 0xFFFF_0000 && image[6, 0].argb == 0xFF00_FF00)
        #expect(image[0, 4].argb == 0xFF00_00FF && image[6, 4].argb == 0xFFFF_FFFF && image[3, 2].argb == 0xFF12_3456)
    }

    @Test("a top-down file (negative height) gives the same picture")
    func topDown() throws {
        var bytes = try fixtureBytes("logo-24.bmp")
        let offset = Int(u32(bytes, 10)), stride = (7 * 3 + 3) / 4 * 4
        let rows = (0..<5).map { Array(bytes[(offset + $0 * stride)..<(offset + ($0 + 1) * stride)]) }
        bytes.replaceSubrange(offset..<(offset + 5 * stride), with: rows.reversed().flatMap { $0 })
        put(&bytes, 22, UInt32(bitPattern: -5))
        #expect(try BMPDecoder.decode(bytes).pixels == twin())
    }

    @Test("the last row's padding may be missing; a row's pixels may not")
    func lastRowPadding() throws {
        let bytes = try fixtureBytes("logo-24.bmp")
        let offset = Int(u32(bytes, 10)), stride = 24
        let exact = Array(bytes[..<(offset + 4 * stride + 21)])
        #expect(try BMPDecoder.decode(exact).pixels == twin())
        #expect(error(Array(exact.dropLast())) == .truncated("pixel rows"))
    }

    @Test("what is not a BMP, or is cut inside a header")
    func notBMPOrTruncated() throws {
        #expect(error([]) == .notBMP)
        #expect(error(Array("PNG".utf8)) == .notBMP)
        #expect(error(Array("BM".utf8)) == .truncated("header"))
        var cut = try fixtureBytes("logo-32.bmp")
        cut.removeSubrange(100...)
        #expect(error(cut) == .truncated("info header"))
        #expect(BMPError.notBMP.description.contains("\"BM\""))
    }

    @Test("headers this decoder does not take are named with their value")
    func unsupported() throws {
        let good = try fixtureBytes("logo-24.bmp")
        var b = good; b[28] = 8
        #expect(error(b) == .unsupported("8 bits a pixel"))
        b = good; b[26] = 2
        #expect(error(b) == .unsupported("2 planes"))
        b = good; put(&b, 30, 1)
        #expect(error(b) == .unsupported("compression 1"))
        b = good; put(&b, 14, 12)
        #expect(error(b) == .unsupported("a 12-byte info header"))
        b = good; put(&b, 18, 0)
        #expect(error(b) == .unsupported("a 0x5 image"))
        b = good; put(&b, 18, UInt32(bitPattern: -7))
        #expect(error(b) == .unsupported("a -7x5 image"))
        b = good; put(&b, 10, 100_000)
        #expect(error(b) == .unsupported("pixel data at offset 100000 in a file of 174 bytes"))
        var masks = try fixtureBytes("logo-32.bmp"); put(&masks, 54, 0x0000_00FF); put(&masks, 62, 0x00FF_0000)
        #expect(error(masks) == .unsupported("colour masks other than 8-bit B, G, R"))
        b = good; put(&b, 30, 3)  // bit fields at 24 bits a pixel
        #expect(error(b) == .unsupported("compression 3"))
    }

    @Test("a huge image is refused before any pixel memory is allocated")
    func tooLarge() throws {
        var b = try fixtureBytes("logo-24.bmp")
        put(&b, 18, 100_000); put(&b, 22, 5)
        #expect(error(b) == .tooLarge(width: 100_000, height: 5))
        put(&b, 18, 7); put(&b, 22, UInt32(bitPattern: Int32.min))
        #expect(error(b) == .tooLarge(width: 7, height: 2_147_483_648))
        #expect(BMPError.tooLarge(width: 1, height: 2).description.contains("1x2"))
    }

    @Test("every prefix too short for the pixels is an error, never a crash")
    func everyPrefix() throws {
        // The bytes each fixture's pixels end at: offset, four padded rows, one row's pixels.
        for (name, end) in [("logo-24.bmp", 54 + 4 * 24 + 7 * 3), ("logo-32.bmp", 138 + 5 * 28)] {
            let bytes = try fixtureBytes(name)
            for n in 0..<end { #expect(error(Array(bytes[..<n])) != nil, "\(name) cut at \(n)") }
            #expect(try BMPDecoder.decode(Array(bytes[..<end])).pixels == twin(), "\(name)")
        }
    }
}
