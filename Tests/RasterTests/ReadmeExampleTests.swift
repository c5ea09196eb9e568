// SPDX-License-Identifier: MIT
// The raster example of docs/raster.md (once the README's), kept compiling and checked here.
import Testing
import Raster

@Suite("README example")
struct ReadmeExampleTests {
    @Test func drawsASpinnerOnABezel() {
        // A 200x200 premultiplied ARGB32 surface (any caller-owned memory works: PixmapView).
        let pixmap = Pixmap(width: 200, height: 200)
        let canvas = Canvas(pixmap.view)
        canvas.clear(Color(rgb: 0x204060))
        canvas.fill(.roundedRect(Rect(40, 40, 120, 120), radius: Fixed16_16(14)), .solid(Color.white.withAlpha(242)))

        // SVProgressHUD's spinner: two clockwise turns from 12 o'clock, trimmed like strokeStart/End,
        // painted through a conic alpha ramp.
        var spinner = Path()
        spinner.arc(center: Point(100, 100), radius: Fixed16_16(18), start: Fixed16_16(-Double.pi / 2),
                    end: Fixed16_16(-Double.pi / 2 + 4 * Double.pi), clockwise: true)
        let ramp = [GradientStop(0, Color.black.withAlpha(0)), GradientStop(1, .black)]
        canvas.stroke(spinner, StrokeStyle(width: Fixed16_16(2), cap: .round),
                      .conic(center: Point(100, 100), startAngle: Fixed16_16(-Double.pi / 2), stops: ramp),
                      trimStart: Fixed16_16(0.015), trimEnd: Fixed16_16(0.485))
        canvas.flush()  // lazily filled backgrounds are written by now

        // Convert into a scanout format, rotated, as a display would.
        var scanout = [UInt8](repeating: 0, count: 200 * 200 * 2)
        scanout.withUnsafeMutableBytes { bytes in
            let surface = SurfaceView(base: bytes.baseAddress!, width: 200, height: 200, rowBytes: 400, format: .rgb565)
            convertingBlit(from: pixmap.view, rect: pixmap.view.bounds, to: surface, rotation: .r90)
        }
        #expect(pixmap[100, 60].r > 200)  // the bezel
        #expect(pixmap[93, 83].r < 80)  // the head, just before 12 o'clock: dark
        #expect(pixmap[100, 82].r > 200)  // the gap at 12 o'clock
        #expect(pixmap[106, 83].r > 200)  // the tail, just after 12 o'clock: faded out
        #expect(scanout.contains { $0 != 0 })
    }
}
