// SPDX-License-Identifier: MIT
// Golden frames and pixel checks for every indicator (hud-behaviour.md A7, B4).
import Foundation
import GoldenSupport
import HUD
import Raster
import Testing

@Suite("Draw indicators")
struct DrawIndicatorTests {
    typealias H = DrawHarness

    /// A7: the flat spinner at phases 0, ¼, ½, ¾ of its 1 s loop (no text: r = 24).
    @Test(arguments: [0, 250, 500, 750])
    func spinnerPhases(_ ms: Int64) throws {
        _ = try H.expect(H.presentation(.spinner(elapsed: .milliseconds(ms))), "spinner-\(ms)")
    }

    /// The same at scale 2 with a status (r = 18): sharp, not upscaled.
    @Test func spinnerAtScale2() throws {
        _ = try H.expect(H.presentation(.spinner(elapsed: .milliseconds(250)), status: "Loading"), "spinner-250-2x",
                         width: 640, height: 480, scale: 2)
    }

    /// A7: tail at α≈0, head at α≈1 leading clockwise. At phase 0 the arc runs from 10.8° to
    /// 349.2° clockwise from 12 o'clock; the mask's alpha there is ≈0.02 and ≈0.98.
    @Test func spinnerHeadIsOpaqueAndTailFaint() throws {
        let r = try H.render(H.presentation(.spinner(elapsed: .zero)))
        let c = r.layout.indicatorCenter
        func sample(_ degrees: Double) -> Int {
            // A point on the arc (r = 24) `degrees` clockwise from 12 o'clock.
            let a = (degrees - 90) * Double.pi / 180
            return H.luma(r.pixmap, Int32(c.x.double + 24 * cos(a)), Int32(c.y.double + 24 * sin(a)))
        }
        let bezel = H.luma(r.pixmap, c.x.floor, c.y.floor)
        #expect(sample(340) < bezel / 4, "the head is nearly black")
        #expect(sample(20) > bezel * 9 / 10, "the tail is nearly invisible")
        #expect(sample(180) < sample(90) && sample(270) < sample(180), "alpha rises clockwise")
        #expect(sample(355) > sample(340), "the gap before 12 o'clock is empty")
    }

    /// The spinner advances a quarter turn in 250 ms: the head sample moves with it.
    @Test func spinnerTurnsClockwise() throws {
        let quarter = try H.render(H.presentation(.spinner(elapsed: .milliseconds(250))))
        let c = quarter.layout.indicatorCenter
        // Head now near 340° + 90° = 70°; 12 o'clock + 40° is the faint tail.
        let a70 = (70.0 - 90) * Double.pi / 180, a100 = (110.0 - 90) * Double.pi / 180
        let head = H.luma(quarter.pixmap, Int32(c.x.double + 24 * cos(a70)), Int32(c.y.double + 24 * sin(a70)))
        let tail = H.luma(quarter.pixmap, Int32(c.x.double + 24 * cos(a100)), Int32(c.y.double + 24 * sin(a100)))
        #expect(head < tail / 3)
    }

    /// The 12-petal activity indicator (SV native) at two phases: the bright petal steps clockwise
    /// once every 1/12 s.
    @Test(arguments: [0, 417])
    func native(_ ms: Int64) throws {
        _ = try H.expect(H.presentation(.activity(elapsed: .milliseconds(ms))) { $0.spinner = .native }, "native-\(ms)")
    }

