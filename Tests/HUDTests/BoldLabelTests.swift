// SPDX-License-Identifier: MIT
// MB's bold label in one weight across scripts, as UIKit and Pango draw it (FontChain+Bold): with
// no font set, a Hebrew label with a Latin word takes both from faces bold by design (Noto Sans
// Hebrew Bold beside DejaVu Sans Bold, not the regular Hebrew face), and a face with no bold
// sibling installed (Droid Sans Fallback) is emboldened: heavier ink, wider advances.
import Assets
import HUD
import Raster
import Testing

@Suite struct BoldLabelTests {
    static let label = "מתקין firmware 2.4.1 (שלב 3)"
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let droid = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"

    /// Each letter of `layout` (digits, spaces and punctuation left out: any face may draw them)
    /// with the face that draws it.
    static func letters(_ layout: TextLayout, of text: String) -> [(scalar: Unicode.Scalar, face: FontFace)] {
        let scalars = Array(text.unicodeScalars)
        return layout.lines.flatMap(\.glyphs).compactMap { g in
            let s = scalars[g.cluster]
            return s.properties.isAlphabetic ? (s, layout.chain.faces[g.faceIndex]) : nil
        }
    }

    /// The ink `layout` leaves drawn black on white: the sum of every pixel's darkness.
    static func ink(_ layout: TextLayout) -> Int {
        let size = layout.size
        let pixmap = Pixmap(width: size.width.ceil + 8, height: size.height.ceil + 8)
        let canvas = Canvas(pixmap.view)
        canvas.clear(.white)
        layout.draw(into: canvas, origin: Point(4, 4), color: .black)
        return pixmap.pixels.reduce(0) { $0 + 255 - Int(PremultipliedColor(argb: $1).g) }
    }

    /// The label as MB's layout takes it with no font set: every letter from a bold face, none
    /// emboldened (every script here has a bold face installed), and the Hebrew drawn heavier than
    /// the regular chain draws it.
    @Test func hebrewLabelIsBoldInBothScripts() throws {
        let resources = try HUDResources.system()
        let p = DrawHarness.mb(.indeterminate, .activity(elapsed: .zero), label: Self.label)
        let layout = HUDLayout.compute(p, screen: Size(320, 240), resources: resources)
        let label = try #require(layout.texts.first { $0.role == .label })
        let letters = Self.letters(label.text, of: Self.label)
        let hebrew = letters.filter { (0x05D0...0x05EA).contains($0.scalar.value) }
        let latin = letters.filter { $0.scalar.isASCII }
        // Eight Hebrew letters; "firmware" in seven glyphs (DejaVu's "fi" ligature).
        #expect(hebrew.count == 8 && latin.count == 7, "\(letters.map(\.scalar))")
        for (s, face) in hebrew {
            #expect(face.familyName == "Noto Sans Hebrew" && face.styleName == "Bold" && face.isBold && !face.isEmboldened,
                    "\(s) from \(face.familyName) \(face.styleName)")
        }
        for (s, face) in latin {
            #expect(face.familyName == "DejaVu Sans" && face.styleName == "Bold" && face.isBold && !face.isEmboldened,
                    "\(s) from \(face.familyName) \(face.styleName)")
        }
        let words = "מתקין שלב"
        let bold = TextLayout(words, chain: try #require(resources.bold), fontSize: Fixed16_16(16))
        let regular = TextLayout(words, chain: try #require(resources.regular), fontSize: Fixed16_16(16))
        #expect(Self.ink(bold) * 100 > Self.ink(regular) * 115, "bold \(Self.ink(bold)), regular \(Self.ink(regular))")
    }

    /// A face with no bold sibling is drawn emboldened, em/24 as FreeType's FT_GlyphSlot_Embolden:
    /// each ideograph's advance 1/24 em wider (10 of Droid's 256 units), its ink heavier; a face
    /// bold already is left so.
    @Test func faceWithoutBoldIsEmboldened() throws {
        let sources = [FontSource(path: Self.dejaVu, scripts: ["Latn", "Grek", "Cyrl"]), FontSource(path: Self.droid)]
        let regular = try FontChain(sources: sources), bold = try FontChain(sources: sources, bold: true)
        #expect(bold.faces.map(\.path) == ["/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", Self.droid])
        #expect(bold.faces[0].isBold && !bold.faces[0].isEmboldened)
        let droid = bold.faces[1]
        #expect(!droid.isBold && droid.isEmboldened && droid.emboldening == droid.unitsPerEm / 24)

        let text = "正在安装更新", size = Fixed16_16(24)
        let r = TextLayout(text, chain: regular, fontSize: size), b = TextLayout(text, chain: bold, fontSize: size)
        #expect(b.lines[0].glyphs.count == 6 && b.lines[0].glyphs.allSatisfy { $0.faceIndex == 1 })
        let wider = b.size.width - r.size.width, expected = droid.scale(6 * droid.emboldening, size: size)
        #expect(abs(wider.raw - expected.raw) <= 6, "\(wider) wider, not \(expected)")
        #expect(Self.ink(b) * 100 > Self.ink(r) * 110, "emboldened \(Self.ink(b)), regular \(Self.ink(r))")

        // Bold by design already (a chain naming DejaVu Sans Bold): drawn as it is.
        let boldAlready = try FontChain(sources: [FontSource(path: bold.faces[0].path)], bold: true)
        #expect(boldAlready.faces[0].isBold && !boldAlready.faces[0].isEmboldened)
    }
}
