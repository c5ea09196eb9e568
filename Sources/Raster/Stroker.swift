// SPDX-License-Identifier: MIT
// The stroker turns flattened contours into outline polygons filled with the non-zero rule.
//
// An open contour becomes one polygon: the left offset forwards, the end cap, the right offset
// backwards, the start cap. A closed contour becomes two loops, the left offset forwards and the
// right offset backwards, so the non-zero rule leaves the inside hollow. At each vertex the outer
// side gets the join (miter within the limit, else bevel; round; bevel) and the inner side the
// intersection of the two offset lines when it lies on both segments, else a detour through the
// vertex (Skia's rule: the overlap it makes is inside the stroke, where non-zero hides it).

public enum LineCap: Sendable { case butt, round, square }
public enum LineJoin: Sendable { case miter, round, bevel }

public struct StrokeStyle: Sendable, Hashable {
    public var width: Fixed16_16
    public var cap: LineCap
    public var join: LineJoin
    /// Ratio of miter length to width beyond which a miter becomes a bevel (CoreGraphics: 10).
    public var miterLimit: Fixed16_16
    public init(width: Fixed16_16, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Fixed16_16 = Fixed16_16(Int32(10))) {
        self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
    }
}

public enum Stroker {
    /// Outline polygons of `contours` stroked with `style`; `tolerance` sets round joins' and caps' steps.
    public static func stroke(_ contours: [Contour], style: StrokeStyle, tolerance: Fixed16_16 = Path.defaultTolerance) -> [[Point]] {
        let hw = Int64(style.width.raw) / 2
        if hw <= 0 { return [] }
        var out: [[Point]] = []
        for c in contours {
            // Points closer than 1/256 px to the previous one carry no direction worth trusting
            // (a closed arc's last point lands a rounding step from its first).
            var pts: [V] = []
            pts.reserveCapacity(c.points.count)
            for p in c.points {
                let v = V(Int64(p.x.raw), Int64(p.y.raw))
                if let last = pts.last, Self.isNear(last, v) { continue }
                pts.append(v)
            }
            if c.isClosed && pts.count > 1 && Self.isNear(pts[0], pts[pts.count - 1]) { pts.removeLast() }
            let s = Side(hw: hw, style: style, tolerance: Int64(tolerance.raw))
            if pts.count == 1 {
                if let dot = s.point(pts[0]) { out.append(dot) }
            } else if c.isClosed && pts.count > 2 {
                out.append(s.loop(pts))
                out.append(s.loop(pts.reversed()))
            } else {
                out.append(s.open(pts))
            }
        }
        return out
    }

    /// A 2-D integer vector in 16.16.
    struct V: Equatable {
        var x, y: Int64
        init(_ x: Int64, _ y: Int64) { self.x = x; self.y = y }
        static func + (a: V, b: V) -> V { V(a.x + b.x, a.y + b.y) }
        static func - (a: V, b: V) -> V { V(a.x - b.x, a.y - b.y) }
        static prefix func - (a: V) -> V { V(-a.x, -a.y) }
        var point: Point { Point(x: Fixed16_16(wide: x), y: Fixed16_16(wide: y)) }
        /// This vector scaled to `length` (16.16).
        func scaled(to length: Int64) -> V {
            let l = Path.length(x, y)
            if l == 0 { return V(0, 0) }
            return V(roundedDivide(x * length, l), roundedDivide(y * length, l))
        }
        /// Turned a quarter turn clockwise on screen (y down): the left side of travel is −normal.
        var normal: V { V(-y, x) }
    }
    static func isNear(_ a: V, _ b: V) -> Bool { Swift.abs(a.x - b.x) < 256 && Swift.abs(a.y - b.y) < 256 }
    static func cross(_ a: V, _ b: V) -> Int64 { (a.x >> 8) * (b.y >> 8) - (a.y >> 8) * (b.x >> 8) }
    static func dot(_ a: V, _ b: V) -> Int64 { (a.x >> 8) * (b.x >> 8) + (a.y >> 8) * (b.y >> 8) }

    struct Side {
        let hw: Int64
        let style: StrokeStyle
        let tolerance: Int64

        /// Offset of a segment a→b by the half width, on its right side of travel (y down).
        func offset(_ a: V, _ b: V) -> V { (b - a).normal.scaled(to: hw) }