    @Test func nativeHeadSteps() throws {
        let a = try H.render(H.presentation(.activity(elapsed: .zero)) { $0.spinner = .native })
        let c = a.layout.indicatorCenter
        let top = H.luma(a.pixmap, c.x.floor, c.y.floor - 13)  // petal 0, the head at 0 s
        let right = H.luma(a.pixmap, c.x.floor + 13, c.y.floor)  // petal 3
        let left = H.luma(a.pixmap, c.x.floor - 13, c.y.floor)  // petal 9, 3 behind the head
        #expect(top < left && left < right, "head darkest, then the petals just behind it")
        let later = try H.render(H.presentation(.activity(elapsed: .milliseconds(250))) { $0.spinner = .native })
        #expect(H.luma(later.pixmap, c.x.floor + 13, c.y.floor) < H.luma(later.pixmap, c.x.floor, c.y.floor - 13),
                "after 3/12 s the head is at 3 o'clock")
    }

    /// A7: the ring at 0, 0.3 and 1, its α0.1 track on top.
    @Test(arguments: [0, 30, 100])
    func ring(_ percent: Int32) throws {
        let p = H.presentation(.ring(progress: Fixed16_16(Double(percent) / 100)), status: percent == 30 ? "Uploading" : nil)
        _ = try H.expect(p, "ring-\(percent)")
    }

    /// The track is drawn over the progress: at p = 1 every ring pixel is the ring colour with
    /// the track over it, the same as where the progress is at p = 0.3.
    @Test func ringTrackIsOnTop() throws {
        let full = try H.render(H.presentation(.ring(progress: .one)))
        let c = full.layout.indicatorCenter
        let top = full.pixmap[c.x.floor, c.y.floor - 24], bottom = full.pixmap[c.x.floor, c.y.floor + 23]
        #expect(top == bottom)
        let empty = try H.render(H.presentation(.ring(progress: .zero)))
        let track = H.luma(empty.pixmap, c.x.floor, c.y.floor - 24), bezel = H.luma(empty.pixmap, c.x.floor, c.y.floor)
        #expect(track < bezel && track > bezel - 3 * 30, "a faint track only (α0.1 black)")
    }

    /// B4: pie, annular and bar at 0.6, and MB's indeterminate petals.
    @Test func mbDeterminate() throws {
        _ = try H.expect(H.mb(.determinate, .pie(progress: Fixed16_16(0.6))), "mb-pie-60")
        _ = try H.expect(H.mb(.annular, .annular(progress: Fixed16_16(0.6))), "mb-annular-60")
        _ = try H.expect(H.mb(.bar, .bar(progress: Fixed16_16(0.6))), "mb-bar-60")
        _ = try H.expect(H.mb(.indeterminate, .activity(elapsed: .milliseconds(100))), "mb-indeterminate")
    }

    /// B4: MB's pie is a thick arc inside an outline, never a filled wedge: the middle of the view
    /// is bezel; the progress arc (r 14.5…18.5) covers the outline (r 16.5…18.5) without doubling
    /// its alpha (copy blend).
    @Test func mbPieIsNotAWedge() throws {
        let r = try H.render(H.mb(.determinate, .pie(progress: Fixed16_16(0.6))), scale: 1)
        let c = r.layout.indicatorCenter
        let centre = r.pixmap[c.x.floor, c.y.floor], nearCentre = r.pixmap[c.x.floor + 6, c.y.floor - 6]
        #expect(centre == nearCentre, "inside the arc is bezel")
        // 3 o'clock is inside the progress (0.6 of a turn from 12): the arc band at r≈15.5 is
        // content colour; 9 o'clock (0.75) is outside: only the outline at r≈17.5.
        let arcInner = r.pixmap[c.x.floor + 15, c.y.floor], outsideInner = r.pixmap[c.x.floor - 16, c.y.floor]
        #expect(arcInner != centre && outsideInner == centre)
        // Where arc and outline overlap, the colour equals the arc alone (no doubled alpha).
        #expect(r.pixmap[c.x.floor + 17, c.y.floor] == arcInner)
    }

    /// B4: the bar's fill reaches x = p·W inside the 4 pt inset; the rest is clear.
    @Test func mbBarFillEndsAtProgress() throws {
        let r = try H.render(H.mb(.bar, .bar(progress: Fixed16_16(0.6))))
        let f = r.layout.contentFrame
        let y = f.midY.floor
        let filled = r.pixmap[f.minX.floor + 50, y], unfilled = r.pixmap[f.minX.floor + 90, y]
        let inside = r.pixmap[f.minX.floor + 72 - 2, y], beyond = r.pixmap[f.minX.floor + 72 + 2, y]
        #expect(filled == inside && unfilled == beyond && filled != unfilled)
    }
}
