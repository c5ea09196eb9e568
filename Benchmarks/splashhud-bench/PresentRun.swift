// SPDX-License-Identifier: MIT
// The cost of getting a finished frame onto the screen: MemoryDisplay.present (convertingBlit into
// an XRGB8888 scanout, the same code fbdev and DRM run into their mmap'd buffers) for a full frame
// and for the spinner's damage (a 48x48 box), each against memcpy of the same bytes (the whole
// buffer; the box's 48 rows of 192 bytes at the same strides) measured in the same run, the four
// interleaved and their order alternated frame by frame so neither side owns a warm cache.
// Target: a full-frame present at most 1.2x memcpy.
import Display
import Foundation
import Raster

struct PresentTimings {
    var name: String
    var width, height: Int32
    var frames: Int
    /// Presents per damage sample: one 48x48 copy is about a microsecond, so samples time a batch
    /// and report per present.
    var damageBatch: Int
    var full, fullMemcpy, damage, damageMemcpy: Summary

    var fullRatio: (median: Double, p90: Double) { (full.median / fullMemcpy.median, full.p90 / fullMemcpy.p90) }
    var damageRatio: (median: Double, p90: Double) { (damage.median / damageMemcpy.median, damage.p90 / damageMemcpy.p90) }

    static let targetFullRatio = 1.2
    static let box: Int32 = 48

    var json: [String: Any] {
        ["width": width, "height": height, "format": "XRGB8888", "timed_frames": frames, "damage_batch": damageBatch,
         "full_present_ms": full.median, "full_present_p90_ms": full.p90,
         "full_memcpy_ms": fullMemcpy.median, "full_memcpy_p90_ms": fullMemcpy.p90,
         "full_ratio_vs_memcpy": fullRatio.median, "full_ratio_vs_memcpy_p90": fullRatio.p90,
         "damage_present_ms": damage.median, "damage_present_p90_ms": damage.p90,
         "damage_memcpy_ms": damageMemcpy.median, "damage_memcpy_p90_ms": damageMemcpy.p90,
         "damage_ratio_vs_memcpy": damageRatio.median, "damage_ratio_vs_memcpy_p90": damageRatio.p90,
         "damage_box_px": Int(Self.box * Self.box), "target_full_ratio": Self.targetFullRatio]
    }

    static func table(_ runs: [PresentTimings]) -> String {
        var lines = ["present (MemoryDisplay, XRGB8888)   median ms     p90 ms    ratio vs memcpy (median / p90)",
                     String(repeating: "-", count: 92)]
        for r in runs {
            func row(_ what: String, _ s: Summary, _ ratio: (median: Double, p90: Double)?) -> String {
                let label = "\(r.name) \(what)".padding(toLength: 34, withPad: " ", startingAt: 0)
                let tail = ratio.map { String(format: "    %.3f / %.3f", $0.median, $0.p90) } ?? ""
                return "\(label) \(Report.ms(s.median))  \(Report.ms(s.p90))\(tail)"
            }
            lines.append(row("full present", r.full, r.fullRatio))
            lines.append(row("full memcpy", r.fullMemcpy, nil))
            lines.append(row("48x48 present", r.damage, r.damageRatio))
            lines.append(row("48x48 memcpy", r.damageMemcpy, nil))
            let verdict = r.fullRatio.median <= targetFullRatio ? "meets" : "MISSES"
            lines.append(String(format: "  %dx%d, %d frames (damage: batches of %d); full frame %@ the ≤ %.1fx memcpy target",
                                r.width, r.height, r.frames, r.damageBatch, verdict, targetFullRatio))
        }
        return lines.joined(separator: "\n")
    }

    /// 1080p and 4K, in that order.
    static func measureAll(frames: Int, warmup: Int) throws -> [PresentTimings] {
        try [("present-1080", Int32(1920), Int32(1080)), ("present-4k", Int32(3840), Int32(2160))].map {
            try measure(name: $0.0, width: $0.1, height: $0.2, frames: frames, warmup: warmup)
        }
    }

