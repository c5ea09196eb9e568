// Frames of an indicator animation that come round again, drawn once. The activity indicator has
// 12 steps a turn, the spinner as many as its renderer's `spinnerSteps` (the display's refresh
// rate at most); while nothing but the step changes, the renderer's damage is the indicator's box
// and its pixels there are a function of the step alone. The cache keeps them (everything under
// the indicator included: background, backdrop, bezel) for one HUD at a time: anything else that
// changes (text, colours, size, the box moving) empties it.
//
// Memory. The first tile stored is kept whole (the base); every other step only as the runs of
// pixels where it differs from the base: the spinner's steps differ in its ring, about a sixth of
// the box, so 75 steps take about 0.2 MB instead of 1 MB. A tile is copied back as the base's rows
// and then its runs, a memcpy each, where drawing the spinner flattens, strokes and scan-converts
// an arc through a conic paint.
import Raster

final class IndicatorTileCache {
    /// The HUD (phase taken out) and indicator box the tiles belong to.
    private var owner: (presentation: HUDPresentation, rect: IntRect)?
    /// The first tile stored, whole.
    private var base: Pixmap?
    /// Step k's runs at index k (steps are 0..<steps a turn; an array, as a dictionary would hash
    /// the step at every frame).
    private var tiles: [Runs?] = []
    private(set) var count = 0
    /// At most this many steps are kept (a spinner rounded to more steps a turn is rarely repeated).
    static let maxSteps = 120
    /// Differing runs closer than this many pixels are kept as one (a run costs a copy call).
    static let mergeGap = 4

    /// A step's pixels where they differ from the base: runs within a row, as (row, column,
    /// length) triples relative to the box, their pixels one after another.
    struct Runs {
        var triples: [UInt16] = []
        var pixels: [UInt32] = []
        var bytes: Int { triples.count * 2 + pixels.count * 4 }
    }

    /// Bytes of pixels held.
    var bytes: Int {
        let whole = base.map { Int($0.width) * Int($0.height) * 4 } ?? 0
        return tiles.reduce(whole) { $0 + ($1?.bytes ?? 0) }
    }
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
        base = nil
        tiles.removeAll()
        count = 0
    }

    /// Copies step `step`'s tile into `target` at the indicator's box; false when there is none.
    func copy(step: Int32, into target: PixmapView) -> Bool {
        guard let rect = owner?.rect, step >= 0, step < tiles.count, let runs = tiles[Int(step)], let base,
              target.bounds.contains(rect) else { return false }
        target.copy(rect, from: base.view.moved(toX: rect.x, y: rect.y))
        runs.pixels.withUnsafeBufferPointer { pixels in
            var next = pixels.baseAddress!
            var i = 0
            while i < runs.triples.count {
                let y = rect.y + Int32(runs.triples[i]), x = Int(rect.x) + Int(runs.triples[i + 1]), n = Int(runs.triples[i + 2])
                (target.row(y) + x).update(from: next, count: n)
                next += n
                i += 3
            }
        }
        return true
    }

    /// Keeps `source`'s pixels in the indicator's box as step `step`'s tile.
    func store(step: Int32, from source: PixmapView) {
        guard let rect = owner?.rect, !rect.isEmpty, source.bounds.contains(rect), step >= 0, count < Self.maxSteps,
              rect.width <= Int32(UInt16.max), rect.height <= Int32(UInt16.max) else { return }
        if Int(step) >= tiles.count { tiles.append(contentsOf: repeatElement(nil, count: Int(step) + 1 - tiles.count)) }
        if tiles[Int(step)] == nil { count += 1 }
        guard let base else {
            let whole = Pixmap(width: rect.width, height: rect.height)
            whole.view.moved(toX: rect.x, y: rect.y).copy(rect, from: source)
            self.base = whole
            tiles[Int(step)] = Runs()
            return
        }
        tiles[Int(step)] = Self.runs(of: source, differingFrom: base.view.moved(toX: rect.x, y: rect.y), in: rect)
    }

    private static func runs(of source: PixmapView, differingFrom base: PixmapView, in rect: IntRect) -> Runs {
        var runs = Runs()
        for y in rect.y..<rect.maxY {
            let s = source.row(y), b = base.row(y)
            var x = Int(rect.x)
            let end = Int(rect.maxX)
            while x < end {
                if s[x] == b[x] { x += 1; continue }
                // A run from x to the last differing pixel no more than mergeGap pixels apart.
                var last = x, probe = x + 1
                while probe < end && probe - last <= mergeGap {
                    if s[probe] != b[probe] { last = probe }
                    probe += 1
                }
                runs.triples += [UInt16(y - rect.y), UInt16(x - Int(rect.x)), UInt16(last + 1 - x)]
                runs.pixels.append(contentsOf: UnsafeBufferPointer(start: s + x, count: last + 1 - x))
                x = last + 1
            }
        }
        return runs
    }
}
