// SPDX-License-Identifier: MIT
// Paths: move, line, quadratic, cubic, arc and close, in 16.16 fixed point; plus the shapes a HUD
// is made of (rect, rounded rect, circle, ellipse). Arcs are stored as cubic Béziers (at most a
// quarter turn each), as CGPath and Skia do, so a transformed arc is still exact to the curve.

public enum PathElement: Hashable, Sendable {
    case move(Point)
    case line(Point)
    case quad(Point, Point)
    case cubic(Point, Point, Point)
    case close
}

public enum FillRule: Sendable { case nonZero, evenOdd }

public struct Path: Hashable, Sendable {
    public private(set) var elements: [PathElement] = []
    /// The start of the current contour and the current point, for `close` and `arc`.
    private var contourStart: Point?
    private var current: Point?

    public init() {}

    public var isEmpty: Bool { elements.isEmpty }
    public var currentPoint: Point? { current }

    public mutating func move(to p: Point) {
        elements.append(.move(p)); contourStart = p; current = p
    }
    public mutating func line(to p: Point) {
        ensureStarted(); elements.append(.line(p)); current = p
    }
    public mutating func quad(to p: Point, control c: Point) {
        ensureStarted(); elements.append(.quad(c, p)); current = p
    }
    public mutating func cubic(to p: Point, control1 c1: Point, control2 c2: Point) {
        ensureStarted(); elements.append(.cubic(c1, c2, p)); current = p
    }
    public mutating func close() {
        guard current != nil else { return }
        elements.append(.close); current = contourStart
    }
    /// A segment with no current point starts at its own first control point, as CGPath does.
    private mutating func ensureStarted() {
        if current == nil { move(to: .zero) }
    }

    /// Appends a circular arc of `radius` about `center` from `start` to `end` (radians from +x
    /// towards +y; `clockwise` means increasing angle, which is clockwise on a y-down screen).
    /// Like CGPath's `addArc`, it draws a line from the current point to the arc's start, and a
    /// sweep of more than a turn is kept (SVProgressHUD's spinner winds twice round).
    public mutating func arc(center: Point, radius: Fixed16_16, start: Fixed16_16, end: Fixed16_16, clockwise: Bool) {
        var sweep = Int64(end.raw) - Int64(start.raw)
        let turn = Int64(Trig.twoPi.raw)
        if clockwise {
            if sweep < 0 { sweep = sweep % turn + turn }  // like CGPath: wrap a backwards sweep
        } else if sweep > 0 {
            sweep = sweep % turn - turn
        }
        let p0 = Self.pointOnCircle(center, radius, Int64(start.raw))
        if current == nil { move(to: p0) } else if current != p0 { line(to: p0) }
        if sweep == 0 { return }
        let quarter = Int64(Trig.halfPi.raw)
        let pieces = Swift.max(1, (Swift.abs(sweep) + quarter - 1) / quarter)
        for i in 0..<pieces {
            let a0 = Int64(start.raw) + sweep * i / pieces
            let a1 = Int64(start.raw) + sweep * (i + 1) / pieces
            appendArcPiece(center: center, radius: radius, from: a0, to: a1)
        }
    }

    /// One cubic for an arc of at most a quarter turn: control distance k = 4/3 · tan(θ/4).
    private mutating func appendArcPiece(center: Point, radius: Fixed16_16, from a0: Int64, to a1: Int64) {
        let (s0, c0) = Trig.sinCosQ30(radiansQ30: a0 << 14)
        let (s1, c1) = Trig.sinCosQ30(radiansQ30: a1 << 14)
        let (sq, cq) = Trig.sinCosQ30(radiansQ30: (a1 - a0) << 12)  // θ/4
        let kQ30 = roundedDivide(4 * sq << 30, 3 * cq)  // 4/3 tan(θ/4), signed with θ
        let r = Int64(radius.raw)
        func pt(_ x: Int64, _ y: Int64) -> Point {  // 16.16 + Q30·16.16
            Point(x: Fixed16_16(wide: Int64(center.x.raw) + ((x + (1 << 29)) >> 30)),
                  y: Fixed16_16(wide: Int64(center.y.raw) + ((y + (1 << 29)) >> 30)))
        }
        let kr = (kQ30 * r + (1 << 29)) >> 30  // k·r in 16.16
        let p1 = pt(c0 * r - s0 * kr, s0 * r + c0 * kr)
        let p2 = pt(c1 * r + s1 * kr, s1 * r - c1 * kr)
        let p3 = pt(c1 * r, s1 * r)
        cubic(to: p3, control1: p1, control2: p2)
    }

    static func pointOnCircle(_ c: Point, _ r: Fixed16_16, _ angle: Int64) -> Point {
        let (s, co) = Trig.sinCosQ30(radiansQ30: angle << 14)
        let rr = Int64(r.raw)
        return Point(x: Fixed16_16(wide: Int64(c.x.raw) + ((co * rr + (1 << 29)) >> 30)),
                     y: Fixed16_16(wide: Int64(c.y.raw) + ((s * rr + (1 << 29)) >> 30)))
    }

