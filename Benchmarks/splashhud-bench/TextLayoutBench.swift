// SPDX-License-Identifier: MIT
// `splashhud-bench text-layout`: one paragraph laid out again and again as the HUD lays out a
// status (TextLayout: bidi levels, a script and a face per character, shaping, line breaks, the
// greedy fill, then each line reordered and its runs shaped again), with nothing carried over
// from the layout before: each layout gets a fresh FontChain over the already opened face, so
// no shaped run and no character→face lookup is cached. The face itself (FreeType's and
// HarfBuzz's fonts) stays open, as Pango's font map keeps its fonts. scripts/bench/text-layout.sh
// runs this interleaved with Benchmarks/text-layout/pango-layout.c, which prints the same line.
import ArgumentParser
import Assets
import Foundation
import Raster

struct TextLayoutBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "text-layout",
        abstract: "Time laying out a paragraph from scratch, wrapped as SV's label is.",
        discussion: """
            Prints one line: layout_ns median=… p10=… p90=… n=… lines=… starts=… (the first \
            character of each line), the format of Benchmarks/text-layout/pango-layout.c.
            """)

    @Option(help: "The face, alone in the chain.")
    var font: String

    @Option(help: "The text, UTF-8 (one paragraph; a final newline is dropped).")
    var textFile: String

    @Option(help: "Pixels per em (SV's label: 15).")
    var size: Int = 15

    @Option(help: "Wrapping width in pixels (SV's label box: 200x300).")
    var width: Int = 200

    @Option(help: "Height in pixels; a text that would be truncated to fit is an error.")
    var height: Int = 300

    @Option(help: "Timed layouts, after the warm-up ones.")
    var layouts: Int = 400

    @Option(help: "Layouts made first and not counted.")
    var warmup: Int = 50

    func validate() throws {
        guard layouts > 0, warmup >= 0, size > 0, width > 0, height > 0 else {
            throw ValidationError("--layouts, --size, --width and --height must be positive, --warmup not negative")
        }
    }

    func run() throws {
        var text = try String(contentsOfFile: textFile, encoding: .utf8)
        while text.hasSuffix("\n") { text.removeLast() }
        let face = try FontFace(path: font)
        let glyphs = GlyphCache()  // shared: layout never rasterizes, and making one is not layout
        var times: [UInt64] = [], last: TextLayout?
        times.reserveCapacity(layouts)
        for i in 0..<(warmup + layouts) {
            let t0 = monotonicNanoseconds()
            let chain = try FontChain(faces: [face], cache: glyphs)
            let layout = TextLayout(text, chain: chain, fontSize: Fixed16_16(size), maxWidth: Fixed16_16(width),
                                    maxHeight: Fixed16_16(height), alignment: .center)
            withExtendedLifetime(layout.size) {}
            let t1 = monotonicNanoseconds()
            if i >= warmup { times.append(t1 - t0) }
            last = layout
        }
        guard let layout = last else { return }
        if layout.isTruncated { throw ValidationError("the text was truncated to \(layout.lines.count) lines: Pango's side would not be") }
        // Each line's first character: its glyphs' lowest cluster (the spaces at a break start no line).
        let starts = layout.lines.map { line in line.glyphs.map(\.cluster).min() ?? 0 }
        let s = Summary(nanoseconds: times)
        func ns(_ ms: Double) -> Int { Int((ms * 1e6).rounded()) }
        print("layout_ns median=\(ns(s.median)) p10=\(ns(s.p10)) p90=\(ns(s.p90)) n=\(times.count) lines=\(layout.lines.count) "
              + "starts=\(starts.map(String.init).joined(separator: ",")) chars=\(text.unicodeScalars.count)")
    }
}