        /// The right-hand offset of an open polyline forwards then backwards, with caps.
        func open(_ p: [V]) -> [Point] {
            var out = Outline(capacity: 2 * p.count + 16)
            walk(p, into: &out, closed: false)
            cap(at: p[p.count - 1], direction: p[p.count - 1] - p[p.count - 2], into: &out)
            walk(p.reversed(), into: &out, closed: false)
            cap(at: p[0], direction: p[0] - p[1], into: &out)
            return out.points
        }

        /// One side of a closed polyline, all the way round.
        func loop(_ p: [V]) -> [Point] {
            var out = Outline(capacity: p.count + 8)
            walk(p, into: &out, closed: true)
            return out.points
        }

        /// The right-hand offset along `p`, with joins at interior vertices (and at every vertex when closed).
        func walk(_ p: [V], into out: inout Outline, closed: Bool) {
            let n = p.count
            // Each segment's offset once (segment i runs from p[i] to p[i + 1], wrapping when closed).
            let segments = closed ? n : n - 1
            var offsets: [V] = []
            offsets.reserveCapacity(segments)
            for i in 0..<segments { offsets.append(offset(p[i], p[(i + 1) % n])) }
            if closed {
                for i in 0..<n {
                    let before = (i + n - 1) % n
                    join(p[before], p[i], p[(i + 1) % n], offsets[before], offsets[i], into: &out)
                }
            } else {
                out.append(p[0] + offsets[0])
                for i in 1..<(n - 1) { join(p[i - 1], p[i], p[i + 1], offsets[i - 1], offsets[i], into: &out) }
                out.append(p[n - 1] + offsets[n - 2])
            }
        }

        /// The right-hand side at vertex b between segments a→b and b→c, whose offsets are n0 and n1.
        func join(_ a: V, _ b: V, _ c: V, _ n0: V, _ n1: V, into out: inout Outline) {
            let d0 = b - a, d1 = c - b
            let turn = cross(d0, d1)
            if turn == 0 && dot(d0, d1) >= 0 {  // straight on
                out.append(b + n0); return
            }
            // The right side is outside the bend when the path turns left (counter-clockwise on screen).
            if turn <= 0 {
                outerJoin(b, n0, n1, into: &out)
            } else {
                innerJoin(a, b, c, n0, n1, into: &out)
            }
        }

        func outerJoin(_ b: V, _ n0: V, _ n1: V, into out: inout Outline) {
            switch style.join {
            case .bevel:
                out.append(b + n0); out.append(b + n1)
            case .round:
                out.append(b + n0); arc(center: b, from: n0, to: n1, into: &out); out.append(b + n1)
            case .miter:
                // Miter tip at b + m, m = (n0 + n1)·hw² / (n0·n1 + hw²); its length/width = 1/cos(θ/2).
                let sum = n0 + n1
                let cosTheta = dot(n0, n1)  // hw²·cos θ in 16.16² >> 16
                let hw2 = (hw >> 8) * (hw >> 8)
                let denom = cosTheta + hw2  // hw²(1 + cos θ) = 2hw²cos²(θ/2)
                let limit = Int64(style.miterLimit.raw)
                // (miter length / width)² = 1/cos²(θ/2) = 2hw² / denom; compare with limit².
                if denom > 0 && (2 * hw2) * 65536 <= ((limit * limit) >> 16) * denom {
                    // b + n0 and b + n1 lie on the lines through the tip: the tip alone is the join.
                    let m = V(roundedDivide(sum.x * hw2, denom), roundedDivide(sum.y * hw2, denom))
                    out.append(b + m)
                } else {
                    out.append(b + n0); out.append(b + n1)
                }
            }
        }

        func innerJoin(_ a: V, _ b: V, _ c: V, _ n0: V, _ n1: V, into out: inout Outline) {
            // Intersect (b + n0) + s·(b − a) with (b + n1) + t·(c − b): s ≤ 0 ≤ t within the segments.
            let d0 = b - a, d1 = c - b
            let den = cross(d0, d1)
            if den != 0 {
                let w = n1 - n0
                let sNum = cross(w, d1), tNum = cross(w, d0)  // s = sNum/den, t = tNum/den
                // −1 ≤ s ≤ 0 and 0 ≤ t ≤ 1, without dividing: compare against den with its sign.
                let (sn, tn, d) = den > 0 ? (sNum, tNum, den) : (-sNum, -tNum, -den)
                if sn <= 0 && sn >= -d && tn >= 0 && tn <= d {
                    let x = b.x + n0.x + roundedDivide(d0.x * sNum, den)
                    let y = b.y + n0.y + roundedDivide(d0.y * sNum, den)
                    out.append(V(x, y)); return
                }
            }
            out.append(b + n0); out.append(b); out.append(b + n1)
        }

