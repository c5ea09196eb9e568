// SPDX-License-Identifier: MIT
// Correctness checks printed with the timings: damage redraws must equal full draws (a failure),
// and how closely SplashHUD and cairo agree on the same frame (information: AA differs).
import Foundation
import Gallery
import Raster

/// Pixels of `rect` that differ between two same-sized views.
func differingPixels(_ a: PixmapView, _ b: PixmapView, in rect: IntRect? = nil) -> Int {
    let r = rect ?? a.bounds
    var count = 0
    for y in r.y..<r.maxY {
        let ra = a.row(y), rb = b.row(y)
        for x in Int(r.x)..<Int(r.maxX) where ra[x] != rb[x] { count += 1 }
    }
    return count
}

enum DamageCheck {
    /// Applies damage frame n to a canvas holding full frame n−1 and compares with a fresh full
    /// draw of frame n, for every n in `frames` (chained: the canvas keeps accumulating damage).
    /// Returns the frames that differ, with their differing-pixel counts.
    static func splashhud(frames: ClosedRange<Int>) throws -> [(frame: Int, pixels: Int)] {
        let damaged = try SplashEngine(.damage1080)
        let fresh = try SplashEngine(.full1080)
        damaged.drawFull(frame: frames.lowerBound - 1)
        var bad: [(Int, Int)] = []
        for n in frames {
            damaged.draw(frame: n)
            fresh.draw(frame: n)
            let d = differingPixels(damaged.pixmap.view, fresh.pixmap.view)
            if d != 0 { bad.append((n, d)) }
        }
        return bad
    }

    /// The same for cairo (information only: it checks the harness, not SplashHUD).
    static func cairo(frames: ClosedRange<Int>) throws -> [(frame: Int, pixels: Int)] {
        let damaged = try CairoEngine(.damage1080)
        let fresh = try CairoEngine(.full1080)
        try damaged.drawFull(frame: frames.lowerBound - 1)
        var bad: [(Int, Int)] = []
        for n in frames {
            try damaged.draw(frame: n)
            try fresh.draw(frame: n)
            let d = differingPixels(damaged.pixmap.view, fresh.pixmap.view)
            if d != 0 { bad.append((n, d)) }
        }
        return bad
    }
}

/// Per-channel differences between two renderings over a region.
struct Agreement {
    var pixels = 0
    var over8 = 0
    var over32 = 0
    var maxDifference: UInt32 = 0
    var sumDifference: UInt64 = 0

    init(_ a: PixmapView, _ b: PixmapView, in rect: IntRect, skipRows: Range<Int32>? = nil) {
        for y in rect.y..<rect.maxY {
            if let skip = skipRows, skip.contains(y) { continue }
            let ra = a.row(y), rb = b.row(y)
            for x in Int(rect.x)..<Int(rect.maxX) {
                var worst: UInt32 = 0
                for shift in stride(from: UInt32(0), through: 24, by: 8) {
                    let ca = (ra[x] >> shift) & 0xFF, cb = (rb[x] >> shift) & 0xFF
                    let d = ca > cb ? ca - cb : cb - ca
                    sumDifference += UInt64(d)
                    worst = Swift.max(worst, d)
                }
                pixels += 1
                if worst > 8 { over8 += 1 }
                if worst > 32 { over32 += 1 }
                maxDifference = Swift.max(maxDifference, worst)
            }
        }
    }

    var meanDifference: Double { pixels == 0 ? 0 : Double(sumDifference) / Double(pixels * 4) }
    var over32Fraction: Double { pixels == 0 ? 0 : Double(over32) / Double(pixels) }

    var line: String {
        String(format: "%8d px: %6d differ by >8 (%.3f%%), %6d by >32 (%.3f%%), max %3u, mean |d| %.4f",
               pixels, over8, 100 * Double(over8) / Double(Swift.max(pixels, 1)), over32, 100 * over32Fraction,
               maxDifference, meanDifference)
    }
}

enum AgreementReport {
    /// The rows of the status text (em box with room for descenders) inside the bezel.
    static func textRows(_ g: ReferenceFrame.Geometry) -> Range<Int32> {
        let size = g.textSize.double, base = g.baseline.double
        return Int32((base - 1.05 * size).rounded(.down))..<Int32((base + 0.35 * size).rounded(.up))
    }

    /// Prints the comparison of frame 10; returns false when the bezel region (without the text
    /// rows) differs grossly, which points at a geometry bug rather than anti-aliasing.
    static func print(variant: ReferenceFrame.Variant, splash: PixmapView, cairo: PixmapView) -> Bool {
        let g = ReferenceFrame.geometry(variant)
        let bezel = g.bezel.enclosingPixels
        let rows = textRows(g)
        let text = IntRect(x: bezel.x, y: rows.lowerBound, width: bezel.width, height: Int32(rows.count))
        let whole = Agreement(splash, cairo, in: splash.bounds)
        let shapes = Agreement(splash, cairo, in: bezel, skipRows: rows)
        let glyphs = Agreement(splash, cairo, in: text)
        Swift.print("  \(variant.rawValue) frame 10, splashhud vs cairo (per channel, premultiplied):")
        Swift.print("    whole canvas     \(whole.line)")
        Swift.print("    bezel w/o text   \(shapes.line)")
        Swift.print("    text rows \(rows.lowerBound)..<\(rows.upperBound) \(glyphs.line)")
        if shapes.over32Fraction > 0.02 {
            Swift.print("    WARNING: >2% of the bezel region differs by >32: geometry mismatch, not anti-aliasing")
            return false
        }
        return true
    }
}
