// SPDX-License-Identifier: MIT
// One paragraph (text between hard breaks) made ready for lines: its bidi levels, each
// character's script and face, where lines may break, and what each cluster advances once the
// paragraph's runs are shaped. Lines are then cut from it (TextLayout): a line's run takes its
// glyphs from the paragraph's shaping where HarfBuzz says cutting there changes nothing (no
// HB_GLYPH_FLAG_UNSAFE_TO_BREAK at the cut, the paragraph's levels kept), and is shaped again
// on its own, with the paragraph around it as context, where it may, as Pango reshapes.
//
// Runs: a run is a longest stretch of one bidi level, one script and one face, each shaped on its
// own. Characters of no script of their own (spaces, digits, punctuation, combining marks) take
// their neighbours' script, and keep the face before them when it has them, so the space in an
// Arabic sentence is shaped with the Arabic face.

import Raster

struct ShapedParagraph {
    let chain: FontChain
    let size: Fixed16_16
    /// The characters, controls left out.
    let text: [UInt32]
    /// Where `text[0]` is in the layout's whole text, in characters.
    let offset: Int
    let bidi: BidiParagraph
    let scripts: [UInt32]
    /// Each character's face, as an index into the chain.
    let faces: [Int]
    /// Whether a line may break before each character.
    let breaks: [Bool]
    /// What the cluster starting at each character advances (16.16 raw, 0 inside a cluster).
    private(set) var widths: [Int64]
    /// Whether a cluster starts at each character (lines begin and end only there).
    private(set) var clusterStarts: [Bool]
    /// The paragraph's runs in logical order, each with its glyphs as shaped (clusters index `text`).
    private(set) var shapedRuns: [(range: Range<Int>, glyphs: [ShapedGlyph])] = []

    init(_ text: [UInt32], offset: Int, chain: FontChain, size: Fixed16_16, direction: TextDirection) {
        self.chain = chain; self.size = size; self.text = text; self.offset = offset
        bidi = BidiParagraph(text, neutral: direction)
        let characters = text.map(chain.character)
        scripts = Self.resolveScripts(characters.map(\.script))
        faces = Self.resolveFaces(text, characters, levels: bidi.levels, chain: chain)
        breaks = LineBreaks.opportunities(text, scripts: scripts, language: nil)
        widths = Array(repeating: 0, count: text.count)
        clusterStarts = Array(repeating: false, count: text.count)
        for run in Self.runs(0..<text.count, levels: bidi.levels, scripts: scripts, faces: faces) {
            clusterStarts[run.lowerBound] = true
            let glyphs = chain.shape(text, run, face: faces[run.lowerBound], rightToLeft: bidi.levels[run.lowerBound] & 1 == 1,
                                     script: scripts[run.lowerBound])
            for g in glyphs {
                let c = Int(g.cluster)
                clusterStarts[c] = true
                widths[c] += Int64(chain.faces[faces[run.lowerBound]].scale(g.xAdvance, size: size).raw)
            }
            shapedRuns.append((run, glyphs))
        }
    }

    /// The width of `range` laid out as one line (its clusters' advances, before reshaping).
    func width(_ range: Range<Int>) -> Int64 { widths[range].reduce(0, +) }

