// SPDX-License-Identifier: MIT
// Double-buffer bookkeeping: each page is brought up to date from the shadow frame alone.

import GoldenSupport
import Raster
import Testing

@testable import Display

@Suite("fbdev pages")
struct FBPagesTests {
    @Test func firstPresentIntoEachPageIsFullThenDamagePlusPrevious() {
        var pages = PageDamage(count: 2, front: 0)
        let d1 = [IntRect(x: 0, y: 0, width: 5, height: 5)]
        let d2 = [IntRect(x: 10, y: 10, width: 3, height: 3)]
        let d3 = [IntRect(x: 20, y: 0, width: 2, height: 2)]
        let t1 = pages.target(damage: d1)
        #expect(t1.page == 1 && t1.rects == nil)  // the back page holds the console
        pages.drawn(page: 1, damage: d1)
        #expect(pages.front == 1)
        #expect(pages.target(damage: d2).page == 0 && pages.target(damage: d2).rects == nil)  // page 0 never drawn
        pages.drawn(page: 0, damage: d2)
        let t3 = pages.target(damage: d3)
        #expect(t3.page == 1 && t3.rects == d2 + d3)  // page 1 missed frame 2's damage
        pages.drawn(page: 1, damage: d3)
        #expect(pages.target(damage: d1).rects == d3 + d1)
    }

    @Test func singlePageCopiesDamageOnlyAfterTheFirstFullCopy() {
        var pages = PageDamage(count: 1, front: 0)
        let d = [IntRect(x: 1, y: 1, width: 2, height: 2)]
        #expect(pages.target(damage: d).rects == nil)
        pages.drawn(page: 0, damage: d)
        #expect(pages.target(damage: d).page == 0 && pages.target(damage: d).rects == d)
    }

    @Test func duplicateAndContainedRectsAreCopiedOnce() {
        let spinner = IntRect(x: 40, y: 40, width: 20, height: 20)
        let inside = IntRect(x: 45, y: 45, width: 5, height: 5)
        #expect(PageDamage.simplified([spinner, inside, spinner, .zero]) == [spinner])
    }

    /// Two pages in memory driven like FBDevDisplay: after every present the shown page equals the
    /// frame, though each present copies only the rects PageDamage asks for.
    @Test func bothPagesStayConsistentOverManyFrames() {
        let w: Int32 = 32, h: Int32 = 24
        let frame = Pixmap(width: w, height: h)
        let pageMemory = [Pixmap(width: w, height: h), Pixmap(width: w, height: h)]
        for p in pageMemory { p.view.fill(p.view.bounds, with: PremultipliedColor(argb: 0xFF12_3456)) }  // "console"
        let surfaces = pageMemory.map {
            SurfaceView(base: $0.view.base, width: w, height: h, rowBytes: $0.view.rowBytes, format: .argb8888)
        }
        var pages = PageDamage(count: 2, front: 0)
        var rng: UInt32 = 12345
        func next(_ n: Int32) -> Int32 { rng = rng &* 1_103_515_245 &+ 12345; return Int32((rng >> 16) % UInt32(n)) }
        var copiedPixels: Int64 = 0
        for step in 0..<40 {
            // Change one or two random rects of the frame; that is this frame's damage.
            var damage: [IntRect] = []
            for _ in 0...(step % 2) {
                let r = IntRect(x: next(w - 4), y: next(h - 4), width: 1 + next(8), height: 1 + next(8))
                frame.view.fill(r, with: PremultipliedColor(argb: 0xFF00_0000 | UInt32(step * 6151 + Int(r.x)) & 0xFFFFFF))
                damage.append(r)
            }
            let (page, rects) = pages.target(damage: damage)
            for r in rects ?? [frame.view.bounds] {
                copiedPixels += convertingBlit(from: frame.view, rect: r, to: surfaces[page], rotation: .r0).area
            }
            pages.drawn(page: page, damage: damage)
            let wrong = pixelDifferences(pageMemory[page].pixels, frame.pixels).count
            #expect(wrong == 0, "step \(step): \(wrong) stale pixels on the shown page")
        }
        #expect(copiedPixels < 40 * Int64(w * h) / 2)  // far less than full copies
    }

    /// The usual frame's shortcut (one rect holding all the page missed) gives what simplifying the
    /// two lists together gives, whatever the rects: the same, inside, overlapping, empty.
    @Test func mergingTheMissedRectsWithTheDamageIsSimplifyingThemTogether() {
        var rng: UInt32 = 777
        func next(_ n: Int32) -> Int32 { rng = rng &* 1_103_515_245 &+ 12345; return Int32((rng >> 16) % UInt32(n)) }
        func rect() -> IntRect { IntRect(x: next(6), y: next(6), width: next(5), height: next(5)) }
        let spinner = IntRect(x: 10, y: 10, width: 8, height: 8)
        #expect(PageDamage.merged([spinner], [spinner]) == [spinner])
        #expect(PageDamage.merged([], [spinner]) == [spinner])
        for _ in 0..<2000 {
            let missed = (0..<next(4)).map { _ in rect() }
            let damage = (0..<1 + next(2)).map { _ in rect() }
            #expect(PageDamage.merged(missed, damage) == PageDamage.simplified(missed + damage), "\(missed) + \(damage)")
        }
    }
}
