// SPDX-License-Identifier: MIT
// Premultiplied ARGB32 surfaces: a view over memory somebody else owns (a RAM shadow buffer, a
// test buffer, an mmap'd scanout buffer), and an owning pixmap for convenience.

/// A view over premultiplied `0xAARRGGBB` pixels, one native-endian `UInt32` each, in caller-owned
/// memory with any row stride (a multiple of 4 bytes). The view never frees the memory.
///
/// A view may sit at an `origin` other than (0, 0): its first pixel is then pixel (originX,
/// originY) of a larger picture, and every coordinate it takes (`row`, subscripts, `bounds`, a
/// canvas's clip and paths) is in that picture's space. The HUD draws its box this way into
/// memory the size of the box, at the box's place on the screen.
public struct PixmapView: @unchecked Sendable {
    public let base: UnsafeMutableRawPointer
    public let width: Int32
    public let height: Int32
    /// Bytes from one row to the next (0 only in a `repeatingRow` view).
    public let rowBytes: Int
    /// The picture coordinates of the first pixel.
    public let originX: Int32
    public let originY: Int32
    /// Keeps the memory alive while the view exists, when an object owns it (a `Pixmap`).
    public let owner: AnyObject?

    /// Wraps `base`; `rowBytes` must hold a row and be a multiple of 4. `owner`, if given, is
    /// retained for as long as the view (or a copy of it) lives.
    public init(base: UnsafeMutableRawPointer, width: Int32, height: Int32, rowBytes: Int,
                originX: Int32 = 0, originY: Int32 = 0, owner: AnyObject? = nil) {
        precondition(width >= 0 && height >= 0, "negative pixmap size")
        precondition(rowBytes >= Int(width) * 4 && rowBytes % 4 == 0, "bad row stride \(rowBytes) for width \(width)")
        self.base = base; self.width = width; self.height = height; self.rowBytes = rowBytes
        self.originX = originX; self.originY = originY; self.owner = owner
    }

    /// A read-only view, `width x height` at (0, 0), whose every row is the one row at `base`
    /// (`rowBytes` 0): a uniform picture that costs one row of memory, as a blit source.
    init(repeatingRow base: UnsafeMutableRawPointer, width: Int32, height: Int32, owner: AnyObject?) {
        precondition(width >= 0 && height >= 0, "negative pixmap size")
        self.base = base; self.width = width; self.height = height; rowBytes = 0
        originX = 0; originY = 0; self.owner = owner
    }

    /// The same pixels at picture coordinates (x, y).
    public func moved(toX x: Int32, y: Int32) -> PixmapView {
        PixmapView(base: base, width: width, height: height, rowBytes: rowBytes, originX: x, originY: y, owner: owner)
    }

    @inlinable public var bounds: IntRect { IntRect(x: originX, y: originY, width: width, height: height) }

    /// Where pixel x = 0 of row `y` would be: add a picture x inside `bounds` to reach a pixel.
    @inlinable public func row(_ y: Int32) -> UnsafeMutablePointer<UInt32> {
        (base + ((Int(y) - Int(originY)) * rowBytes - Int(originX) * 4)).assumingMemoryBound(to: UInt32.self)
    }
    @inlinable public subscript(x: Int32, y: Int32) -> PremultipliedColor {
        get {
            precondition(bounds.contains(x: x, y: y), "pixel (\(x), \(y)) outside the pixmap")
            return PremultipliedColor(argb: row(y)[Int(x)])
        }
        nonmutating set {
            precondition(bounds.contains(x: x, y: y), "pixel (\(x), \(y)) outside the pixmap")
            row(y)[Int(x)] = newValue.argb
        }
    }

    /// Sets every pixel of `rect` (clipped to the pixmap) to `color`.
    public func fill(_ rect: IntRect, with color: PremultipliedColor) {
        let r = rect.intersection(bounds)
        if r.isEmpty { return }
        for y in r.y..<r.maxY {
            (row(y) + Int(r.x)).update(repeating: color.argb, count: Int(r.width))
        }
    }

    /// Whether every pixel of `rect` (clipped to the view) has alpha 0xFF. Plain loops: debug
    /// builds run it on every opaque row a present copies.
    public func isOpaque(_ rect: IntRect) -> Bool {
        let r = rect.intersection(bounds)
        if r.isEmpty { return true }
        for y in r.y..<r.maxY {
            let pixels = row(y) + Int(r.x)
            for i in 0..<Int(r.width) where pixels[i] < 0xFF00_0000 { return false }
        }
        return true
    }

    /// Copies `rect` from `source` (same size) into this view.
    public func copy(_ rect: IntRect, from source: PixmapView) {
        let r = rect.intersection(bounds).intersection(source.bounds)
        if r.isEmpty { return }
        // Row pointers stepped rather than worked out per row: this is the tile cache's copy of
        // the indicator's box at every animation frame.
        var to = UnsafeMutableRawPointer(row(r.y) + Int(r.x))
        var from = UnsafeRawPointer(source.row(r.y) + Int(r.x))
        let bytes = Int(r.width) &* 4
        for _ in 0..<r.height {
            to.copyMemory(from: from, byteCount: bytes)
            to += rowBytes
            from += source.rowBytes
        }
    }
}

/// Heap memory freed when the last pixmap or view holding it goes.
final class PixelStorage {
    let base: UnsafeMutableRawPointer
    init(bytes: Int) {
        base = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
    }
    deinit { base.deallocate() }
}

/// A pixmap that owns its memory (rows packed, zero-initialised: transparent black). Its `view`
/// keeps the memory alive, so a view taken from a temporary pixmap stays valid.
public final class Pixmap: @unchecked Sendable {
    public let view: PixmapView

    public init(width: Int32, height: Int32) {
        precondition(width >= 0 && height >= 0 && Int64(width) * Int64(height) <= 1 << 28, "pixmap too large: \(width)x\(height)")
        let storage = PixelStorage(bytes: Swift.max(1, Int(width) * Int(height) * 4))
        view = PixmapView(base: storage.base, width: width, height: height, rowBytes: Int(width) * 4, owner: storage)
    }

    @inlinable public var width: Int32 { view.width }
    @inlinable public var height: Int32 { view.height }
    @inlinable public subscript(x: Int32, y: Int32) -> PremultipliedColor {
        get { view[x, y] }
        set { view[x, y] = newValue }
    }
    /// All pixels, row by row.
    public var pixels: [UInt32] {
        var out = [UInt32]()
        out.reserveCapacity(Int(width) * Int(height))
        for y in 0..<height { out.append(contentsOf: UnsafeBufferPointer(start: view.row(y), count: Int(width))) }
        return out
    }
}
