// SPDX-License-Identifier: MIT
// Trimming by fractions of length, as CAShapeLayer's strokeStart/strokeEnd do: the fractions are
// of the whole path's length (every subpath, closing segments included, in order), and what is
// kept is open. SVProgressHUD's spinner is a two-turn arc trimmed to 0.015...0.485 and the like,
// so the trim must follow a path that winds round a circle twice.

extension Contour {
    /// Length of each segment (closing segment last when closed), in 16.16.
    func segmentLengths() -> [Int64] {
        var out: [Int64] = []
        let n = points.count
        if n < 2 { return out }
        let segs = isClosed ? n : n - 1
        out.reserveCapacity(segs)
        for i in 0..<segs {
            let a = points[i], b = points[(i + 1) % n]
            out.append(Path.length(Int64(b.x.raw) - Int64(a.x.raw), Int64(b.y.raw) - Int64(a.y.raw)))
        }
        return out
    }
}

extension Array where Element == Contour {
    /// Total length of all contours, in 16.16 units (64-bit: a long path can exceed 32767).
    public var totalLength: Int64 { reduce(0) { $0 + $1.segmentLengths().reduce(0, +) } }

    /// The part of these contours between `start` and `end` (fractions of the total length, 0...1,
    /// in 16.16). Returns open contours; `start >= end` gives nothing, as in Core Animation.
    public func trimmed(start: Fixed16_16, end: Fixed16_16) -> [Contour] {
        let s0 = Swift.max(0, Swift.min(Int64(start.raw), 65536))
        let s1 = Swift.max(0, Swift.min(Int64(end.raw), 65536))
        if s0 >= s1 { return [] }
        if s0 == 0 && s1 == 65536 { return self }
        let total = totalLength
        if total == 0 { return [] }
        let from = (total * s0 + 32768) >> 16, to = (total * s1 + 32768) >> 16
        var out: [Contour] = []
        var walked: Int64 = 0
        for c in self {
            let lengths = c.segmentLengths()
            let n = c.points.count
            var pts: [Point] = []
            for (i, len) in lengths.enumerated() {
                let a = c.points[i], b = c.points[(i + 1) % n]
                let segStart = walked, segEnd = walked + len
                walked = segEnd
                if segEnd < from || segStart > to || len == 0 { continue }
                if pts.isEmpty { pts.append(Self.lerp(a, b, Swift.max(0, from - segStart), len)) }
                if segEnd <= to {
                    pts.append(b)
                } else {
                    pts.append(Self.lerp(a, b, to - segStart, len))
                    break
                }
            }
            if pts.count >= 2 { out.append(Contour(points: pts, isClosed: false)) }
            if walked > to { break }
        }
        return out
    }

    static func lerp(_ a: Point, _ b: Point, _ d: Int64, _ len: Int64) -> Point {
        if d <= 0 { return a }
        if d >= len { return b }
        let x = Int64(a.x.raw) + roundedDivide((Int64(b.x.raw) - Int64(a.x.raw)) * d, len)
        let y = Int64(a.y.raw) + roundedDivide((Int64(b.y.raw) - Int64(a.y.raw)) * d, len)
        return Point(x: Fixed16_16(wide: x), y: Fixed16_16(wide: y))
    }
}