    /// Every point of the path transformed.
    public func applying(_ t: Transform) -> Path {
        if t.isIdentity { return self }
        var out = Path()
        out.elements = elements.map {
            switch $0 {
            case .move(let p): return .move(t.apply(p))
            case .line(let p): return .line(t.apply(p))
            case .quad(let c, let p): return .quad(t.apply(c), t.apply(p))
            case .cubic(let c1, let c2, let p): return .cubic(t.apply(c1), t.apply(c2), t.apply(p))
            case .close: return .close
            }
        }
        out.contourStart = contourStart.map(t.apply); out.current = current.map(t.apply)
        return out
    }

    /// The bounds of every point, control points included (so it contains the curve).
    public var controlBounds: Rect? {
        var minX = Int32.max, minY = Int32.max, maxX = Int32.min, maxY = Int32.min
        func add(_ p: Point) {
            minX = Swift.min(minX, p.x.raw); maxX = Swift.max(maxX, p.x.raw)
            minY = Swift.min(minY, p.y.raw); maxY = Swift.max(maxY, p.y.raw)
        }
        for e in elements {
            switch e {
            case .move(let p), .line(let p): add(p)
            case .quad(let c, let p): add(c); add(p)
            case .cubic(let c1, let c2, let p): add(c1); add(c2); add(p)
            case .close: break
            }
        }
        if minX > maxX { return nil }
        return Rect(x: Fixed16_16(raw: minX), y: Fixed16_16(raw: minY),
                    width: Fixed16_16(raw: maxX &- minX), height: Fixed16_16(raw: maxY &- minY))
    }
}

extension Path {
    /// A closed rectangle, clockwise on screen.
    public static func rect(_ r: Rect) -> Path {
        var p = Path()
        p.move(to: r.origin)
        p.line(to: Point(x: r.maxX, y: r.minY))
        p.line(to: Point(x: r.maxX, y: r.maxY))
        p.line(to: Point(x: r.minX, y: r.maxY))
        p.close()
        return p
    }

    /// 4/3·(√2 − 1): the cubic control distance for a quarter circle, as a fraction of the radius.
    static let kappa = Fixed16_16(raw: 36195)

    /// A quarter of an ellipse from the current point to `end`, bending about `corner` (the corner
    /// of the bounding box the quarter sits in). Ends are exact, unlike an arc from angles.
    mutating func quarter(to end: Point, corner: Point) {
        guard let start = current else { return }
        let c1 = Point(x: start.x + (corner.x - start.x) * Self.kappa, y: start.y + (corner.y - start.y) * Self.kappa)
        let c2 = Point(x: end.x + (corner.x - end.x) * Self.kappa, y: end.y + (corner.y - end.y) * Self.kappa)
        cubic(to: end, control1: c1, control2: c2)
    }

    /// A rectangle with circular corners (the radius is limited to half the shorter side),
    /// clockwise on screen from the top edge.
    public static func roundedRect(_ r: Rect, radius: Fixed16_16) -> Path {
        let limit = Fixed16_16(raw: Swift.min(r.size.width.raw, r.size.height.raw) / 2)
        let rad = Swift.max(.zero, Swift.min(radius, limit))
        if rad == .zero { return rect(r) }
        var p = Path()
        p.move(to: Point(x: r.minX + rad, y: r.minY))
        p.line(to: Point(x: r.maxX - rad, y: r.minY))
        p.quarter(to: Point(x: r.maxX, y: r.minY + rad), corner: Point(x: r.maxX, y: r.minY))
        p.line(to: Point(x: r.maxX, y: r.maxY - rad))
        p.quarter(to: Point(x: r.maxX - rad, y: r.maxY), corner: Point(x: r.maxX, y: r.maxY))
        p.line(to: Point(x: r.minX + rad, y: r.maxY))
        p.quarter(to: Point(x: r.minX, y: r.maxY - rad), corner: Point(x: r.minX, y: r.maxY))
        p.line(to: Point(x: r.minX, y: r.minY + rad))
        p.quarter(to: Point(x: r.minX + rad, y: r.minY), corner: Point(x: r.minX, y: r.minY))
        p.close()
        return p
    }

    /// A full circle starting at angle 0 (3 o'clock), clockwise on screen.
    public static func circle(center: Point, radius: Fixed16_16) -> Path {
        ellipse(in: Rect(origin: Point(x: center.x - radius, y: center.y - radius), size: Size(width: radius + radius, height: radius + radius)))
    }

    /// An ellipse inscribed in `r`, starting at its right end, clockwise on screen.
    public static func ellipse(in r: Rect) -> Path {
        if r.size.width.raw == 0 || r.size.height.raw == 0 { return Path() }
        let cx = r.midX, cy = r.midY
        var p = Path()
        p.move(to: Point(x: r.maxX, y: cy))
        p.quarter(to: Point(x: cx, y: r.maxY), corner: Point(x: r.maxX, y: r.maxY))
        p.quarter(to: Point(x: r.minX, y: cy), corner: Point(x: r.minX, y: r.maxY))
        p.quarter(to: Point(x: cx, y: r.minY), corner: Point(x: r.minX, y: r.minY))
        p.quarter(to: Point(x: r.maxX, y: cy), corner: Point(x: r.maxX, y: r.minY))
        p.close()
        return p
    }
}
