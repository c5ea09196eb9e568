// SPDX-License-Identifier: MIT
// A complete frame that need not be held as one screen-sized pixmap. Behind a progress HUD the
// screen is often a single colour (a solid background, dimmed by a solid mask or not at all), and
// only the HUD's box differs from it; a renderer then keeps the box's pixels (a `tile`, a view at
// the box's place) and one row of the colour, and presents from that. Every pixel still has one
// well-defined value, so the converting blit writes exactly the bytes it would write from the
// whole picture: the tile's part of a damaged rect comes from the tile, the rest from a row
// repeated down the frame (rows 0 bytes apart), dithered by destination coordinates as always.
//
// At 1280x800 the whole picture is 4 MB; a 200x150 box is 117 KB and the colour row 5 KB.

/// A `width x height` premultiplied ARGB32 frame: a whole pixmap, or one colour with a tile.
public struct ComposedFrame: @unchecked Sendable {
    public let width: Int32
    public let height: Int32
    /// The frame outside the tile: a whole picture (origin (0, 0)) or a repeated row.
    public let base: PixmapView
    /// Pixels that differ from `base`, at their place in the frame (its `bounds` within the frame).
    public let tile: PixmapView?
    /// Every pixel's alpha is 0xFF, as its maker knows (a picture drawn over an opaque screen
    /// colour): an XRGB8888 scanout then takes the rows as they are, like ARGB8888 does.
    public let isOpaque: Bool

    /// A whole picture.
    public init(_ whole: PixmapView, opaque: Bool = false) {
        precondition(whole.originX == 0 && whole.originY == 0, "a whole frame starts at (0, 0)")
        width = whole.width; height = whole.height; base = whole; tile = nil; isOpaque = opaque
    }

    /// `row` (one row of the colour, at least `width` pixels) everywhere but inside `tile`.
    public init(width: Int32, height: Int32, row: Pixmap, tile: PixmapView?, opaque: Bool = false) {
        precondition(row.width >= width, "a colour row of \(row.width) pixels for a frame \(width) wide")
        precondition(tile.map { IntRect(x: 0, y: 0, width: width, height: height).contains($0.bounds) } ?? true,
                     "the tile lies outside the frame")
        self.width = width; self.height = height
        base = PixmapView(repeatingRow: row.view.base, width: width, height: height, owner: row)
        self.tile = tile?.bounds.isEmpty == true ? nil : tile
        isOpaque = opaque
    }

    @inlinable public var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    /// Frame pixel (x, y).
    public subscript(x: Int32, y: Int32) -> PremultipliedColor {
        precondition(bounds.contains(x: x, y: y), "pixel (\(x), \(y)) outside the frame")
        if let tile, tile.bounds.contains(x: x, y: y) { return tile[x, y] }
        return PremultipliedColor(argb: base.row(y)[Int(x)])
    }

    /// The pieces of `rect` (clipped to the frame) and the view each is read from.
    public func pieces(of rect: IntRect) -> [(rect: IntRect, source: PixmapView)] {
        let r = rect.intersection(bounds)
        if r.isEmpty { return [] }
        guard let tile else { return [(r, base)] }
        let inside = r.intersection(tile.bounds)
        return (inside.isEmpty ? [] : [(inside, tile)]) + r.subtracting(tile.bounds).map { ($0, base) }
    }

    /// The same picture in memory of its own, as small as this frame's parts (the tile and the
    /// colour row, or the whole picture): a snapshot taken now and made whole later, on another
    /// thread, while the frame's maker draws on.
    public func detached() -> ComposedFrame {
        func copied(_ v: PixmapView) -> PixmapView {
            let view = Pixmap(width: v.width, height: v.height).view.moved(toX: v.originX, y: v.originY)
            view.copy(v.bounds, from: v)
            return view
        }
        // A whole picture has no tile (see the initialisers).
        guard base.rowBytes == 0 else { return ComposedFrame(copied(base), opaque: isOpaque) }
        let row = Pixmap(width: width, height: 1)
        row.view.copy(row.view.bounds, from: base)
        return ComposedFrame(width: width, height: height, row: row, tile: tile.map(copied), opaque: isOpaque)
    }

    /// The whole picture in a pixmap of its own (snapshots, tests).
    public func materialized() -> Pixmap {
        let out = Pixmap(width: width, height: height)
        for (r, source) in pieces(of: bounds) { out.view.copy(r, from: source) }
        return out
    }
}

/// `convertingBlit` from a composed frame: each piece of `rect` from the memory that holds it,
/// the same bytes as from the whole picture. Returns the destination rect written.
@discardableResult
public func convertingBlit(
    from frame: ComposedFrame, rect: IntRect, to destination: SurfaceView, rotation: Rotation, dither: Bool = true
) -> IntRect {
    // The common cases, a whole picture or a rect inside the tile (the spinner's box), in one blit.
    if frame.tile == nil || frame.tile!.bounds.contains(rect) {
        let source = frame.tile ?? frame.base
        return convertingBlit(from: source, frameWidth: frame.width, frameHeight: frame.height, rect: rect, to: destination,
                              rotation: rotation, dither: dither, fastPaths: true, opaque: frame.isOpaque)
    }
    var written = IntRect.zero
    for (r, source) in frame.pieces(of: rect) {
        written = written.union(convertingBlit(
            from: source, frameWidth: frame.width, frameHeight: frame.height, rect: r, to: destination,
            rotation: rotation, dither: dither, fastPaths: true, opaque: frame.isOpaque))
    }
    return written
}