    static func measure(name: String, width: Int32, height: Int32, frames: Int, warmup: Int) throws -> PresentTimings {
        let frame = Pixmap(width: width, height: height)
        // Opaque, varied content (a HUD frame is opaque: the backdrop is drawn first).
        for y in 0..<height {
            let row = frame.view.row(y)
            for x in 0..<width { row[Int(x)] = 0xFF00_0000 | (UInt32(truncatingIfNeeded: x) &* 2_654_435_761 ^ UInt32(truncatingIfNeeded: y)) & 0x00FF_FFFF }
        }
        let display = MemoryDisplay(width: width, height: height, format: .xrgb8888, refreshMillihertz: nil)
        let bytes = Int(height) * frame.view.rowBytes
        let copy = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
        defer { copy.deallocate() }
        copy.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        let whole = frame.view.bounds
        let box = IntRect(x: width / 2 - Self.box / 2, y: height / 2 - Self.box / 2, width: Self.box, height: Self.box)
        let batch = 16
        let src = UnsafeRawPointer(frame.view.base), rowBytes = frame.view.rowBytes

        func presentFull() throws -> UInt64 {
            let t0 = monotonicNanoseconds()
            _ = try display.present(frame.view, damage: [whole])
            return monotonicNanoseconds() - t0
        }
        func memcpyFull() -> UInt64 {
            let t0 = monotonicNanoseconds()
            copy.copyMemory(from: src, byteCount: bytes)
            return monotonicNanoseconds() - t0
        }
        func presentBox() throws -> UInt64 {
            let t0 = monotonicNanoseconds()
            for _ in 0..<batch { _ = try display.present(frame.view, damage: [box]) }
            return (monotonicNanoseconds() - t0) / UInt64(batch)
        }
        func memcpyBox() -> UInt64 {
            let t0 = monotonicNanoseconds()
            for _ in 0..<batch {
                for y in box.y..<box.maxY {
                    let offset = Int(y) * rowBytes + Int(box.x) * 4
                    (copy + offset).copyMemory(from: src + offset, byteCount: Int(box.width) * 4)
                }
            }
            return (monotonicNanoseconds() - t0) / UInt64(batch)
        }

        var f: [UInt64] = [], fm: [UInt64] = [], d: [UInt64] = [], dm: [UInt64] = []
        for n in 0..<(warmup + frames) {
            let a: UInt64, b: UInt64, c: UInt64, e: UInt64
            if n % 2 == 0 {
                a = try presentFull(); b = memcpyFull(); c = try presentBox(); e = memcpyBox()
            } else {
                b = memcpyFull(); a = try presentFull(); e = memcpyBox(); c = try presentBox()
            }
            if n >= warmup { f.append(a); fm.append(b); d.append(c); dm.append(e) }
        }
        // The scanout must hold the frame: XRGB8888 is the source word, little-endian, X byte 0xFF.
        let shown = display.scanoutBytes
        for y in 0..<height {
            let row = frame.view.row(y)
            for x in 0..<Int(width) {
                let i = (Int(y) * Int(width) + x) * 4
                let word = UInt32(shown[i]) | UInt32(shown[i + 1]) << 8 | UInt32(shown[i + 2]) << 16 | UInt32(shown[i + 3]) << 24
                guard word == row[x] | 0xFF00_0000 else { throw PresentCheckFailure(name: name) }
            }
        }
        return PresentTimings(name: name, width: width, height: height, frames: frames, damageBatch: batch,
                              full: Summary(nanoseconds: f), fullMemcpy: Summary(nanoseconds: fm),
                              damage: Summary(nanoseconds: d), damageMemcpy: Summary(nanoseconds: dm))
    }
}

struct PresentCheckFailure: Error, CustomStringConvertible {
    var name: String
    var description: String { "\(name): the memory display's scanout does not equal the presented frame" }
}