    /// `range` without the spaces at its end.
    func trimmed(_ range: Range<Int>) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound && LineBreaks.isSpace(text[end - 1]) { end -= 1 }
        return range.lowerBound..<end
    }

    /// The glyphs of the line `range` in visual order, placed from x = 0, and its width.
    /// `reuse` false shapes every run again (the reference the reuse is tested against).
    func line(_ range: Range<Int>, reuse: Bool = true) -> (glyphs: [PositionedGlyph], width: Fixed16_16) {
        Self.line(text, range, bidi: bidi, scripts: scripts, faces: faces, chain: chain, size: size, clusterBase: offset) {
            reuse ? reused($0, lineLevels: $1) : nil
        }
    }

    /// The glyphs of the line's run `run` cut from the paragraph's shaping, or nil when it must be
    /// shaped again: its levels on the line differ from the paragraph's (rule L1), or a cut falls
    /// where HarfBuzz marks breaking unsafe (inside a ligature, between joined letters, a kerned pair).
    func reused(_ run: Range<Int>, lineLevels: [UInt8]) -> [ShapedGlyph]? {
        guard let shaped = shapedRuns.first(where: { $0.range.contains(run.lowerBound) }),
              run.upperBound <= shaped.range.upperBound,
              run.allSatisfy({ lineLevels[$0] == bidi.levels[$0] }) else { return nil }
        if run == shaped.range { return shaped.glyphs }
        // Clusters are monotonic (HarfBuzz's default cluster level): rising left to right in a
        // left-to-right run, falling in a right-to-left one. The run's glyphs are glyphs[lo..<hi].
        let glyphs = shaped.glyphs, rightToLeft = bidi.levels[run.lowerBound] & 1 == 1
        func firstIndex(after c: Int) -> Int {  // the first glyph of a character at or past c (logically)
            var lo = 0, hi = glyphs.count
            while lo < hi {
                let mid = (lo + hi) / 2, cluster = Int(glyphs[mid].cluster)
                if rightToLeft ? cluster < c : cluster >= c { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
        let lo = rightToLeft ? firstIndex(after: run.upperBound) : firstIndex(after: run.lowerBound)
        let hi = rightToLeft ? firstIndex(after: run.lowerBound) : firstIndex(after: run.upperBound)
        // A cut inside the shaped run: a glyph of the cluster starting there, safe to break at.
        func safeCut(at c: Int, glyph i: Int) -> Bool {
            glyphs.indices.contains(i) && Int(glyphs[i].cluster) == c && !glyphs[i].unsafeToBreak
        }
        if run.lowerBound > shaped.range.lowerBound && !safeCut(at: run.lowerBound, glyph: rightToLeft ? hi - 1 : lo) { return nil }
        if run.upperBound < shaped.range.upperBound && !safeCut(at: run.upperBound, glyph: rightToLeft ? lo - 1 : hi) { return nil }
        return Array(glyphs[lo..<hi])
    }

    /// The line from `start` to `end` followed by an ellipsis: "…" shaped with the run it ends, at
    /// the paragraph's level (so the logical end: the right of left-to-right text, the left of
    /// right-to-left), or "..." when no face has U+2026.
    func lineWithEllipsis(_ range: Range<Int>) -> (glyphs: [PositionedGlyph], width: Fixed16_16) {
        let ellipsis = self.ellipsis
        let kept = Array(text[range])
        let lastFace = faces[range].last ?? 0, lastScript = scripts[range].last ?? Script.common
        let face = chain.faces[lastFace].hasGlyph(for: Unicode.Scalar(ellipsis[0])!) ? lastFace : chain.resolve(Unicode.Scalar(ellipsis[0])!).faceIndex
        let lineBidi = BidiParagraph(types: Array(bidi.types[range]) + ellipsis.map(BidiParagraph.type(of:)),
                                     levels: Array(bidi.levels[range]) + ellipsis.map { _ in bidi.baseLevel }, baseLevel: bidi.baseLevel)
        return Self.line(kept + ellipsis, 0..<(kept.count + ellipsis.count), bidi: lineBidi,
                         scripts: Array(scripts[range]) + ellipsis.map { _ in lastScript },
                         faces: Array(faces[range]) + ellipsis.map { _ in face }, chain: chain, size: size,
                         clusterBase: offset + range.lowerBound) { _, _ in nil }
    }

    /// What ends a truncated line: "…", or "..." when no face has U+2026.
    var ellipsis: [UInt32] { chain.resolve("…").glyph != 0 ? [0x2026] : [0x2E, 0x2E, 0x2E] }

    /// The width of the ellipsis `lineWithEllipsis` adds (16.16 raw, unshaped).
    var ellipsisWidth: Int64 {
        ellipsis.reduce(Int64(0)) { sum, v in
            let r = chain.resolve(Unicode.Scalar(v)!)
            return sum + Int64((try? chain.faces[r.faceIndex].advance(glyph: r.glyph, size: size))?.raw ?? 0)
        }
    }

    // MARK: - Building blocks

    /// `reused` gives a run's glyphs without shaping it, when it can.
    private static func line(_ text: [UInt32], _ range: Range<Int>, bidi: BidiParagraph, scripts: [UInt32], faces: [Int],
                             chain: FontChain, size: Fixed16_16, clusterBase: Int,
                             reused: (Range<Int>, [UInt8]) -> [ShapedGlyph]?) -> (glyphs: [PositionedGlyph], width: Fixed16_16) {
        guard !range.isEmpty else { return ([], .zero) }
        let (levels, visual) = bidi.lineOrder(range)
        var lineLevels = bidi.levels
        for (i, level) in levels.enumerated() { lineLevels[range.lowerBound + i] = level }
        // A run is contiguous on screen too, in one direction: it sits where the leftmost of its ends does.
        let runs = Self.runs(range, levels: lineLevels, scripts: scripts, faces: faces)
            .map { run in (run, min(visual[run.lowerBound - range.lowerBound], visual[run.upperBound - 1 - range.lowerBound])) }
            .sorted { $0.1 < $1.1 }.map(\.0)
        var glyphs: [PositionedGlyph] = [], pen = Fixed16_16.zero
        glyphs.reserveCapacity(range.count)
        for run in runs {
            let faceIndex = faces[run.lowerBound], face = chain.faces[faceIndex]
            let shaped = reused(run, lineLevels)
                ?? chain.shape(text, run, face: faceIndex, rightToLeft: lineLevels[run.lowerBound] & 1 == 1, script: scripts[run.lowerBound])
            for g in shaped {
                let advance = face.scale(g.xAdvance, size: size)
                glyphs.append(PositionedGlyph(faceIndex: faceIndex, glyph: g.glyph, cluster: clusterBase + Int(g.cluster),
                                              x: pen + face.scale(g.xOffset, size: size), y: face.scale(-g.yOffset, size: size),
                                              advance: advance))
                pen += advance
            }
        }
        return (glyphs, pen)
    }

    /// `range` cut into runs of one level, script and face, in logical order.
    static func runs(_ range: Range<Int>, levels: [UInt8], scripts: [UInt32], faces: [Int]) -> [Range<Int>] {
        var out: [Range<Int>] = [], start = range.lowerBound
        for i in range where i > start && (levels[i] != levels[start] || scripts[i] != scripts[start] || faces[i] != faces[start]) {
            out.append(start..<i); start = i
        }
        if start < range.upperBound { out.append(start..<range.upperBound) }
        return out
    }

    /// Each character's script from its own (`own`); those of none take the one before them (or,
    /// at the start, the first after).
    static func resolveScripts(_ own: [UInt32]) -> [UInt32] {
        var scripts = own
        var last: UInt32? = nil
        for i in scripts.indices {
            if Script.isWeak(scripts[i]) { if let last { scripts[i] = last } } else { last = scripts[i] }
        }
        if let first = scripts.firstIndex(where: { !Script.isWeak($0) }) {
            for i in 0..<first { scripts[i] = scripts[first] }
        }
        return scripts
    }

    /// Each character's face, as Pango's itemizer picks it: the first in the chain that has it;
    /// but a space, or a character HarfBuzz hides (joiners, bidi marks, variation selectors), has
    /// no face of its own and takes the face of the character before it at the same bidi level,
    /// else of the next one, and a combining mark stays with its base's face when that has it. A
    /// character no face has stays in the face before it, drawn as that face's missing glyph (a box).
    static func resolveFaces(_ text: [UInt32], _ characters: [FontChain.Character], levels: [UInt8], chain: FontChain) -> [Int] {
        let n = text.count, none = -1
        // Each character's own face, `none` for spaces and hidden characters.
        var own = [Int](repeating: none, count: n)
        for i in 0..<n {
            let c = characters[i]
            if c.isSpace || c.isHidden { continue }
            let previous = i > 0 && levels[i - 1] == levels[i] ? own[i - 1] : none
            if previous != none && c.script == Script.inherited && chain.has(c, in: previous) { own[i] = previous; continue }
            if c.glyph == 0 { chain.noteMissing(Unicode.Scalar(c.value) ?? "\u{FFFD}") }
            own[i] = c.glyph != 0 ? c.face : max(previous, 0)
        }
        // Spaces and hidden characters: the face before, else the face after, at their level. The
        // face after each character is found in one pass from the end (a long run of spaces would
        // make a search per space quadratic).
        var after = [Int](repeating: none, count: n)
        for i in stride(from: n - 2, through: 0, by: -1) where levels[i + 1] == levels[i] {
            after[i] = own[i + 1] != none ? own[i + 1] : after[i + 1]
        }
        var resolved = own
        for i in 0..<n where own[i] == none {
            let c = characters[i]
            let before = i > 0 && levels[i - 1] == levels[i] ? resolved[i - 1] : none
            let near = before != none ? before : after[i]
            if near != none && (c.isHidden || chain.has(c, in: near)) { resolved[i] = near; continue }
            resolved[i] = c.glyph != 0 ? c.face : max(near, 0)
            if c.glyph == 0 && !c.isHidden { chain.noteMissing(Unicode.Scalar(c.value) ?? " ") }
        }
        return resolved
    }
}