        /// Points strictly between b+from and b+to on the circle of radius hw, turning the short way
        /// (from towards to), at most `tolerance` from the true arc.
        func arc(center b: V, from: V, to: V, into out: inout Outline) {
            let a0 = Int64(Trig.turnFraction16(x: from.x, y: from.y))
            var sweep = Int64(Trig.turnFraction16(x: to.x, y: to.y)) - a0
            if sweep > 32768 { sweep -= 65536 } else if sweep < -32768 { sweep += 65536 }
            arcPoints(center: b, startTurn: a0, sweepTurn: sweep, into: &out)
        }

        /// Interior points of an arc of radius hw, angles in 1/65536 turns.
        func arcPoints(center b: V, startTurn a0: Int64, sweepTurn sweep: Int64, into out: inout Outline) {
            // Step angle θ with chord error hw(1 − cos(θ/2)) ≤ tol: θ ≈ 2·sqrt(2·tol/hw) radians.
            let ratio = Swift.max(1, (2 * tolerance << 16) / Swift.max(1, hw))  // 2tol/hw in 16.16
            let stepRad = 2 * Int64(integerSquareRoot(UInt64(ratio) << 16))  // 16.16 radians
            let stepTurn = Swift.max(64, stepRad * 65536 / Int64(Trig.twoPi.raw))
            let n = Swift.min(256, (Swift.abs(sweep) + stepTurn - 1) / stepTurn)
            if n < 2 { return }
            // Interior points sit a little outside the circle, at r·sqrt(θ / sin θ), so each
            // triangle of the fan has the area of its circular sector: a dot or cap covers exactly
            // the area it should, its edge straddling the true circle instead of cutting inside it.
            let stepQ30 = roundedDivide(Swift.abs(sweep) * Trig.twoPiQ30, 65536 * n)
            let sinStep = Trig.sinCosQ30(radiansQ30: stepQ30).sin
            let factor2 = sinStep > 0 ? (stepQ30 << 30) / sinStep : 1 << 30  // Q30
            let r = (hw * Int64(integerSquareRoot(UInt64(factor2) << 30)) + (1 << 29)) >> 30
            for i in 1..<n {
                let turn = a0 + sweep * i / n
                let (s, c) = Trig.sinCosQ30(radiansQ30: roundedDivide(turn * Trig.twoPiQ30, 65536))
                out.append(V(b.x + ((c * r + (1 << 29)) >> 30), b.y + ((s * r + (1 << 29)) >> 30)))
            }
        }

        /// The cap at end point e of a segment travelling along `direction`, from its right side to its left.
        func cap(at e: V, direction d: V, into out: inout Outline) {
            let n = d.normal.scaled(to: hw)
            switch style.cap {
            case .butt:
                break
            case .square:
                let ext = d.scaled(to: hw)
                out.append(e + n + ext); out.append(e - n + ext)
            case .round:
                let a0 = Int64(Trig.turnFraction16(x: n.x, y: n.y))
                arcPoints(center: e, startTurn: a0, sweepTurn: -32768, into: &out)
            }
        }

        /// A zero-length contour: a round cap draws a dot, a square cap a square, a butt cap nothing.
        func point(_ p: V) -> [Point]? {
            switch style.cap {
            case .butt: return nil
            case .square:
                return [V(p.x - hw, p.y - hw), V(p.x + hw, p.y - hw), V(p.x + hw, p.y + hw), V(p.x - hw, p.y + hw)].map(\.point)
            case .round:
                var out = Outline(capacity: 64)
                out.append(V(p.x + hw, p.y))
                arcPoints(center: p, startTurn: 0, sweepTurn: 65536, into: &out)
                return out.points
            }
        }
    }

    /// Outline points as they are made, converted to 16.16 once.
    struct Outline {
        var points: [Point]
        init(capacity: Int) { points = []; points.reserveCapacity(capacity) }
        @inline(__always) mutating func append(_ v: V) { points.append(v.point) }
    }
}
