// SPDX-License-Identifier: MIT
// Text in every script against goldens (Tests/AssetsTests/Golden/Scripts/) and, in the same test,
// against Pango laying out the same string with the same faces and size: the same glyphs in the
// same visual order on the same lines, each within a pixel of Pango's position. A golden recorded
// from a wrong layout (unjoined Arabic, reversed Hebrew, unformed Devanagari conjuncts, Thai
// broken inside a word) fails the Pango half. Faces: Debian's fonts-noto-core, fonts-dejavu-core
// and fonts-droid-fallback.

import Assets
import Foundation
import GoldenSupport
import Raster
import Testing

@Suite struct ScriptTextTests {
    static let noto = "/usr/share/fonts/truetype/noto/NotoSans"
    static let dejaVu = TestFonts.dejaVu

    /// One face per script, DejaVu Sans behind it; black on white, its golden and Pango's lines.
    func check(_ name: String, _ text: String, face: String, family: String, px: Int = 24, width: Int? = nil,
               sourceLocation: SourceLocation = #_sourceLocation) throws -> TextLayout {
        let fonts = face == Self.dejaVu ? [face] : [face, Self.dejaVu]
        try #require(fonts.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "\(face) is missing: scripts/setup.sh --tests installs it")
        let chain = try FontChain(paths: fonts)
        let layout = TextLayout(text, chain: chain, fontSize: Fixed16_16(integer: px),
                                maxWidth: width.map { Fixed16_16(integer: $0) }, alignment: .center)
        let size = layout.size
        let pixmap = Pixmap(width: Int32(size.width.ceil) + 8, height: Int32(size.height.ceil) + 8)
        let canvas = Canvas(pixmap.view)
        canvas.clear(.white)
        layout.draw(into: canvas, origin: Point(4, 4), color: .black)
        expectGolden(pixmap.view, name, suite: "Scripts", sourceLocation: sourceLocation)
        PangoReference.expectSame(layout, as: try PangoReference.lines(text, fonts: fonts, family: family, px: px, width: width),
                                  sourceLocation: sourceLocation)
        return layout
    }

    /// Joined Arabic, right to left, with digits (left to right inside it) and a Latin word.
    @Test func arabic() throws {
        let layout = try check("arabic", "جارٍ تحديث النظام 42% (Linux)", face: Self.noto + "Arabic-Regular.ttf", family: "Noto Sans Arabic")
        #expect(layout.lines[0].isRightToLeft)
        // Right to left: the first word's first letter sits right of the second word's. (Joined:
        // the glyph IDs are Pango's contextual forms, checked above.)
        let x = { (cluster: Int) in layout.lines[0].glyphs.first { $0.cluster == cluster }!.x }
        #expect(x(0) > x(5))
    }

    /// Hebrew right to left, a number and mirrored brackets.
    @Test func hebrew() throws {
        let layout = try check("hebrew", "מתקין עדכון 3 מתוך 7 (גרסה 2.1)", face: Self.noto + "Hebrew-Regular.ttf", family: "Noto Sans Hebrew")
        #expect(layout.lines[0].isRightToLeft)
    }

    /// Conjuncts (न्द, द्य, स्थ) and the i-matra drawn before its consonant.
    @Test func devanagari() throws {
        _ = try check("devanagari", "हिन्दी में अद्यतन स्थापित हो रहा है", face: Self.noto + "Devanagari-Regular.ttf",
                      family: "Noto Sans Devanagari")
    }

    /// Stacked marks, and a sentence wrapped between words that no space separates (libthai).
    @Test func thaiWrapped() throws {
        let layout = try check("thai", "กำลังติดตั้งการอัปเดตระบบ กรุณาอย่าปิดเครื่อง", face: Self.noto + "Thai-Regular.ttf",
                               family: "Noto Sans Thai", width: 200)
        #expect(layout.lines.count >= 3, "broken only at the space: \(layout.lines.map(\.text))")
    }

    /// Korean from the Droid file that has every Hangul syllable.
    @Test func korean() throws {
        _ = try check("korean", "시스템을 업데이트하는 중입니다", face: "/usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf",
                      family: "Droid Sans Fallback")
    }

    /// Chinese wrapped between ideographs, the comma kept with the one before it.
    @Test func chineseWrapped() throws {
        let layout = try check("chinese", "正在安装系统更新，请勿关闭电源。", face: TestFonts.droid, family: "Droid Sans Fallback", width: 152)
        #expect(layout.lines.count > 1 && !layout.lines.dropFirst().contains { $0.text.hasPrefix("，") || $0.text.hasPrefix("。") })
    }

    /// DejaVu's kerning pairs (AV, VA, AT, WA).
    @Test func kernedLatin() throws {
        let layout = try check("kerned", "AVATAR WAVE", face: Self.dejaVu, family: "DejaVu Sans")
        let unkerned = TextLayout.advanceWidth(of: "A", chain: layout.chain, fontSize: Fixed16_16(integer: 24))
        #expect(layout.lines[0].glyphs[1].x < unkerned, "V is pulled under A")
    }
}
