// SPDX-License-Identifier: MIT
// Pango as the reference for text: the same string, faces and size laid out by pango-view
// (Debian's pango1.0-tools: HarfBuzz, FriBidi, libthai and fontconfig behind it), its layout read
// back from --serialize-to's JSON. Fontconfig is pinned to a directory holding exactly the test's
// faces (there is no font-file option), hinting and metric hinting are off and positions
// sub-pixel, so Pango's glyphs and advances are the unhinted ones ours are.

import Assets
import Foundation
import Raster
import Testing

struct PangoLine: Equatable {
    /// Glyph IDs in visual order, left to right (hidden glyphs left out).
    var glyphs: [UInt32]
    /// Each glyph's pen position from the line's left end, in pixels.
    var xs: [Double]
    /// The bidi level of each glyph's run.
    var levels: [Int]
}

enum PangoReference {
    static let pangoView = "/usr/bin/pango-view"

    /// Pango's lines for `text` in `family` at `px` pixels, wrapped at `width` pixels (a multiple of 4:
    /// pango-view takes whole points; nil: no wrapping), with fontconfig seeing only `fonts`.
    static func lines(_ text: String, fonts: [String], family: String, px: Int, width: Int? = nil) throws -> [PangoLine] {
        try #require(FileManager.default.isExecutableFile(atPath: pangoView), "pango-view is missing: scripts/setup.sh --tests installs pango1.0-tools")
        let dir = TestFonts.temporaryPath("pango")
        try FileManager.default.createDirectory(atPath: dir + "/fonts", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for f in fonts { try FileManager.default.copyItem(atPath: f, toPath: dir + "/fonts/" + (f as NSString).lastPathComponent) }
        try """
            <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
            <fontconfig><dir>\(dir)/fonts</dir><cachedir>\(dir)/cache</cachedir></fontconfig>
            """.write(toFile: dir + "/fonts.conf", atomically: true, encoding: .utf8)
        // Points at pango-view's 96 dpi: px · 72 / 96.
        var arguments = ["--no-display", "-q", "--font=\(family) \(Double(px) * 0.75)", "--hinting=none", "--hint-metrics=off",
                         "--subpixel-positions", "--serialize-to=\(dir)/layout.json", "-o", "\(dir)/out.png", "--text=\(text)"]
        if let width { arguments += ["--width=\(width * 3 / 4)", "--wrap=word-char"] }  // in points too
        let p = Process()
        p.executableURL = URL(fileURLWithPath: pangoView)
        p.arguments = arguments
        p.environment = ["FONTCONFIG_FILE": dir + "/fonts.conf", "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]  // --text is read in the locale's charset
        try p.run()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "pango-view failed (\(p.terminationStatus))")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/layout.json"))) as? [String: Any]
        let lines = (json?["output"] as? [String: Any])?["lines"] as? [[String: Any]] ?? []
        return lines.map { line in
            // (glyph, pen, x offset, whether it draws a space) in visual order.
            var glyphs: [(id: UInt32, pen: Double, offset: Double, space: Bool, level: Int)] = [], pen = 0.0
            for run in line["runs"] as? [[String: Any]] ?? [] {
                let level = run["bidi-level"] as? Int ?? 0
                let text = Array((run["text"] as? String ?? "").utf8)
                for g in run["glyphs"] as? [[String: Any]] ?? [] {
                    let id = g["glyph"] as? Int ?? 0, width = Double(g["width"] as? Int ?? 0) / 1024
                    let cluster = g["log-cluster"] as? Int ?? 0
                    let space = cluster < text.count && (text[cluster] == 0x20 || text[cluster] == 0x09)
                    if id < 0x1000_0000 {  // PANGO_GLYPH_EMPTY and unknown-glyph markers are not font glyphs
                        glyphs.append((UInt32(id), pen, Double(g["x-offset"] as? Int ?? 0) / 1024, space, level))
                    }
                    pen += width
                }
            }
            // Pango keeps a wrapped line's spaces at its logical end (on the left of a right-to-left
            // line); ours hang outside the line. Compare what is between them.
            while glyphs.last?.space == true { glyphs.removeLast() }
            while glyphs.first?.space == true { glyphs.removeFirst() }
            let start = glyphs.first?.pen ?? 0
            return PangoLine(glyphs: glyphs.map(\.id), xs: glyphs.map { $0.pen - start + $0.offset }, levels: glyphs.map(\.level))
        }
    }

    /// Our lines in Pango's terms: glyph IDs and pen positions from each line's left end.
    static func lines(of layout: TextLayout) -> [PangoLine] {
        layout.lines.map { line in
            PangoLine(glyphs: line.glyphs.map(\.glyph), xs: line.glyphs.map { $0.x.double }, levels: [])
        }
    }

    /// Records an issue unless `ours` and `pango` have the same lines of the same glyphs, each
    /// within `tolerance` pixels of Pango's position.
    static func expectSame(_ ours: TextLayout, as pango: [PangoLine], tolerance: Double = 1, sourceLocation: SourceLocation = #_sourceLocation) {
        let mine = lines(of: ours)
        #expect(mine.map(\.glyphs) == pango.map(\.glyphs), "glyphs differ from Pango's", sourceLocation: sourceLocation)
        for (a, b) in zip(mine, pango) where a.glyphs == b.glyphs {
            let worst = zip(a.xs, b.xs).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= tolerance, "a glyph is \(worst) px from Pango's position: ours \(a.xs), Pango's \(b.xs)", sourceLocation: sourceLocation)
        }
    }
}
