// SPDX-License-Identifier: MIT
// Text drawn through the glyph cache onto a canvas, black on white, against goldens in
// Tests/AssetsTests/Golden/Text/ (record with RECORD_GOLDENS=1), by TextLayout.draw: the routine
// the HUD's painter draws its text with.

import Assets
import GoldenSupport
import Raster
import Testing

@Suite struct TextGoldenTests {
    /// A white pixmap with `layout` drawn in black at `origin`.
    func render(_ layout: TextLayout, width: Int32, height: Int32, origin: Point) -> Pixmap {
        let pixmap = Pixmap(width: width, height: height)
        let canvas = Canvas(pixmap.view)
        canvas.clear(.white)
        layout.draw(into: canvas, origin: origin, color: .black)
        return pixmap
    }

    /// The bench string at 16 px from a fractional origin.
    @Test func latin() throws {
        let layout = TextLayout("Installing update 3 of 7…", chain: try TestFonts.chain(), fontSize: Fixed16_16(integer: 16))
        let pixmap = render(layout, width: 210, height: 24, origin: Point(4.25, 2.5))
        expectGolden(pixmap.view, "latin", suite: "Text")
        // Ink stays inside the advance box, with black at the stem cores.
        #expect(darkest(pixmap) == 0)
    }

    /// Droid Sans Fallback ideographs beside DejaVu Latin on one DejaVu baseline.
    @Test func cjkNextToLatin() throws {
        let layout = TextLayout("正在安装更新 Installing 3/7", chain: try TestFonts.chain(), fontSize: Fixed16_16(integer: 18))
        let pixmap = render(layout, width: 232, height: 28, origin: Point(4, 3))
        expectGolden(pixmap.view, "cjk-latin", suite: "Text")
        #expect(layout.lines[0].glyphs.prefix(6).allSatisfy { $0.faceIndex == 1 })
    }

    /// A paragraph wrapped to 150 px and cut to three lines, the last ending in "…" (at 14 px,
    /// "turn off the device w…" would be 159.6 px wide).
    @Test func wrappedAndTruncated() throws {
        let text = "Installing update 3 of 7… Please do not turn off the device while the update is being installed."
        let layout = TextLayout(text, chain: try TestFonts.chain(), fontSize: Fixed16_16(integer: 14),
                                maxWidth: Fixed16_16(integer: 150), maxHeight: Fixed16_16(integer: 50), alignment: .left)
        #expect(layout.lines.count == 3 && layout.isTruncated)
        #expect(layout.lines.map(\.text) == ["Installing update 3 of", "7… Please do not", "turn off the device…"])
        let pixmap = render(layout, width: 160, height: 56, origin: Point(5, 3))
        expectGolden(pixmap.view, "wrapped-truncated", suite: "Text")
    }

    /// Lines of different widths centred on one another (the HUD's status label).
    @Test func centredLines() throws {
        let layout = TextLayout("Updated\nRestarting in 5 seconds\n完成", chain: try TestFonts.chain(),
                                fontSize: Fixed16_16(integer: 20), alignment: .center)
        let size = layout.size
        let pixmap = render(layout, width: size.width.ceil + 8, height: size.height.ceil + 8, origin: Point(4, 4))
        expectGolden(pixmap.view, "centred", suite: "Text")
        let widths = layout.lineWidths
        for (line, width) in zip(layout.lines, widths) {
            #expect(line.x + line.x + width == size.width || line.x + line.x + width + Fixed16_16(raw: 1) == size.width)
        }
    }

    private func darkest(_ pixmap: Pixmap) -> UInt8 {
        pixmap.pixels.reduce(UInt8(255)) { Swift.min($0, PremultipliedColor(argb: $1).g) }
    }
}
