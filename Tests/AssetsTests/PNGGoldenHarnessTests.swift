// SPDX-License-Identifier: MIT
// The golden harness itself (GoldenSupport): lossless storage, record mode, missing goldens,
// mismatch detection with actual/diff output, tolerance, and where goldens are looked up.

import Assets
import Foundation
import GoldenSupport
import Raster
import Testing

@Suite("Golden harness")
struct PNGGoldenHarnessTests {
    /// A fresh temporary directory for one test's goldens and failure output.
    private func temporaryLocations(_ test: String = #function) throws -> GoldenLocations {
        let base = NSTemporaryDirectory() + "golden-harness-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(test.filter(\.isLetter))"
        try? FileManager.default.removeItem(atPath: base)
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        return GoldenLocations(goldenDirectory: base + "/Golden", failureDirectory: base + "/failures")
    }

    @Test("straight alpha round-trips every valid premultiplied value exactly")
    func unpremultiplyIsLossless() {
        var bad = 0
        for a in 1...255 {
            for c in 0...a {
                let p = PremultipliedColor(a: UInt8(a), r: UInt8(c), g: UInt8(c), b: UInt8(c))
                let s = p.unpremultiplied
                if mul255(s.r, UInt8(a)) != UInt8(c) { bad += 1 }
            }
        }
        #expect(bad == 0)
    }

    @Test("record mode writes an ordinary PNG that then matches exactly")
    func recordThenMatch() throws {
        let locations = try temporaryLocations()
        let pixmap = patternPixmap(width: 17, height: 5, opaque: false, seed: 9)
        let recorded = try compareGolden(pixmap, name: "pattern", suite: "Harness", locations: locations, record: true)
        let path = locations.goldenDirectory + "/Harness/pattern.png"
        #expect(recorded == .recorded(goldenPath: path))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try PNGDecoder.decodeRaw(bytes).text.isEmpty)  // no premultiplied marker needed
        #expect(try PNGDecoder.decode(bytes).pixels == pixmap.pixels)
        #expect(try compareGolden(pixmap, name: "pattern", suite: "Harness", locations: locations, record: false) == .matched)
        // expectGolden reports nothing for a match (an issue here would fail this test).
        expectGolden(pixmap, "pattern", suite: "Harness", goldenDirectory: locations.goldenDirectory,
                     failureDirectory: locations.failureDirectory, record: false)
    }

    @Test("expectGolden in record mode writes the golden and passes")
    func expectGoldenRecords() throws {
        let locations = try temporaryLocations()
        let pixmap = patternPixmap(width: 6, height: 6, opaque: false, seed: 2)
        expectGolden(pixmap, "rec", suite: "Harness", goldenDirectory: locations.goldenDirectory,
                     failureDirectory: locations.failureDirectory, record: true)
        let path = locations.goldenDirectory + "/Harness/rec.png"
        #expect(try GoldenImage.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: path)))).pixels == pixmap.pixels)
    }

    @Test("invalid premultiplied pixels fall back to the marked premultiplied format")
    func invalidPixelsStayExact() throws {
        let pixmap = Pixmap(width: 2, height: 1)
        pixmap[0, 0] = PremultipliedColor(a: 10, r: 200, g: 3, b: 0)  // r > a: not expressible straight
        pixmap[1, 0] = PremultipliedColor(a: 255, r: 1, g: 2, b: 3)
        let bytes = try GoldenImage.encode(pixmap.view)
        #expect(try PNGDecoder.decodeRaw(bytes).text(forKeyword: GoldenImage.premultipliedKeyword) == "1")
        #expect(try GoldenImage.decode(bytes).pixels == pixmap.pixels)
    }

    @Test("a missing golden is reported with how to record it")
    func missing() throws {
        let locations = try temporaryLocations()
        let pixmap = patternPixmap(width: 3, height: 3, opaque: true)
        let result = try compareGolden(pixmap, name: "absent", suite: "Harness", locations: locations, record: false)
        #expect(result == .missing(goldenPath: locations.goldenDirectory + "/Harness/absent.png"))
        #expect(describe(result, name: "absent", suite: "Harness")?.contains("RECORD_GOLDENS=1") == true)
        #expect(!FileManager.default.fileExists(atPath: locations.goldenDirectory + "/Harness/absent.png"))
    }

