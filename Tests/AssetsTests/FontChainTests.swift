// SPDX-License-Identifier: MIT
// Fallback: each character from the first face that has it.

import Assets
import Raster
import Testing

@Suite struct FontChainTests {
    @Test func cjkFallsBackToDroidLatinStaysOnDejaVu() throws {
        let chain = try TestFonts.chain()
        #expect(chain.faces.map(\.familyName) == ["DejaVu Sans", "Droid Sans Fallback"])
        for s in "正在安装更新".unicodeScalars {
            let r = chain.resolve(s)
            #expect(r.faceIndex == 1, "\(s) should come from Droid Sans Fallback")
            #expect(r.glyph != 0 && r.glyph == chain.faces[1].glyphIndex(for: s))
        }
        for s in "Installing update 3 of 7…".unicodeScalars {
            let r = chain.resolve(s)
            #expect(r.faceIndex == 0, "\(s) should come from DejaVu Sans")
            #expect(r.glyph == chain.faces[0].glyphIndex(for: s))
        }
        #expect(chain.glyph(for: "A").face === chain.primary)
    }

    @Test func orderDecides() throws {
        let cjkFirst = try FontChain(paths: [TestFonts.droid, TestFonts.dejaVu])
        #expect(cjkFirst.resolve("正").faceIndex == 0)
        #expect(cjkFirst.resolve("A").faceIndex == 1)  // Droid Sans Fallback has no Basic Latin
        #expect(cjkFirst.primary.familyName == "Droid Sans Fallback")
    }

    @Test func uncoveredCharacterIsPrimaryNotdef() throws {
        let chain = try TestFonts.chain()
        let r = chain.resolve("\u{10FFFD}")  // private use, in neither face
        #expect(r.faceIndex == 0 && r.glyph == 0)
        let dejaVuOnly = try FontChain(paths: [TestFonts.dejaVu])
        #expect(dejaVuOnly.resolve("正").glyph == 0)
    }

    @Test func systemDefaultStartsWithDejaVuAndCoversCJK() throws {
        let chain = try FontChain.systemDefault()
        #expect(chain.primary.path == FontChain.defaultSearchPaths[0])
        #expect(chain.faces.contains { $0.path == TestFonts.droid })
        #expect(chain.resolve("新").glyph != 0)
        #expect(chain.faces.count + chain.skipped.count == FontChain.defaultSearchPaths.count)
    }

    @Test func faceIDsAreUnique() throws {
        let a = try FontFace(path: TestFonts.dejaVu), b = try FontFace(path: TestFonts.dejaVu)
        #expect(a.id != b.id)
    }
}
