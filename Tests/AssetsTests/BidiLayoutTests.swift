// SPDX-License-Identifier: MIT
// Right-to-left paragraphs wrapped and truncated, the fallback chain's runs, and the chain syntax.

import Assets
import Raster
import Testing

@Suite struct BidiLayoutTests {
    static let hebrew = "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf"
    func chain() throws -> FontChain { try FontChain(paths: [Self.hebrew, TestFonts.dejaVu]) }

    /// Wrapped: the first logical words are on the first line, each line right to left (its
    /// first word at the right), lines reordered after breaking.
    @Test func wrappedRightToLeft() throws {
        let text = "אחת שתיים שלוש ארבע חמש שש שבע שמונה"
        let layout = TextLayout(text, chain: try chain(), fontSize: Fixed16_16(20), maxWidth: Fixed16_16(120), alignment: .center)
        #expect(layout.lines.count > 1 && layout.lines.allSatisfy(\.isRightToLeft))
        #expect(layout.lines[0].text.hasPrefix("אחת"))
        for line in layout.lines {
            let byCluster = line.glyphs.sorted { $0.cluster < $1.cluster }
            #expect(byCluster.first!.x > byCluster.last!.x, "the logical first glyph is at the right: \(line.text)")
        }
    }

    /// Truncated: the ellipsis ends the kept text at its logical end, the left of the line.
    @Test func truncatedRightToLeft() throws {
        let text = "אחת שתיים שלוש ארבע חמש שש שבע שמונה תשע עשר"
        let layout = TextLayout(text, chain: try chain(), fontSize: Fixed16_16(20), maxWidth: Fixed16_16(120),
                                maxHeight: Fixed16_16(40), alignment: .center)
        let last = try #require(layout.lines.last)
        #expect(layout.isTruncated && last.text.hasSuffix("…"))
        let ellipsis = try #require(last.glyphs.max { $0.cluster < $1.cluster })
        #expect(ellipsis.x == last.glyphs.map(\.x).min(), "the ellipsis is the leftmost glyph")
        #expect(last.width <= Fixed16_16(120))
    }

    /// A number alone takes the direction given for text without strong characters.
    @Test func neutralTextTakesTheGivenDirection() throws {
        let ltr = TextLayout("42 %", chain: try chain(), fontSize: Fixed16_16(20))
        let rtl = TextLayout("42 %", chain: try chain(), fontSize: Fixed16_16(20), direction: .rightToLeft)
        #expect(!ltr.lines[0].isRightToLeft && rtl.lines[0].isRightToLeft)
        // "%" is after the number in both; in a right-to-left paragraph the space and "%" go left.
        #expect(ltr.lines[0].glyphs.first?.cluster == 0 && rtl.lines[0].glyphs.first?.cluster == 3)
    }

    /// Runs by script and face: Hebrew letters from the Hebrew face, Latin and digits from DejaVu.
    @Test func fallbackRuns() throws {
        let layout = TextLayout("עדכון Linux 6.1", chain: try chain(), fontSize: Fixed16_16(20))
        let faceOf = { (cluster: Int) in layout.lines[0].glyphs.first { $0.cluster == cluster }!.faceIndex }
        #expect(faceOf(0) == 0 && faceOf(6) == 1 && faceOf(12) == 1)
    }

    /// A character no face has is one box (the missing glyph), reported once.
    @Test func missingCharactersAreBoxesReportedOnce() throws {
        let chain = try FontChain(paths: [TestFonts.dejaVu])
        let layout = TextLayout("a\u{1F9A9}b", chain: chain, fontSize: Fixed16_16(20))
        #expect(layout.lines[0].glyphs.map(\.glyph).filter { $0 == 0 }.count == 1)
        #expect(chain.takeMissing() == ["\u{1F9A9}"])
        _ = TextLayout("\u{1F9A9}", chain: chain, fontSize: Fixed16_16(20))
        #expect(chain.takeMissing().isEmpty)
    }

    @Test func chainSyntax() throws {
        let sources = try FontSource.parse("/a.ttf:/b.ttc#2:/c.ttf@Latn,Grek")
        #expect(sources == [FontSource(path: "/a.ttf"), FontSource(path: "/b.ttc", index: 2), FontSource(path: "/c.ttf", scripts: ["Latn", "Grek"])])
        #expect(FontSource.spec(sources) == "/a.ttf:/b.ttc#2:/c.ttf@Latn,Grek")
        #expect(throws: FontSpecError.self) { try FontSource.parse("/a.ttf@Klingon") }
        #expect(throws: FontSpecError.self) { try FontSource.parse("/a.ttc#x") }
        #expect(throws: FontSpecError.self) { try FontSource.parse("/a.ttf::/b.ttf") }
    }

    /// The default chain gives Arabic to Noto's Arabic face although DejaVu Sans has Arabic too.
    @Test func defaultChainPrefersTheScriptsFace() throws {
        let chain = try FontChain.systemDefault()
        let arabic = chain.resolve("ج"), latin = chain.resolve("A")
        #expect(chain.faces[latin.faceIndex].path.hasSuffix("DejaVuSans.ttf"))
        #expect(chain.faces[arabic.faceIndex].path.hasSuffix("NotoSansArabic-Regular.ttf"))
        #expect(chain.resolve("한").glyph != 0 && chain.resolve("ก").glyph != 0 && chain.resolve("क").glyph != 0)
    }

    /// Flags (regional indicators) made Debian's libunibreak 1.1 abort; they wrap as a word.
    @Test func flagsWrapAsAWord() throws {
        let layout = TextLayout("Flag \u{1F1E9}\u{1F1EA}\u{1F1EB}\u{1F1F7} ok", chain: try TestFonts.chain(),
                                fontSize: Fixed16_16(20), maxWidth: Fixed16_16(40))
        #expect(layout.lines.count >= 2)
    }
}