    @Test("a mismatch counts pixels, finds the max difference and writes actual and diff PNGs")
    func mismatch() throws {
        let locations = try temporaryLocations()
        let golden = patternPixmap(width: 12, height: 8, opaque: true, seed: 4)
        _ = try compareGolden(golden, name: "m", suite: "Harness", locations: locations, record: true)

        let changed = patternPixmap(width: 12, height: 8, opaque: true, seed: 4)
        let edits: [(Int32, Int32, UInt8)] = [(0, 0, 1), (5, 3, 2), (11, 7, 9)]
        for (x, y, delta) in edits {
            let c = changed[x, y]
            changed[x, y] = PremultipliedColor(a: 255, r: c.r, g: c.g &+ (c.g < 128 ? delta : 0 &- delta), b: c.b)
        }
        let result = try compareGolden(changed, name: "m", suite: "Harness", locations: locations, record: false)
        guard case let .mismatched(m) = result else {
            Issue.record("expected a mismatch, got \(result)")
            return
        }
        #expect(m.differingPixels == 3 && m.maxChannelDelta == 9)
        let actualPath = locations.failureDirectory + "/Harness/m.actual.png"
        let diffPath = locations.failureDirectory + "/Harness/m.diff.png"
        #expect(m.actualPath == actualPath && m.diffPath == diffPath)
        #expect(try PNGDecoder.decode(contentsOf: actualPath).pixels == changed.pixels)

        let diff = try PNGDecoder.decode(contentsOf: diffPath)
        for y in 0..<diff.height {
            for x in 0..<diff.width {
                let p = diff[x, y]
                if edits.contains(where: { $0.0 == x && $0.1 == y }) {
                    #expect(p == PremultipliedColor(a: 255, r: 255, g: 0, b: 0))
                } else {
                    #expect(p.a == 255 && p.r == p.g && p.g == p.b && (64...127).contains(p.r), "(\(x), \(y)) \(p)")
                }
            }
        }
        let message = try #require(describe(result, name: "m", suite: "Harness"))
        #expect(message.contains("3 of 96 pixels differ") && message.contains("max channel difference 9"))
        #expect(message.contains(locations.failureDirectory + "/Harness/"))

        // Within tolerance it matches, and the stale failure files are removed.
        #expect(try compareGolden(changed, name: "m", suite: "Harness", locations: locations, maxChannelDelta: 8, record: false)
            .isMismatch)
        #expect(try compareGolden(changed, name: "m", suite: "Harness", locations: locations, maxChannelDelta: 9, record: false)
            == .matched)
        #expect(!FileManager.default.fileExists(atPath: actualPath) && !FileManager.default.fileExists(atPath: diffPath))
    }

    @Test("a size change is a mismatch with both sizes, the actual image and no diff")
    func sizeMismatch() throws {
        let locations = try temporaryLocations()
        _ = try compareGolden(patternPixmap(width: 4, height: 4, opaque: true), name: "s", suite: "Harness",
                              locations: locations, record: true)
        let result = try compareGolden(patternPixmap(width: 5, height: 4, opaque: true), name: "s", suite: "Harness",
                                       locations: locations, record: false)
        guard case let .mismatched(m) = result else {
            Issue.record("expected a mismatch, got \(result)")
            return
        }
        #expect(m.expectedSize == (4, 4) && m.actualSize == (5, 4))
        #expect(m.actualPath != nil && m.diffPath == nil)
        #expect(describe(result, name: "s", suite: "Harness")?.contains("golden 4x4, actual 5x4") == true)
    }

    @Test("expectGolden reports a mismatch as a test issue")
    func expectGoldenFails() throws {
        let locations = try temporaryLocations()
        _ = try compareGolden(patternPixmap(width: 4, height: 4, opaque: true), name: "e", suite: "Harness",
                              locations: locations, record: true)
        withKnownIssue {
            expectGolden(patternPixmap(width: 4, height: 4, opaque: true, seed: 1), "e", suite: "Harness",
                         goldenDirectory: locations.goldenDirectory, failureDirectory: locations.failureDirectory, record: false)
        } matching: { issue in
            String(describing: issue).contains("pixels differ")
        }
        withKnownIssue {
            expectGolden(patternPixmap(width: 4, height: 4, opaque: true), "never-recorded", suite: "Harness",
                         goldenDirectory: locations.goldenDirectory, failureDirectory: locations.failureDirectory, record: false)
        } matching: { issue in
            String(describing: issue).contains("RECORD_GOLDENS=1")
        }
    }

    @Test("goldens live in this test target's Golden directory; failures under .build")
    func locations() {
        let here = GoldenLocations(forTestFile: #filePath)
        #expect(here.goldenDirectory.hasSuffix("/Tests/AssetsTests/Golden"))
        #expect(here.failureDirectory.hasSuffix("/.build/golden-failures"))
        let root = String(here.goldenDirectory.dropLast("/Tests/AssetsTests/Golden".count))
        #expect(FileManager.default.fileExists(atPath: root + "/Package.swift"))
        #expect(here.failureDirectory == root + "/.build/golden-failures")
    }
}

extension GoldenResult {
    var isMismatch: Bool { if case .mismatched = self { true } else { false } }
}
