// Frames of an indicator animation that come round again, drawn once. The activity indicator has
// 12 steps a turn, the spinner as many as its renderer's `spinnerSteps`; while nothing but the
// step changes, the renderer's damage is the indicator's box and its pixels there are a function
// of the step alone. The cache keeps those box-sized tiles (everything under the indicator
// included: background, backdrop, bezel) for one HUD at a time: anything else that changes (text,
// colours, size, the box moving) empties it. A tile is copied back with one memcpy per row,
// where drawing the spinner flattens, strokes and scan-converts an arc through a conic paint.
import Raster

final class IndicatorTileCache {
    /// The HUD (phase taken out) and indicator box the tiles belong to.
    private var owner: (presentation: HUDPresentation, rect: IntRect)?
    /// Step k's tile at index k (steps are 0..<steps a turn; an array, as a dictionary would hash
    /// the step at every frame).
    private var tiles: [Pixmap?] = []
    private(set) var count = 0
    /// At most this many steps are kept (a spinner rounded to more steps a turn is rarely repeated).
    static let maxSteps = 120

    /// Bytes of pixels held.
    var bytes: Int { tiles.reduce(0) { $0 + ($1.map { Int($0.width) * Int($0.height) * 4 } ?? 0) } }
    /// Whether the tiles belong to some HUD (`retain` was called since the last `clear`).
    var isOwned: Bool { owner != nil }

    /// Keeps the tiles when they belong to `presentation` and `rect`, else forgets them.
    func retain(for presentation: HUDPresentation, rect: IntRect) {
        if let o = owner, o.rect == rect, o.presentation == presentation { return }
        owner = (presentation, rect)
        removeTiles()
    }

    /// Forgets every tile (the HUD shows no repeating indicator).
    func clear() {
        if owner == nil { return }
        owner = nil
        removeTiles()
    }

    private func removeTiles() {
        tiles.removeAll()
        count = 0
    }

    /// Copies step `step`'s tile into `target` at the indicator's box; false when there is none.
    func copy(step: Int32, into target: PixmapView) -> Bool {
        guard let rect = owner?.rect, step >= 0, step < tiles.count, let tile = tiles[Int(step)], target.bounds.contains(rect) else { return false }
        target.copy(rect, from: tile.view.moved(toX: rect.x, y: rect.y))
        return true
    }

    /// Keeps `source`'s pixels in the indicator's box as step `step`'s tile.
    func store(step: Int32, from source: PixmapView) {
        guard let rect = owner?.rect, !rect.isEmpty, source.bounds.contains(rect), step >= 0, count < Self.maxSteps else { return }
        let tile = Pixmap(width: rect.width, height: rect.height)
        tile.view.moved(toX: rect.x, y: rect.y).copy(rect, from: source)
        if Int(step) >= tiles.count { tiles.append(contentsOf: repeatElement(nil, count: Int(step) + 1 - tiles.count)) }
        if tiles[Int(step)] == nil { count += 1 }
        tiles[Int(step)] = tile
    }
}
