// SPDX-License-Identifier: MIT
// Lines take their glyphs from the paragraph's shaping where HarfBuzz says a cut is safe
// (ShapedParagraph.reused): every line of these paragraphs, wrapped at many widths, must come out
// exactly as when each of its runs is shaped again, and the cut-out glyphs must be used (not
// always refused) on the texts where breaking between words is safe.

@testable import Assets
import Foundation
import Raster
import Testing

@Suite struct LineReuseTests {
    static let noto = "/usr/share/fonts/truetype/noto/NotoSans"

    /// Paragraphs with joined letters, ligatures, kerning, marks, conjuncts, mixed directions.
    static let texts: [(text: String, faces: [String])] = [
        ("جارٍ تحديث النظام، يرجى عدم فصل الجهاز عن الكهرباء حتى يكتمل التحديث 42% (Linux 6.1) ثم إعادة التشغيل",
         [noto + "Arabic-Regular.ttf", TestFonts.dejaVu]),
        ("מתקין עדכון 3 מתוך 7 (גרסה 2.1) אנא אל תכבו את המכשיר עד לסיום ההתקנה", [noto + "Hebrew-Regular.ttf", TestFonts.dejaVu]),
        ("हिन्दी में अद्यतन स्थापित हो रहा है कृपया प्रतीक्षा करें और बिजली बंद न करें", [noto + "Devanagari-Regular.ttf", TestFonts.dejaVu]),
        ("กำลังติดตั้งการอัปเดตระบบ กรุณาอย่าปิดเครื่องจนกว่าการติดตั้งจะเสร็จสมบูรณ์", [noto + "Thai-Regular.ttf", TestFonts.dejaVu]),
        ("AVATAR WAVE: the office staff turn off the affluent firewall, then To Vienna.", [TestFonts.dejaVu]),
    ]

    @Test(arguments: texts.indices)
    func everyLineIsAsIfReshaped(_ index: Int) throws {
        let (text, paths) = Self.texts[index]
        try #require(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "scripts/setup.sh --tests installs \(paths)")
        let chain = try FontChain(paths: paths)
        let para = ShapedParagraph(text.unicodeScalars.map(\.value), offset: 0, chain: chain, size: Fixed16_16(integer: 15),
                                   direction: .leftToRight)
        var lines = 0, reusedCuts = 0
        for width in stride(from: 40, through: 480, by: 17) {
            for range in TextLayout.wrap(para, maxWidth: Int64(Fixed16_16(integer: width).raw)) {
                let trimmed = para.trimmed(range)
                let reused = para.line(trimmed), reshaped = para.line(trimmed, reuse: false)
                #expect(reused.glyphs == reshaped.glyphs, "width \(width), characters \(trimmed)")
                #expect(reused.width == reshaped.width)
                lines += 1
                // A line cut out of a longer run without shaping it again.
                if para.shapedRuns.contains(where: { $0.range.count > trimmed.count && $0.range.contains(trimmed.lowerBound) }),
                   para.reused(trimmed, lineLevels: para.bidi.levels) != nil { reusedCuts += 1 }
            }
        }
        #expect(lines > 50)
        #expect(reusedCuts > 0, "no line was cut out of the paragraph's shaping")
    }

    /// A cut HarfBuzz marks unsafe is shaped again: inside DejaVu's "ff" ligature, and between two
    /// joined Arabic letters.
    @Test func unsafeCutsAreRefused() throws {
        for (text, path, cut) in [("office", TestFonts.dejaVu, 2), ("تحديث", Self.noto + "Arabic-Regular.ttf", 2)] {
            let chain = try FontChain(paths: [path])
            let para = ShapedParagraph(text.unicodeScalars.map(\.value), offset: 0, chain: chain, size: Fixed16_16(integer: 15),
                                       direction: .leftToRight)
            #expect(para.reused(0..<cut, lineLevels: para.bidi.levels) == nil, "\(text) cut at \(cut)")
        }
    }
}
