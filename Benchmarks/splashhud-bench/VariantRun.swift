// SPDX-License-Identifier: MIT
// One variant's run: frame 0 in full (untimed), warm-up frames, then timed frames, with the four
// engines interleaved frame by frame and each timed on its own.
import Gallery
import Raster

final class VariantRun {
    let variant: ReferenceFrame.Variant
    let warmup: Int
    let timed: Int
    let splash: SplashEngine
    let cairo: CairoEngine
    let memory: MemoryEngine
    /// Frame 10 of each engine (SplashHUD, cairo), copied when it is drawn.
    private(set) var snapshots: (Pixmap, Pixmap)?

    init(variant: ReferenceFrame.Variant, warmup: Int, timed: Int) throws {
        self.variant = variant; self.warmup = warmup; self.timed = timed
        splash = try SplashEngine(variant)
        cairo = try CairoEngine(variant)
        memory = MemoryEngine(variant)
    }

    /// Both engines lay the status line out the same way, and as the spec says.
    func textAdvancesAgree(spec: Double) -> Bool {
        let ours = splash.scene.textAdvance.double, theirs = cairo.textAdvance
        let agree = abs(ours - theirs) < 1e-6 && abs(ours - spec) < 1e-6
        print("  \(variant.rawValue): text advance SplashHUD \(ours), cairo helper \(theirs), spec \(spec)"
              + (agree ? "" : "  FAIL"))
        return agree
    }

    /// Runs every frame; returns the timings and, for damage, how many pixels of the final canvas
    /// differ from a fresh full draw of the last frame (0 for full variants).
    func measure() throws -> (VariantTimings, Int) {
        let last = warmup + timed
        var s = [UInt64](), c = [UInt64](), ms = [UInt64](), mc = [UInt64]()
        s.reserveCapacity(timed); c.reserveCapacity(timed); ms.reserveCapacity(timed); mc.reserveCapacity(timed)
        splash.drawFull(frame: 0)
        try cairo.drawFull(frame: 0)
        var witness: UInt32 = 0
        for n in 1...last {
            var t0 = monotonicNanoseconds()
            splash.draw(frame: n)
            var t1 = monotonicNanoseconds()
            let splashTime = t1 - t0
            t0 = monotonicNanoseconds()
            try cairo.draw(frame: n)
            t1 = monotonicNanoseconds()
            let cairoTime = t1 - t0
            t0 = monotonicNanoseconds()
            memory.memsetFrame(n)
            t1 = monotonicNanoseconds()
            let setTime = t1 - t0
            t0 = monotonicNanoseconds()
            memory.memcpyFrame()
            t1 = monotonicNanoseconds()
            let copyTime = t1 - t0
            witness = witness &+ memory.witness
            if n > warmup {
                s.append(splashTime); c.append(cairoTime); ms.append(setTime); mc.append(copyTime)
            }
            if n == ReferenceFrameSample.frame { snapshots = (copy(splash.pixmap), copy(cairo.pixmap)) }
        }
        if witness == 0x1234_5678 { print("") } // keeps the memory calls observable
        var finalDiff = 0
        if variant == .damage1080 {
            let fresh = try SplashEngine(.full1080)
            fresh.draw(frame: last)
            finalDiff = differingPixels(splash.pixmap.view, fresh.pixmap.view)
        }
        let timings = VariantTimings(variant: variant.rawValue, frames: timed,
                                     splashhud: Summary(nanoseconds: s), cairo: Summary(nanoseconds: c),
                                     memset: Summary(nanoseconds: ms), memcpy: Summary(nanoseconds: mc))
        return (timings, finalDiff)
    }

    private func copy(_ p: Pixmap) -> Pixmap {
        let out = Pixmap(width: p.width, height: p.height)
        out.view.copy(out.view.bounds, from: p.view)
        return out
    }
}

enum ReferenceFrameSample {
    /// The frame written to PNG and compared between engines.
    static let frame = 10
}
