// SPDX-License-Identifier: MIT
// Animated PNG: the chunk layout follows the APNG spec, libpng shows frame 0 as the default
// image, and every frame's data decodes back to the frame's pixels.

import Assets
import Foundation
import Raster
import Testing

@Suite("APNG encoder")
struct PNGAnimatedTests {
    private static func u32(_ d: [UInt8], _ i: Int) -> UInt32 {
        UInt32(d[i]) << 24 | UInt32(d[i + 1]) << 16 | UInt32(d[i + 2]) << 8 | UInt32(d[i + 3])
    }
    private static func u16(_ d: [UInt8], _ i: Int) -> UInt16 { UInt16(d[i]) << 8 | UInt16(d[i + 1]) }

    /// Three frames: translucent, opaque, translucent (so frames of both kinds share one IHDR).
    private func frames() -> [Pixmap] {
        [patternPixmap(width: 21, height: 9, opaque: false, seed: 1),
         patternPixmap(width: 21, height: 9, opaque: true, seed: 2),
         patternPixmap(width: 21, height: 9, opaque: false, seed: 3)]
    }

    private func animation(_ frames: [Pixmap]) throws -> [UInt8] {
        var encoder = APNGEncoder(width: 21, height: 9, delay: .fps(30), loopCount: 3)
        for (i, frame) in frames.enumerated() {
            try encoder.addFrame(frame, delay: i == 1 ? APNGEncoder.Delay(numerator: 1, denominator: 2) : nil)
        }
        #expect(encoder.frameCount == frames.count)
        return try encoder.encode()
    }

    @Test("libpng decodes frame 0 as the default image")
    func defaultImage() throws {
        let frames = frames()
        let png = try animation(frames)
        #expect(try PNGDecoder.decode(png).pixels == frames[0].pixels)
    }

    @Test("chunk layout: acTL, then fcTL/IDAT, then fcTL/fdAT pairs with one sequence counter")
    func chunkLayout() throws {
        let png = try animation(frames())
        let chunks = try PNGChunk.parse(png)  // also checks every CRC
        #expect(chunks.map(\.type) == ["IHDR", "acTL", "fcTL", "IDAT", "fcTL", "fdAT", "fcTL", "fdAT", "IEND"])

        let actl = chunks[1].data
        #expect(Self.u32(actl, 0) == 3 && Self.u32(actl, 4) == 3)  // num_frames, num_plays

        var sequence: [UInt32] = []
        for chunk in chunks where chunk.type == "fcTL" || chunk.type == "fdAT" { sequence.append(Self.u32(chunk.data, 0)) }
        #expect(sequence == [0, 1, 2, 3, 4])

        let controls = chunks.filter { $0.type == "fcTL" }.map(\.data)
        for (i, fctl) in controls.enumerated() {
            #expect(fctl.count == 26)
            #expect(Self.u32(fctl, 4) == 21 && Self.u32(fctl, 8) == 9)  // width, height
            #expect(Self.u32(fctl, 12) == 0 && Self.u32(fctl, 16) == 0)  // offsets
            let delay = (Self.u16(fctl, 20), Self.u16(fctl, 22))
            #expect(i == 1 ? delay == (1, 2) : delay == (1, 30), "frame \(i) delay \(delay)")
            #expect(fctl[24] == 0 && fctl[25] == 0)  // dispose NONE, blend SOURCE
        }
    }

    @Test("each frame's data, repacked as a standalone PNG, decodes to that frame")
    func everyFrameRoundTrips() throws {
        let frames = frames()
        let chunks = try PNGChunk.parse(try animation(frames))
        let ihdr = chunks[0]
        var frameData: [[UInt8]] = [chunks.first { $0.type == "IDAT" }!.data]
        frameData += chunks.filter { $0.type == "fdAT" }.map { Array($0.data.dropFirst(4)) }
        #expect(frameData.count == frames.count)
        for (k, data) in frameData.enumerated() {
            let standalone = PNGChunk.stream([ihdr, PNGChunk(type: "IDAT", data: data), PNGChunk(type: "IEND", data: [])])
            #expect(try PNGDecoder.decode(standalone).pixels == frames[k].pixels, "frame \(k)")
        }
    }

    @Test("same frames give the same bytes")
    func deterministic() throws {
        #expect(try animation(frames()) == animation(frames()))
    }

    @Test("wrong frame sizes and empty animations are refused")
    func refusals() throws {
        var encoder = APNGEncoder(width: 4, height: 4, delay: .fps(60))
        #expect(throws: ImageError.self) { try encoder.encode() }
        let other = Pixmap(width: 5, height: 4)
        #expect(throws: ImageError.self) { try encoder.addFrame(other) }
        #expect(encoder.frameCount == 0)
    }

    @Test("write(to:) produces the same bytes on disk")
    func writeFile() throws {
        let frames = frames()
        var encoder = APNGEncoder(width: 21, height: 9, delay: .fps(30), loopCount: 3)
        for (i, frame) in frames.enumerated() {
            try encoder.addFrame(frame, delay: i == 1 ? APNGEncoder.Delay(numerator: 1, denominator: 2) : nil)
        }
        let path = NSTemporaryDirectory() + "apng-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try encoder.write(to: path)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == (try animation(frames)))
    }
}
