// SPDX-License-Identifier: MIT
// Frames of an indicator animation that come round again, drawn once. The activity indicator has
// 12 steps a turn, the spinner as many as its renderer's `spinnerSteps` (the display's refresh
// rate at most); while nothing but the step changes, the renderer's damage is the indicator's box
// and its pixels there are a function of the step alone. The cache keeps them (everything under
// the indicator included: background, backdrop, bezel) for one HUD at a time: anything else that
// changes (text, colours, size, the box moving) empties it.
//
// Memory and speed. While they fit in `wholeBytes` (2 MiB), tiles are kept whole and copied back a row at a
// time: the spinner's 75 steps of the default box take about 1 MB. Past that, a step is kept only
// as the runs of pixels where it differs from the first tile (the base): the spinner's steps differ
// in its ring, about a sixth of the box, so they take a fifth of the memory, but are copied back
// as the base's rows and then a hundred-odd runs, each a call: three times the instructions of the
// whole tile's rows (callgrind, a spinner frame on the memory display), at 75 frames a second the
// biggest part of a frame. Either way the copy replaces drawing the spinner, which flattens,
// strokes and scan-converts an arc through a conic paint.
import Raster

final class IndicatorTileCache {
    /// The HUD (phase taken out) and indicator box the tiles belong to.
    private var owner: (presentation: HUDPresentation, rect: IntRect)?
    /// The first tile stored, whole.
    private var base: Pixmap?
    /// Step k's tile at index k (steps are 0..<steps a turn; an array, as a dictionary would hash
    /// the step at every frame).
    private var tiles: [Tile?] = []
    private(set) var count = 0
    /// At most this many steps are kept (a spinner rounded to more steps a turn is rarely repeated).
    static let maxSteps = 120
    /// Differing runs closer than this many pixels are kept as one (a run costs a copy call).
    static let mergeGap = 4
    /// Tiles are kept whole while all of them take at most this many bytes (2 MiB; the tests set
    /// less to reach the runs).
    var wholeBytes = 2 << 20

    /// A step's pixels: the whole box (at the box's place), or its runs against the base.
    enum Tile {
        case whole(PixmapView)
        case runs(Runs)
        var bytes: Int {
            switch self {
            case .whole(let view): return Int(view.width) * Int(view.height) * 4
            case .runs(let runs): return runs.bytes
            }
        }
    }

    /// A step's pixels where they differ from the base: runs within a row, as (row, column,
    /// length) triples relative to the box, their pixels one after another.
    struct Runs {
        var triples: [UInt16] = []
        var pixels: [UInt32] = []
        var bytes: Int { triples.count * 2 + pixels.count * 4 }
    }

    /// Bytes of pixels held.
    private(set) var bytes = 0
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
        bytes = 0
    }

    /// Copies step `step`'s tile into `target` at the indicator's box; false when there is none.
    func copy(step: Int32, into target: PixmapView) -> Bool {
        guard let rect = owner?.rect, step >= 0, step < tiles.count, let tile = tiles[Int(step)], let base,
              target.bounds.contains(rect) else { return false }
        switch tile {
        case .whole(let view):
            target.copy(rect, from: view)
        case .runs(let runs):
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
        }
        return true
    }

    /// Keeps `source`'s pixels in the indicator's box as step `step`'s tile.
    func store(step: Int32, from source: PixmapView) {
        guard let rect = owner?.rect, !rect.isEmpty, source.bounds.contains(rect), step >= 0, count < Self.maxSteps,
              rect.width <= Int32(UInt16.max), rect.height <= Int32(UInt16.max) else { return }
        if Int(step) >= tiles.count { tiles.append(contentsOf: repeatElement(nil, count: Int(step) + 1 - tiles.count)) }
        if let old = tiles[Int(step)] { bytes -= old.bytes } else { count += 1 }
        let tile: Tile
        let wholeSize = Int(rect.width) * Int(rect.height) * 4
        if base == nil || bytes + wholeSize <= wholeBytes {
            let whole = Pixmap(width: rect.width, height: rect.height)
            let view = whole.view.moved(toX: rect.x, y: rect.y)
            view.copy(rect, from: source)
            if base == nil { base = whole }
            tile = .whole(view)
        } else {
            tile = .runs(Self.runs(of: source, differingFrom: base!.view.moved(toX: rect.x, y: rect.y), in: rect))
        }
        tiles[Int(step)] = tile
        bytes += tile.bytes
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
