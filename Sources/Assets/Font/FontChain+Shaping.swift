// SPDX-License-Identifier: MIT
// Shaped runs, cached per text, face and direction: a status shown again, or a layout redone for
// another width, shapes nothing. Shaping is in font units, so one entry serves every size.

extension FontChain {
    /// `text[run]` shaped with face `face` (clusters index `text`), from the cache when it was
    /// shaped before with the same characters around it.
    func shape(_ text: [UInt32], _ run: Range<Int>, face: Int, rightToLeft: Bool, script: UInt32) -> [ShapedGlyph] {
        let context = ShapeCache.contextLength
        let key = ShapeKey(
            text: Array(text[run]), before: Array(text[max(0, run.lowerBound - context)..<run.lowerBound]),
            after: Array(text[run.upperBound..<min(text.count, run.upperBound + context)]),
            face: face, rightToLeft: rightToLeft, script: script)
        let base = Int32(run.lowerBound)
        if let hit = shapes.lookup(key) { return hit.map { var g = $0; g.cluster += base; return g } }
        let shaped = faces[face].shape(text, run, rightToLeft: rightToLeft, script: script, language: nil)
        shapes.insert(key, shaped.map { var g = $0; g.cluster -= base; return g })
        return shaped
    }
}

struct ShapeKey: Hashable {
    var text: [UInt32]
    /// Up to `contextLength` characters on each side: what HarfBuzz reads of the context.
    var before: [UInt32]
    var after: [UInt32]
    var face: Int
    var rightToLeft: Bool
    var script: UInt32

    /// The characters hashed as bytes, in one call each (a paragraph's run is hundreds long).
    func hash(into hasher: inout Hasher) {
        func combine(_ part: [UInt32]) {
            hasher.combine(part.count)
            part.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
        combine(text); combine(before); combine(after)
        hasher.combine(face); hasher.combine(rightToLeft); hasher.combine(script)
    }
}

/// A bounded cache of shaped runs: the least recently used half goes when it is full.
struct ShapeCache {
    /// HarfBuzz's HB_BUFFER_CONTEXT_LENGTH.
    static let contextLength = 5
    /// Runs kept, and the longest run kept (longer ones are shaped each time).
    static let capacity = 512
    static let longestRun = 1024

    private var entries: [ShapeKey: (glyphs: [ShapedGlyph], lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0
    private(set) var hits = 0
    private(set) var misses = 0

    var count: Int { entries.count }

    mutating func lookup(_ key: ShapeKey) -> [ShapedGlyph]? {
        clock &+= 1
        guard let index = entries.index(forKey: key) else { misses += 1; return nil }
        entries.values[index].lastUse = clock
        hits += 1
        return entries.values[index].glyphs
    }

    mutating func insert(_ key: ShapeKey, _ glyphs: [ShapedGlyph]) {
        guard key.text.count <= Self.longestRun else { return }
        if entries.count >= Self.capacity {
            let oldest = entries.sorted { $0.value.lastUse < $1.value.lastUse }.prefix(Self.capacity / 2)
            for (k, _) in oldest { entries[k] = nil }
        }
        entries[key] = (glyphs, clock)
    }
}
