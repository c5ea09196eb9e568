// SPDX-License-Identifier: MIT
// Flattening: curves become polylines whose distance from the true curve stays within a
// tolerance (a tenth of a pixel by default, as cairo's). Segment counts come from the second
// differences of the control polygon (a Bézier's chord deviation with n equal steps is at most
// |B''|/(8n²)), and points are evaluated directly from the Bernstein form in 64-bit integers, so
// no error accumulates along a curve and the result is the same on every machine.

/// One flattened subpath.
public struct Contour: Hashable, Sendable {
    public var points: [Point]
    public var isClosed: Bool
    public init(points: [Point], isClosed: Bool) { self.points = points; self.isClosed = isClosed }
}

extension Path {
    /// A tenth of a pixel, in 16.16.
    public static let defaultTolerance = Fixed16_16(raw: 6554)

    /// The path as polylines (`tolerance` in the path's own units).
    public func flattened(tolerance: Fixed16_16 = Path.defaultTolerance) -> [Contour] {
        precondition(tolerance.raw > 0, "flattening tolerance must be positive")
        var out: [Contour] = []
        var pts: [Point] = []
        func finish(closed: Bool) {
            if !pts.isEmpty { out.append(Contour(points: pts, isClosed: closed)) }
            pts = []
        }
        var last = Point.zero
        for e in elements {
            switch e {
            case .move(let p):
                finish(closed: false); pts.append(p); last = p
            case .line(let p):
                if pts.isEmpty { pts.append(last) }
                pts.append(p); last = p
            case .quad(let c, let p):
                if pts.isEmpty { pts.append(last) }
                Self.flattenQuad(last, c, p, tolerance, into: &pts); last = p
            case .cubic(let c1, let c2, let p):
                if pts.isEmpty { pts.append(last) }
                Self.flattenCubic(last, c1, c2, p, tolerance, into: &pts); last = p
            case .close:
                if let first = pts.first { finish(closed: true); last = first }
            }
        }
        finish(closed: false)
        return out
    }

    /// ceil(sqrt(k · |dd| / tol)) steps, at least 1 and at most 1000.
    static func steps(_ dd: Int64, _ num: Int64, _ den: Int64, _ tol: Fixed16_16) -> Int64 {
        let q = (num * dd + den * Int64(tol.raw) - 1) / (den * Int64(tol.raw))
        var n = Int64(integerSquareRoot(UInt64(Swift.max(0, q))))
        if n * n < q { n += 1 }
        return Swift.min(1000, Swift.max(1, n))
    }

    /// sqrt(dx² + dy²), exact for |dx|, |dy| < 2^31 and scaled down beyond (never overflows).
    static func length(_ dx: Int64, _ dy: Int64) -> Int64 {
        var ax = dx.magnitude, ay = dy.magnitude, shift: UInt64 = 0
        while Swift.max(ax, ay) >= 1 << 31 { ax >>= 1; ay >>= 1; shift += 1 }
        return Int64(integerSquareRoot(ax * ax + ay * ay) << shift)
    }

    static func flattenQuad(_ p0: Point, _ p1: Point, _ p2: Point, _ tol: Fixed16_16, into pts: inout [Point]) {
        let ddx = Int64(p0.x.raw) - 2 * Int64(p1.x.raw) + Int64(p2.x.raw)
        let ddy = Int64(p0.y.raw) - 2 * Int64(p1.y.raw) + Int64(p2.y.raw)
        let n = steps(length(ddx, ddy), 1, 4, tol)  // |B''| = 2|dd|: deviation |dd|/(4n²)
        for i in 1..<n {
            let t = (i << 30) / n, mt = (1 << 30) - t
            let w0 = (mt * mt) >> 30, w1 = (2 * mt * t) >> 30, w2 = (t * t) >> 30
            pts.append(blend3(w0, w1, w2, p0, p1, p2))
        }
        pts.append(p2)
    }

    static func flattenCubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ tol: Fixed16_16, into pts: inout [Point]) {
        func dd(_ a: Point, _ b: Point, _ c: Point) -> Int64 {
            length(Int64(a.x.raw) - 2 * Int64(b.x.raw) + Int64(c.x.raw), Int64(a.y.raw) - 2 * Int64(b.y.raw) + Int64(c.y.raw))
        }
        let n = steps(Swift.max(dd(p0, p1, p2), dd(p1, p2, p3)), 3, 4, tol)  // |B''| <= 6|dd|: 3|dd|/(4n²)
        for i in 1..<n {
            let t = (i << 30) / n, mt = (1 << 30) - t
            let mt2 = (mt * mt) >> 30, t2 = (t * t) >> 30
            let w0 = (mt2 * mt) >> 30, w1 = (3 * mt2 * t) >> 30, w2 = (3 * mt * t2) >> 30, w3 = (t2 * t) >> 30
            let x = w0 * Int64(p0.x.raw) + w1 * Int64(p1.x.raw) + w2 * Int64(p2.x.raw) + w3 * Int64(p3.x.raw)
            let y = w0 * Int64(p0.y.raw) + w1 * Int64(p1.y.raw) + w2 * Int64(p2.y.raw) + w3 * Int64(p3.y.raw)
            pts.append(Point(x: Fixed16_16(wide: (x + (1 << 29)) >> 30), y: Fixed16_16(wide: (y + (1 << 29)) >> 30)))
        }
        pts.append(p3)
    }

    static func blend3(_ w0: Int64, _ w1: Int64, _ w2: Int64, _ a: Point, _ b: Point, _ c: Point) -> Point {
        let x = w0 * Int64(a.x.raw) + w1 * Int64(b.x.raw) + w2 * Int64(c.x.raw)
        let y = w0 * Int64(a.y.raw) + w1 * Int64(b.y.raw) + w2 * Int64(c.y.raw)
        return Point(x: Fixed16_16(wide: (x + (1 << 29)) >> 30), y: Fixed16_16(wide: (y + (1 << 29)) >> 30))
    }
}
