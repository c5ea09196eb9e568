// SPDX-License-Identifier: MIT
import Testing
@testable import Raster

@Suite struct CanvasSmokeTests {
    @Test func clearAndCircle() {
        let p = Pixmap(width: 8, height: 8)
        let cv = Canvas(p.view)
        cv.clear(Color(rgb: 0x102030))
        cv.flush()
        #expect(p[0, 0] == PremultipliedColor(argb: 0xFF10_2030))
        cv.fill(.circle(center: Point(4, 4), radius: Fixed16_16(3.0)), .solid(.white))
        cv.flush()
        #expect(p[4, 4] == PremultipliedColor(argb: 0xFFFF_FFFF))
        #expect(p[0, 0] == PremultipliedColor(argb: 0xFF10_2030))
    }
}

@Suite("Lazy solid fills")
struct PendingFillTests {
    /// Draws a little scene over a background and a dim layer.
    func drawScene(_ cv: Canvas) {
        cv.fill(.roundedRect(Rect(6.5, 5.25, 30, 22), radius: Fixed16_16(5)), .solid(Color.white.withAlpha(242)))
        cv.stroke(.circle(center: Point(20, 16), radius: Fixed16_16(6)), StrokeStyle(width: Fixed16_16(2)), .solid(Color.black.withAlpha(26)))
        cv.fill(.circle(center: Point(40, 30), radius: Fixed16_16(9)), .linear(start: Point(31, 21), end: Point(49, 39),
                stops: [GradientStop(0, .black), GradientStop(1, Color(rgb: 0xFF0000, alpha: 128))]))
        cv.fill(IntRect(x: 44, y: 2, width: 4, height: 40), .solid(Color(rgb: 0x00FF00, alpha: 77)), blend: .source)
    }

    @Test(arguments: [nil, IntRect(x: 3, y: 4, width: 30, height: 20)] as [IntRect?])
    func heldBackFillsGiveTheSamePixelsAsWrittenOnes(clip: IntRect?) {
        let bg = Color(rgb: 0x204060), dim = Color.black.withAlpha(102)
        let lazy = Pixmap(width: 50, height: 40), eager = Pixmap(width: 50, height: 40)
        do {
            let cv = Canvas(lazy.view)
            if let clip { cv.clip = clip }
            cv.fill(IntRect(x: 0, y: 0, width: 50, height: 40), .solid(bg), blend: .source)
            cv.fill(IntRect(x: 0, y: 0, width: 50, height: 40), .solid(dim))
            drawScene(cv)
        }
        // The same, with the two fills written pixel by pixel up front.
        let area = clip ?? eager.view.bounds
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { eager[x, y] = PremultipliedColor(argb: sourceOver(dim.premultiplied.argb, bg.premultiplied.argb)) }
        }
        do {
            let cv = Canvas(eager.view)
            if let clip { cv.clip = clip }
            drawScene(cv)
        }
        #expect(lazy.pixels == eager.pixels)
    }
}
