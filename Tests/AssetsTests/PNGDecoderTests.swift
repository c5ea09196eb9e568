// SPDX-License-Identifier: MIT
// Decoding every colour type, bit depth and interlace mode, checked pixel by pixel against the
// formula the fixtures were written from.

import Assets
import Raster
import Testing

@Suite("PNG decoder")
struct PNGDecoderTests {
    @Test("straight RGBA8 matches the fixture formula", arguments: FixtureSpec.all)
    func rawPixels(_ spec: FixtureSpec) throws {
        let image = try PNGDecoder.decodeRaw(fixtureBytes(spec.name + ".png"))
        #expect(image.width == UInt32(FixtureSpec.width) && image.height == UInt32(FixtureSpec.height))
        var wrong = 0
        for y in 0..<FixtureSpec.height {
            for x in 0..<FixtureSpec.width {
                let i = (y * FixtureSpec.width + x) * 4
                let got = Array(image.rgba[i..<(i + 4)])
                let want = spec.expected(x, y)
                if got != want {
                    wrong += 1
                    if wrong <= 3 { Issue.record("\(spec.name) (\(x), \(y)): got \(got), want \(want)") }
                }
            }
        }
        #expect(wrong == 0)
    }

    @Test("the pixmap is premultiplied with mul255", arguments: FixtureSpec.all)
    func premultipliedPixels(_ spec: FixtureSpec) throws {
        let pixmap = try PNGDecoder.decode(contentsOf: fixturePath(spec.name + ".png"))
        #expect(pixmap.width == Int32(FixtureSpec.width) && pixmap.height == Int32(FixtureSpec.height))
        for y in 0..<FixtureSpec.height {
            for x in 0..<FixtureSpec.width {
                let e = spec.expected(x, y)
                let want = PremultipliedColor(a: e[3], r: mul255(e[0], e[3]), g: mul255(e[1], e[3]), b: mul255(e[2], e[3]))
                #expect(pixmap[Int32(x), Int32(y)] == want, "\(spec.name) (\(x), \(y))")
            }
        }
    }

    @Test("fixtures exercise what they claim: transparency, translucency, full range")
    func fixturesAreMeaningful() throws {
        // Guards the formula itself: a tRNS fixture with no transparent pixel would test nothing.
        for spec in FixtureSpec.all {
            let alphas = Set((0..<FixtureSpec.height).flatMap { y in (0..<FixtureSpec.width).map { x in spec.expected(x, y)[3] } })
            switch (spec.colorType, spec.trns) {
            case (0, true), (2, true): #expect(alphas == [0, 255], "\(spec.name)")
            case (3, true), (4, _), (6, _): #expect(alphas.count > 4, "\(spec.name)")
            default: #expect(alphas == [255], "\(spec.name)")
            }
        }
        // 1-bit gray 1 must come out as 255, 4-bit 0xA as 0xAA.
        #expect(FixtureSpec.to8(1, 1) == 255 && FixtureSpec.to8(0xA, 4) == 0xAA && FixtureSpec.to8(0xABCD, 16) == 0xAB)
    }

    @Test("Adam7 interlaced fixtures decode to the same pixels as their progressive twins")
    func interlacedMatchesProgressive() throws {
        for (interlaced, plain) in [("gray1-adam7", "gray1"), ("graya8-adam7", "graya8"), ("palette4-trns-adam7", "palette4-trns"),
                                    ("rgba8-adam7", "rgba8"), ("rgba16-adam7", "rgba16")] {
            let a = try PNGDecoder.decode(fixtureBytes(interlaced + ".png"))
            let b = try PNGDecoder.decode(fixtureBytes(plain + ".png"))
            #expect(a.pixels == b.pixels, "\(interlaced) vs \(plain)")
            // The interlaced file really is interlaced (IHDR interlace byte), so the test means something.
            let ihdr = try #require(PNGChunk.parse(fixtureBytes(interlaced + ".png")).first)
            #expect(ihdr.type == "IHDR" && ihdr.data[12] == 1)
        }
    }

    @Test("PNGImage.decode is the same decoder")
    func aliasDecodes() throws {
        let a = try PNGImage.decode(fixtureBytes("rgba8.png"))
        let b = try PNGDecoder.decode(fixtureBytes("rgba8.png"))
        #expect(a.pixels == b.pixels)
    }

    @Test("text chunks are returned, and a big zTXt decodes when the limits allow it")
    func textChunks() throws {
        var limits = PNGLimits.default
        limits.maxChunkBytes = 4 << 20
        limits.maxChunkCacheBytes = 8 << 20
        let image = try PNGDecoder.decodeRaw(fixtureBytes("huge-ztxt.png"), limits: limits)
        let comment = try #require(image.text(forKeyword: "Comment"))
        #expect(comment.utf8.count == 2 << 20 && comment.utf8.allSatisfy { $0 == UInt8(ascii: "A") })
        #expect(image.rgba == (try PNGDecoder.decodeRaw(fixtureBytes("rgba8.png")).rgba))
    }
}
