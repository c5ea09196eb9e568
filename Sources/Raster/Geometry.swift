// SPDX-License-Identifier: MIT
// Points, sizes, rectangles and affine transforms in 16.16 fixed point, and integer pixel rects.

/// A point in 16.16 fixed point.
public struct Point: Hashable, Sendable {
    public var x: Fixed16_16
    public var y: Fixed16_16
    @inlinable public init(x: Fixed16_16, y: Fixed16_16) { self.x = x; self.y = y }
    /// Explicit conversion from floating point.
    @inlinable public init(_ x: Double, _ y: Double) { self.x = Fixed16_16(x); self.y = Fixed16_16(y) }
    public static let zero = Point(x: .zero, y: .zero)
    @inlinable public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
}

/// A size in 16.16 fixed point.
public struct Size: Hashable, Sendable {
    public var width: Fixed16_16
    public var height: Fixed16_16
    @inlinable public init(width: Fixed16_16, height: Fixed16_16) { self.width = width; self.height = height }
    @inlinable public init(_ width: Double, _ height: Double) { self.init(width: Fixed16_16(width), height: Fixed16_16(height)) }
}

/// A rectangle in 16.16 fixed point: origin at the top-left, y down.
public struct Rect: Hashable, Sendable {
    public var origin: Point
    public var size: Size
    @inlinable public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    @inlinable public init(x: Fixed16_16, y: Fixed16_16, width: Fixed16_16, height: Fixed16_16) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }
    @inlinable public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.init(origin: Point(x, y), size: Size(width, height))
    }
    @inlinable public var minX: Fixed16_16 { origin.x }
    @inlinable public var minY: Fixed16_16 { origin.y }
    @inlinable public var maxX: Fixed16_16 { origin.x + size.width }
    @inlinable public var maxY: Fixed16_16 { origin.y + size.height }
    @inlinable public var midX: Fixed16_16 { origin.x + Fixed16_16(raw: size.width.raw / 2) }
    @inlinable public var midY: Fixed16_16 { origin.y + Fixed16_16(raw: size.height.raw / 2) }
    /// The smallest pixel rectangle containing this one.
    public var enclosingPixels: IntRect {
        let x0 = minX.floor, y0 = minY.floor
        return IntRect(x: x0, y: y0, width: maxX.ceil - x0, height: maxY.ceil - y0)
    }
}

/// A rectangle of whole pixels: [x, x+width) x [y, y+height).
public struct IntRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int32
    public var y: Int32
    public var width: Int32
    public var height: Int32
    @inlinable public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public static let zero = IntRect(x: 0, y: 0, width: 0, height: 0)
    @inlinable public var maxX: Int32 { x + width }
    @inlinable public var maxY: Int32 { y + height }
    @inlinable public var isEmpty: Bool { width <= 0 || height <= 0 }
    @inlinable public var area: Int64 { isEmpty ? 0 : Int64(width) * Int64(height) }
    /// The overlap of two rects (empty when they do not meet).
    @inlinable public func intersection(_ o: IntRect) -> IntRect {
        let x0 = Swift.max(x, o.x), y0 = Swift.max(y, o.y)
        let x1 = Swift.min(maxX, o.maxX), y1 = Swift.min(maxY, o.maxY)
        if x1 <= x0 || y1 <= y0 { return .zero }
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    /// The smallest rect holding both (an empty rect adds nothing).
    @inlinable public func union(_ o: IntRect) -> IntRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = Swift.min(x, o.x), y0 = Swift.min(y, o.y)
        return IntRect(x: x0, y: y0, width: Swift.max(maxX, o.maxX) - x0, height: Swift.max(maxY, o.maxY) - y0)
    }
    @inlinable public func contains(_ o: IntRect) -> Bool {
        o.isEmpty || (o.x >= x && o.y >= y && o.maxX <= maxX && o.maxY <= maxY)
    }
    @inlinable public func contains(x px: Int32, y py: Int32) -> Bool {
        px >= x && px < maxX && py >= y && py < maxY
    }
    /// The parts of this rect outside `o`: at most four disjoint rects (bands above and below
    /// `o`, then the pieces left and right of it), none when `o` covers it.
    public func subtracting(_ o: IntRect) -> [IntRect] {
        let cut = intersection(o)
        if cut.isEmpty { return isEmpty ? [] : [self] }
        var out: [IntRect] = []
        if cut.y > y { out.append(IntRect(x: x, y: y, width: width, height: cut.y - y)) }
        if cut.maxY < maxY { out.append(IntRect(x: x, y: cut.maxY, width: width, height: maxY - cut.maxY)) }
        if cut.x > x { out.append(IntRect(x: x, y: cut.y, width: cut.x - x, height: cut.height)) }
        if cut.maxX < maxX { out.append(IntRect(x: cut.maxX, y: cut.y, width: maxX - cut.maxX, height: cut.height)) }
        return out
    }
    public var description: String { "(\(x), \(y), \(width)x\(height))" }
}

