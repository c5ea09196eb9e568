// SPDX-License-Identifier: MIT
import GoldenSupport
import Gallery
import Raster
import Testing

@Suite("Gallery goldens")
struct GalleryGoldenTests {
    /// Every primitive, cap, join, paint and transform of the gallery, bit-exact.
    @Test(arguments: Gallery.primitives.map(\.name))
    func primitive(_ name: String) {
        let item = Gallery.primitives.first { $0.name == name }!
        expectGolden(Gallery.render(item), name, suite: "Primitives")
    }

    /// The benchmark's reference frame (frame 10), at 1080p and 4K.
    @Test(arguments: [ReferenceFrame.Variant.full1080, .full4k])
    func referenceFrame(_ variant: ReferenceFrame.Variant) throws {
        let scene = try ReferenceFrame(variant)
        let p = Pixmap(width: scene.geometry.width, height: scene.geometry.height)
        scene.draw(frame: 10, into: Canvas(p.view))
        expectGolden(p, variant.rawValue, suite: "ReferenceFrame")
    }

    /// Redrawing only the damage rect over frame n−1 gives exactly a full draw of frame n.
    @Test func damageRedrawEqualsFullDraw() throws {
        let full = try ReferenceFrame(.full1080), damage = try ReferenceFrame(.damage1080)
        let incremental = Pixmap(width: 1920, height: 1080), fresh = Pixmap(width: 1920, height: 1080)
        full.draw(frame: 9, into: Canvas(incremental.view))
        for n in 10...13 {
            damage.draw(frame: n, into: Canvas(incremental.view))
            full.draw(frame: n, into: Canvas(fresh.view))
            #expect(incremental.pixels == fresh.pixels, "frame \(n)")
        }
    }

    @Test func statusAdvanceMatchesTheSpec() throws {
        #expect(try ReferenceFrame(.full1080).textAdvance == Fixed16_16(201.40625))
        #expect(try ReferenceFrame(.full4k).textAdvance == Fixed16_16(302.109375))
    }

    @Test func referenceFrameColoursAreTheSpecs() throws {
        let scene = try ReferenceFrame(.full1080)
        let p = Pixmap(width: 1920, height: 1080)
        scene.draw(frame: 10, into: Canvas(p.view))
        let dimmed = p[5, 5], bezel = p[870, 450]
        #expect(dimmed.a == 255 && dimmed.r == 19 && dimmed.g == 38 && (dimmed.b == 58 || dimmed.b == 57))
        #expect(bezel.r == 243 && bezel.g == 244 && bezel.b == 245)
    }
}
