import Testing
@testable import Raster

@Suite struct CanvasSmokeTests {
    @Test func clearAndCircle() {
        let p = Pixmap(width: 8, height: 8)
        let cv = Canvas(p.view)
        cv.clear(Color(rgb: 0x102030))
        #expect(p[0, 0] == PremultipliedColor(argb: 0xFF10_2030))
        cv.fill(.circle(center: Point(4, 4), radius: Fixed16_16(3.0)), .solid(.white))
        #expect(p[4, 4] == PremultipliedColor(argb: 0xFFFF_FFFF))
        #expect(p[0, 0] == PremultipliedColor(argb: 0xFF10_2030))
    }
}
