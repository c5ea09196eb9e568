// SPDX-License-Identifier: MIT
// A chain's bold, one weight in every script as UIKit and Pango draw it. Each entry's bold is its
// sibling file, found by name beside it as the chain finds its faces (by path, no fontconfig):
// Noto's and Liberation's `-Regular` becomes `-Bold` (NotoSansHebrew-Bold.ttf,
// NotoSansCJK-Bold.ttc, whose faces come in the Regular collection's order), DejaVu's
// `DejaVuSans.ttf` becomes `DejaVuSans-Bold.ttf`, GNU FreeFont's `FreeSans.ttf` `FreeSansBold.ttf`.
// A sibling counts only when FreeType says its face is bold. An entry with none installed (Droid
// Sans Fallback, WenQuanYi Micro Hei) is its regular face emboldened (FontFace.emboldening).
// The simpler version, DejaVu Sans Bold in front of the regular chain, drew a Hebrew label's Latin
// word bold and its Hebrew regular.

extension FontSource {
    /// Where this face's bold may be, most likely first: beside it, its style in the name.
    public var boldSiblingPaths: [String] {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let dot = path[slash...].lastIndex(of: ".") ?? path.endIndex
        let directory = path[..<slash], stem = path[slash..<dot], suffix = path[dot...]
        let stems = stem.hasSuffix("-Regular") ? [String(stem.dropLast("-Regular".count)) + "-Bold"] : [stem + "-Bold", stem + "Bold"]
        return stems.map { String(directory) + $0 + String(suffix) }
    }
}

extension FontFace {
    /// The bold of `source`'s face: the first of its `boldSiblingPaths` that opens as a bold face,
    /// else its own face emboldened (left as it is when it is bold already). Throws as
    /// `init(path:index:)` does for `source` itself.
    static func bold(of source: FontSource) throws -> FontFace {
        for path in source.boldSiblingPaths {
            if let face = try? FontFace(path: path, index: source.index), face.isBold { return face }
        }
        return try FontFace(path: source.path, index: source.index, emboldened: true)
    }
}
