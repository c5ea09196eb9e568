// SPDX-License-Identifier: MIT
// Goldens of decoded images (Golden/PNG): pins the decoder's output, premultiplication included,
// and exercises the harness on real files in the source tree.

import Assets
import GoldenSupport
import Raster
import Testing

@Suite("PNG goldens")
struct PNGGoldenTests {
    @Test("decoded fixtures match their goldens", arguments: ["rgba16-adam7", "palette8-trns", "rgb8"])
    func decodedFixture(_ name: String) throws {
        let pixmap = try PNGDecoder.decode(contentsOf: fixturePath(name + ".png"))
        expectGolden(pixmap, name, suite: "PNG")
    }

    @Test("APNG frame 2, decoded from its fdAT data, matches its golden")
    func animationFrame() throws {
        var encoder = APNGEncoder(width: 21, height: 9, delay: .fps(10))
        for seed: UInt32 in 1...3 { try encoder.addFrame(patternPixmap(width: 21, height: 9, opaque: seed != 3, seed: seed)) }
        let chunks = try PNGChunk.parse(encoder.encode())
        let fdat = try #require(chunks.filter { $0.type == "fdAT" }.last)
        let png = PNGChunk.stream([chunks[0], PNGChunk(type: "IDAT", data: Array(fdat.data.dropFirst(4))), PNGChunk(type: "IEND", data: [])])
        expectGolden(try PNGDecoder.decode(png), "apng-frame2", suite: "PNG")
    }
}