/// An affine transform `x' = a*x + c*y + tx`, `y' = b*x + d*y + ty`, in 16.16 fixed point
/// (the same layout as CGAffineTransform).
public struct Transform: Hashable, Sendable {
    public var a, b, c, d, tx, ty: Fixed16_16
    @inlinable public init(a: Fixed16_16, b: Fixed16_16, c: Fixed16_16, d: Fixed16_16, tx: Fixed16_16, ty: Fixed16_16) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public static let identity = Transform(a: .one, b: .zero, c: .zero, d: .one, tx: .zero, ty: .zero)
    @inlinable public static func translation(_ x: Fixed16_16, _ y: Fixed16_16) -> Transform {
        Transform(a: .one, b: .zero, c: .zero, d: .one, tx: x, ty: y)
    }
    @inlinable public static func scale(_ sx: Fixed16_16, _ sy: Fixed16_16) -> Transform {
        Transform(a: sx, b: .zero, c: .zero, d: sy, tx: .zero, ty: .zero)
    }
    /// A rotation by `angle` radians (clockwise on screen, as y points down).
    public static func rotation(_ angle: Fixed16_16) -> Transform {
        let (s, c) = Trig.sinCos(angle)
        return Transform(a: c, b: s, c: -s, d: c, tx: .zero, ty: .zero)
    }
    /// A uniform scale by `s` about `center`: how the HUD zooms (1.3 -> 1, 0.5 -> 1, 1.5 -> 1).
    public static func scale(_ s: Fixed16_16, about center: Point) -> Transform {
        Transform.translation(-center.x, -center.y).concatenating(.scale(s, s)).concatenating(.translation(center.x, center.y))
    }
    /// `self` applied first, then `other`.
    public func concatenating(_ o: Transform) -> Transform {
        Transform(
            a: a * o.a + b * o.c, b: a * o.b + b * o.d,
            c: c * o.a + d * o.c, d: c * o.b + d * o.d,
            tx: tx * o.a + ty * o.c + o.tx, ty: tx * o.b + ty * o.d + o.ty)
    }
    @inlinable public var isIdentity: Bool { self == .identity }
    /// Applies the transform, with one rounding per coordinate.
    @inlinable public func apply(_ p: Point) -> Point {
        let x = Int64(a.raw) * Int64(p.x.raw) + Int64(c.raw) * Int64(p.y.raw)
        let y = Int64(b.raw) * Int64(p.x.raw) + Int64(d.raw) * Int64(p.y.raw)
        return Point(
            x: Fixed16_16(wide: ((x + 0x8000) >> 16) + Int64(tx.raw)),
            y: Fixed16_16(wide: ((y + 0x8000) >> 16) + Int64(ty.raw)))
    }
    /// The inverse, or nil when the transform is singular.
    public func inverted() -> Transform? {
        let det = Int64(a.raw) * Int64(d.raw) - Int64(b.raw) * Int64(c.raw)  // 32.32
        if det == 0 { return nil }
        func q(_ n: Int64) -> Fixed16_16 { Fixed16_16(wide: roundedDivide(n << 16, det)) }  // (16.16<<32)/32.32
        let ia = q(Int64(d.raw) << 16), ib = q(-Int64(b.raw) << 16)
        let ic = q(-Int64(c.raw) << 16), id = q(Int64(a.raw) << 16)
        let itx = -(tx * ia + ty * ic), ity = -(tx * ib + ty * id)
        return Transform(a: ia, b: ib, c: ic, d: id, tx: itx, ty: ity)
    }
}
