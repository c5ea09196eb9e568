// SPDX-License-Identifier: MIT
// SavedPage, the console's page kept for close(.restore): it must come back byte for byte whatever
// the pixel size, the page's length and what is on it; a console must cost a small fraction of the
// page, and no page may cost more than the page plus one header.

import GoldenSupport
import Testing

@testable import Display

@Suite("SavedPage")
struct SavedPageTests {

    /// Saves `page`, restores it between guard bytes and expects the same bytes back, the guards
    /// untouched and the stored size within the bound. Returns the stored size.
    @discardableResult
    static func roundTrip(_ page: [UInt8], bytesPerPixel: Int, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let saved = page.withUnsafeBytes { SavedPage(capturing: $0.baseAddress!, byteCount: page.count, bytesPerPixel: bytesPerPixel) }
        let guardBytes = 16
        var out = [UInt8](repeating: 0xA5, count: page.count + 2 * guardBytes)
        out.withUnsafeMutableBytes { saved.restore(into: $0.baseAddress! + guardBytes) }
        let restored = Array(out[guardBytes..<(guardBytes + page.count)])
        if restored != page {
            let first = zip(restored, page).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            Issue.record("\(what): restored bytes differ, first at \(first.map(String.init) ?? "?") of \(page.count)", sourceLocation: sourceLocation)
        }
        #expect(out.prefix(guardBytes).allSatisfy { $0 == 0xA5 } && out.suffix(guardBytes).allSatisfy { $0 == 0xA5 },
                "\(what): restore wrote outside the page", sourceLocation: sourceLocation)
        #expect(saved.storedByteCount <= page.count + SavedPage.maximumOverhead,
                "\(what): \(saved.storedByteCount) bytes stored for \(page.count)", sourceLocation: sourceLocation)
        return saved.storedByteCount
    }

    /// `count` copies of `pixel`.
    static func filled(_ pixel: [UInt8], count: Int) -> [UInt8] {
        var bytes = pixel
        bytes.reserveCapacity(pixel.count * count)
        while bytes.count < pixel.count * count { bytes += bytes.prefix(pixel.count * count - bytes.count) }
        return bytes
    }

    /// A pixel's bytes from a colour number (byte k = bits 8k...), so the test names colours, not bytes.
    static func pixel(_ colour: UInt32, _ bytesPerPixel: Int) -> [UInt8] {
        (0..<bytesPerPixel).map { UInt8(truncatingIfNeeded: colour >> (8 * $0)) }
    }

    /// An emptied text console: `rowBytes` per row (padding after `width` pixels filled with
    /// `padding`), one background colour, `lines` lines of `columns` 8x16 glyphs in a foreground colour
    /// (rows drawn from strokes an 8x16 console font is made of).
    static func consolePage(width: Int, height: Int, rowBytes: Int, bytesPerPixel bpp: Int, lines: Int, columns: Int,
                            padding: (inout SplitMix64) -> UInt8 = { _ in 0 }, seed: UInt64 = 1) -> [UInt8] {
        var g = SplitMix64(state: seed)
        let background = pixel(0x0020_2430, bpp), foreground = pixel(0x00AA_AAAA, bpp)
        let strokes: [UInt8] = [0x00, 0x18, 0x3C, 0x66, 0x7E, 0xC6, 0xFE, 0x6C, 0x60, 0x0C, 0xC0]
        let blankRow = filled(background, count: width)
        var page = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            let start = y * rowBytes
            page.replaceSubrange(start..<(start + blankRow.count), with: blankRow)
            if y / 16 < lines && y % 16 >= 2 && y % 16 <= 13 {
                for column in 0..<min(columns, width / 8) {
                    let bits = strokes.randomElement(using: &g)!
                    for x in 0..<8 where bits & (0x80 >> x) != 0 {
                        let at = start + (column * 8 + x) * bpp
                        page.replaceSubrange(at..<(at + bpp), with: foreground)
                    }
                }
            }
            for i in (start + blankRow.count)..<(start + rowBytes) { page[i] = padding(&g) }
        }
        return page
    }

    @Test("noise is stored as it is, within a header of the page", arguments: [2, 3, 4])
    func noise(bytesPerPixel: Int) {
        var g = SplitMix64(state: UInt64(bytesPerPixel))
        // Odd length: not a whole number of pixels, and more than one 16 KB piece.
        let page = (0..<(40_000 * bytesPerPixel + 1)).map { _ in UInt8.random(in: 0...255, using: &g) }
        let stored = Self.roundTrip(page, bytesPerPixel: bytesPerPixel, "noise \(bytesPerPixel) bpp")
        #expect(stored >= page.count, "noise cannot shrink: \(stored) of \(page.count)")
    }

    @Test("a console with a few lines of text costs under 5 % of the page", arguments: [2, 3, 4])
    func console(bytesPerPixel: Int) {
        let page = Self.consolePage(width: 1024, height: 768, rowBytes: 1024 * bytesPerPixel, bytesPerPixel: bytesPerPixel,
                                    lines: 3, columns: 64)
        let stored = Self.roundTrip(page, bytesPerPixel: bytesPerPixel, "console \(bytesPerPixel) bpp")
        #expect(stored * 20 < page.count, "console \(bytesPerPixel) bpp: \(stored) bytes stored of \(page.count)")
    }

    @Test("rows that are not a whole number of pixels, with padding that is not background")
    func paddedRows() {
        // 1366 pixels of RGB888 in rows of 4100 bytes (2 bytes of padding: rows start off the pixel grid).
        let page = Self.consolePage(width: 1366, height: 768, rowBytes: 4100, bytesPerPixel: 3, lines: 2, columns: 170,
                                    padding: { UInt8.random(in: 0...255, using: &$0) })
        let stored = Self.roundTrip(page, bytesPerPixel: 3, "padded rows")
        #expect(stored * 20 < page.count, "padded rows: \(stored) bytes stored of \(page.count)")
    }

    @Test("one colour is one run", arguments: [2, 3, 4])
    func oneColour(bytesPerPixel: Int) {
        let page = Self.filled(Self.pixel(0x0011_2233, bytesPerPixel), count: 1024 * 768)
        // varint(786432 << 1) takes 3 bytes, then the pixel.
        #expect(Self.roundTrip(page, bytesPerPixel: bytesPerPixel, "one colour") == 3 + bytesPerPixel)
        // The same with a stray byte after the last whole pixel.
        #expect(Self.roundTrip(page + [7], bytesPerPixel: bytesPerPixel, "one colour + 1") == 3 + bytesPerPixel + 1)
    }

    @Test func emptyPage() {
        for bpp in 1...4 { #expect(Self.roundTrip([], bytesPerPixel: bpp, "empty \(bpp) bpp") == 0) }
    }

    @Test("every length up to 300 bytes, runs around the shortest worth a token", arguments: [1, 2, 3, 4])
    func shortPages(bytesPerPixel: Int) {
        var g = SplitMix64(state: 77 + UInt64(bytesPerPixel))
        let shortest = Int(SavedPage.minimumRun(bytesPerPixel: bytesPerPixel))
        for length in 0...300 {
            for _ in 0..<4 {
                Self.roundTrip(Self.runs(length: length, bytesPerPixel: bytesPerPixel, longest: 2 * shortest + 1, using: &g),
                               bytesPerPixel: bytesPerPixel, "\(length) bytes")
            }
        }
    }

    @Test("long runs and literals across the 16 KB pieces", arguments: [2, 3, 4])
    func acrossPieces(bytesPerPixel: Int) {
        var g = SplitMix64(state: 5 + UInt64(bytesPerPixel))
        let page = Self.runs(length: 300_000, bytesPerPixel: bytesPerPixel, longest: 12_000, using: &g)
        Self.roundTrip(page, bytesPerPixel: bytesPerPixel, "long runs")
    }

    @Test("runs just long enough to be tokens, between single pixels, stay within the bound", arguments: [1, 2, 3, 4])
    func shortestRuns(bytesPerPixel: Int) {
        let shortest = Int(SavedPage.minimumRun(bytesPerPixel: bytesPerPixel))
        for run in [shortest - 1, shortest, shortest + 1] {
            var page: [UInt8] = []
            for i in 0..<3000 {
                page += Self.filled(Self.pixel(UInt32(2 * i), bytesPerPixel), count: run)
                page += Self.pixel(UInt32(2 * i + 1), bytesPerPixel)
            }
            let stored = Self.roundTrip(page, bytesPerPixel: bytesPerPixel, "runs of \(run)")
            if run >= shortest { #expect(stored < page.count, "runs of \(run): \(stored) of \(page.count)") }
        }
    }

    /// `length` bytes of runs of 1...`longest` pixels, each of 3 colours or noise, with a tail.
    static func runs(length: Int, bytesPerPixel: Int, longest: Int, using g: inout SplitMix64) -> [UInt8] {
        var page: [UInt8] = []
        page.reserveCapacity(length)
        while page.count + bytesPerPixel <= length {
            let n = min(Int.random(in: 1...longest, using: &g), (length - page.count) / bytesPerPixel)
            let kind = Int.random(in: 0...3, using: &g)
            if kind == 3 {
                for _ in 0..<(n * bytesPerPixel) { page.append(UInt8.random(in: 0...255, using: &g)) }
            } else {
                page += Self.filled(Self.pixel([0x0000_0000, 0x00FF_FFFF, 0x0012_3456][kind], bytesPerPixel), count: n)
            }
        }
        while page.count < length { page.append(UInt8.random(in: 0...255, using: &g)) }
        return page
    }
}
