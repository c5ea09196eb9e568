// SPDX-License-Identifier: MIT
// The pages a present writes again before its fsync, checked against Linux 6.1's arithmetic for
// the rect a deferred-I/O run copies (drm_fb_helper_deferred_io and
// drm_fb_helper_memory_range_to_clip, modelled below): bochs at 1280x800, 32 bpp, 4 KiB pages.

import Testing

@testable import Display

@Suite("deferred I/O: every page drawn is in the last run")
struct DeferredIOPagesTests {
    static let rowBytes = 5120, pageSize = 4096, width = 1280, height = 800

    /// The rect (x1, y1, x2, y2) one run of these pages copies, as Linux 6.1 computes it: the
    /// pages' byte range, and within one scanline only its columns (x2 from end % line_length).
    static func kernelClip(pages: Set<Int>) -> (x1: Int, y1: Int, x2: Int, y2: Int)? {
        guard let first = pages.min(), let last = pages.max() else { return nil }
        let off = first * pageSize, end = min((last + 1) * pageSize, rowBytes * height)
        let y1 = off / rowBytes, y2 = (end + rowBytes - 1) / rowBytes
        guard y2 - y1 == 1 else { return (0, y1, width, y2) }
        return ((off % rowBytes) / 4, y1, ((end % rowBytes) + 3) / 4, y2)
    }

    /// DeferredIOPages' offsets at 1280x800, 32 bpp, 4 KiB pages, in order.
    static func offsets(_ rows: Range<Int>, screen: Range<Int>) -> [Int] {
        Array(DeferredIOPages.offsets(rows: rows, screen: screen, rowBytes: rowBytes, pageSize: pageSize))
    }

    static func pages(_ offsets: [Int]) -> Set<Int> { Set(offsets.map { $0 / pageSize }) }

    @Test func theLostRunIsModelledAsSeen() throws {
        // Page 999 holds row 799 from column 256 to its end; alone in a run it copies nothing.
        let clip = try #require(Self.kernelClip(pages: [999]))
        #expect(clip.x2 <= clip.x1, "\(clip)")
    }

    @Test func aFullFrameRewritesEveryPageAndIsCopiedWhole() throws {
        let offsets = Self.offsets(0..<800, screen: 0..<800)
        #expect(Self.pages(offsets) == Set(0..<1000))
        #expect(offsets.count == 1000, "one byte a page")
        // Whatever the worker took mid-present, the last run holds every page again.
        let clip = try #require(Self.kernelClip(pages: Self.pages(offsets).union([999])))
        #expect(clip.x1 == 0 && clip.x2 == Self.width && clip.y1 == 0 && clip.y2 == 800, "\(clip)")
    }

    @Test func theSpinnersRowsAreRewrittenWithThePagesTheyStartIn() {
        // Rows 311..<409 from column 0: row 311 starts inside page 388 (311·5120 = 388·4096 + 3072).
        let offsets = Self.offsets(311..<409, screen: 0..<800)
        #expect(offsets.first == 311 * Self.rowBytes)
        #expect(Self.pages(offsets) == Set(388..<512), "pages 388 to 511 hold rows 311 to 408")
        #expect(offsets.dropFirst().allSatisfy { $0 % Self.pageSize == 0 })
    }

    @Test(arguments: [3, 7, 799, 0, 400])
    func aDamageOneRowHighIsCopiedWithARowBeside(row: Int) throws {
        let offsets = Self.offsets(row..<row + 1, screen: 0..<800)
        let rows = Set(offsets.map { $0 / Self.rowBytes })
        #expect(rows.count == 2 && rows.contains(row), "\(rows)")
        #expect(rows.allSatisfy { (0..<800).contains($0) })
        // Even if only the page ending the row was written after the worker's last run.
        let tail = (row + 1) * Self.rowBytes / Self.pageSize - ((row + 1) * Self.rowBytes % Self.pageSize == 0 ? 1 : 0)
        let clip = try #require(Self.kernelClip(pages: Self.pages(offsets).union([tail])))
        #expect(clip.x1 == 0 && clip.x2 == Self.width && clip.y1 <= row && clip.y2 > row, "\(clip)")
    }

    @Test func aSecondPageAtRow800IsRewrittenThere() {
        // Double buffered, page 1 starts at row 800; the widened row stays on that page's screen.
        let offsets = Self.offsets(1599..<1600, screen: 800..<1600)
        #expect(Set(offsets.map { $0 / Self.rowBytes }) == [1598, 1599])
    }

    @Test func nothingDrawnRewritesNothing() {
        #expect(Self.offsets(5..<5, screen: 0..<800).isEmpty)
    }
}
