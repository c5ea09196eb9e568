// SPDX-License-Identifier: MIT
// Which bytes a present writes again before its fsync on a framebuffer with deferred I/O.
//
// DRM's fbdev emulation learns what was drawn from page faults: 50 ms after the first write (or at
// our fsync) the pages written since the last run are write-protected again and their byte range
// becomes one damage rect, copied from the shadow buffer to the screen. Linux 6.1's
// drm_fb_helper_memory_range_to_clip narrows a range within one scanline to its columns and gives
// a range that ends exactly at a line's end x2 = 0 (end % line_length): an empty rect, never
// copied. At 1280x800, 32 bpp, every fifth page ends a line. When the worker runs while a present
// is still drawing (a full frame under emulation takes 500 ms), the rest of such a page is written
// after it, is the only page of the next run, and stays black on the screen (FBDevEndToEndTests
// saw the last 918 pixels of row 799 so, on bochs at 180°). So before the fsync one byte of every
// page of the rows drawn is written back to itself: pages still waiting cost nothing, pages the
// worker took mid-present fault again and join the last run, which then spans several rows and is
// copied whole. A damage one row high brings in the row below (or above, at the bottom) as well.

enum DeferredIOPages {
    /// Offsets into the mapping, one in each page that holds part of memory rows `rows`: the first
    /// byte of those rows, then each page boundary after it. `rows` one row high is widened to two
    /// within `screen`, the rows of the page on screen.
    /// Computed as it is walked: a present on every frame allocates nothing for it.
    static func offsets(rows: Range<Int>, screen: Range<Int>, rowBytes: Int, pageSize: Int) -> LazyMapSequence<StrideTo<Int>, Int> {
        guard !rows.isEmpty, rowBytes > 0, pageSize > 0 else { return stride(from: 0, to: 0, by: 1).lazy.map { $0 } }
        var rows = rows
        if rows.count == 1 {
            if rows.upperBound < screen.upperBound { rows = rows.lowerBound..<rows.upperBound + 1 }
            else if rows.lowerBound > screen.lowerBound { rows = rows.lowerBound - 1..<rows.upperBound }
        }
        let start = rows.lowerBound * rowBytes, end = rows.upperBound * rowBytes
        // The page `start` is in from its first byte on, then each page boundary up to `end`.
        return stride(from: start - start % pageSize, to: end, by: pageSize).lazy.map { max($0, start) }
    }
}
