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
    private var tiles: [Int32: Pixmap] = [:]
    /// At most this many steps are kept (a spinner rounded to more steps a turn is rarely repeated).
    static let maxSteps = 120

    /// Bytes of pixels held.
    var bytes: Int { tiles.values.reduce(0) { $0 + Int($1.width) * Int($1.height) * 4 } }
    var count: Int { tiles.count }
    /// Whether the tiles belong to some HUD (`retain` was called since the last `clear`).
    var isOwned: Bool { owner != nil }

    /// Keeps the tiles when they belong to `presentation` and `rect`, else forgets them.
    func retain(for presentation: HUDPresentation, rect: IntRect) {
        if let o = owner, o.rect == rect, o.presentation == presentation { return }
        owner = (presentation, rect)
        tiles.removeAll()
    }

    /// Forgets every tile (the HUD shows no repeating indicator).
    func clear() {
        if owner == nil { return }
        owner = nil
        tiles.removeAll()
    }

    /// Copies step `step`'s tile into `target` at the indicator's box; false when there is none.
    func copy(step: Int32, into target: PixmapView) -> Bool {
        guard let rect = owner?.rect, let tile = tiles[step], target.bounds.contains(rect) else { return false }
        target.copy(rect, from: tile.view.moved(toX: rect.x, y: rect.y))
        return true
    }

    /// Keeps `source`'s pixels in the indicator's box as step `step`'s tile.
    func store(step: Int32, from source: PixmapView) {
        guard let rect = owner?.rect, !rect.isEmpty, source.bounds.contains(rect), tiles.count < Self.maxSteps else { return }
        let tile = Pixmap(width: rect.width, height: rect.height)
        tile.view.moved(toX: rect.x, y: rect.y).copy(rect, from: source)
        tiles[step] = tile
    }
}
