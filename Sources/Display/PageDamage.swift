// SPDX-License-Identifier: MIT
// Page damage: double buffering (fbdev panning, DRM page flips) without reading scanout memory back.
//
// With two pages, present draws into the hidden (back) page and pans to it. The back page last
// received the frame before the previous one, so the damage of this frame alone would leave it
// stale wherever the previous frame changed. Copying the front page into the back page would fix
// that but reads framebuffer memory, which is uncached or write-combined and very slow to read.
// Instead each page keeps the list of rects it has missed since it was last drawn, and present
// copies those from the shadow frame (which always holds the complete newest picture) along with
// the new damage: with two pages that is this frame's damage plus the previous frame's. A page
// that never received a frame (it holds the console or garbage) is copied whole, so the first
// present into each page is a full copy. A spinner's damage is the same rect frame after frame;
// exact duplicates and rects inside others are dropped so it is copied once.

import Raster

/// Which page (fbdev pan offset or DRM buffer) is shown and what each page lacks; pure
/// bookkeeping, no memory access.
struct PageDamage: Equatable {
    /// Number of pages (1 = single buffered: draw into the visible page).
    let count: Int
    /// The page on screen.
    private(set) var front: Int
    /// Per page, the frame rects it lacks; nil = the whole page.
    private var stale: [[IntRect]?]

    init(count: Int, front: Int) {
        precondition(count >= 1 && front >= 0 && front < count, "bad page set \(front) of \(count)")
        self.count = count; self.front = front
        stale = Array(repeating: nil, count: count)
    }

    /// The page to draw this frame into and the rects to copy there (nil = the whole frame).
    /// Call `drawn(page:damage:)` after copying.
    func target(damage: [IntRect]) -> (page: Int, rects: [IntRect]?) {
        let page = count == 1 ? front : (front + 1) % count
        guard let missed = stale[page] else { return (page, nil) }
        return (page, PageDamage.merged(missed, damage))
    }

    /// Records that `page` now holds the newest frame and every other page lacks `damage`;
    /// the caller then shows `page` (pans to it).
    mutating func drawn(page: Int, damage: [IntRect]) {
        stale[page] = []
        for p in 0..<count where p != page {
            if let missed = stale[p] { stale[p] = PageDamage.merged(missed, damage) }
        }
        front = page
    }

    /// Forgets what every page holds (after a mode change or a lost pan): all copies become full.
    mutating func invalidateAll() {
        stale = Array(repeating: nil, count: count)
    }

    /// `simplified(missed + damage)`. A spinner's frame, one rect that holds all the page missed (the
    /// same rect, from the frame before), is that rect: no array is built for it.
    static func merged(_ missed: [IntRect], _ damage: [IntRect]) -> [IntRect] {
        if damage.count == 1, !damage[0].isEmpty, missed.allSatisfy(damage[0].contains) { return damage }
        return simplified(missed + damage)
    }

    /// `rects` without empty ones, duplicates and rects contained in another (order kept).
    static func simplified(_ rects: [IntRect]) -> [IntRect] {
        let nonEmpty = rects.filter { !$0.isEmpty }
        var out: [IntRect] = []
        for (i, r) in nonEmpty.enumerated() {
            let covered = nonEmpty.enumerated().contains { j, o in
                j != i && o.contains(r) && (o != r || j < i)
            }
            if !covered { out.append(r) }
        }
        return out
    }
}
