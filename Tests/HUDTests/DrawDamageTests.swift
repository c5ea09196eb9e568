// SPDX-License-Identifier: MIT
// The painter's contract with the damage-tracking renderer: redrawing only `indicatorBounds`
// (cleared to the background first, canvas clipped to it) over the previous frame gives exactly
// the pixels of a full draw of the new frame; `bounds` holds every pixel the HUD changes.
import HUD
import Raster
import Testing

@Suite("Draw damage")
struct DrawDamageTests {
    typealias H = DrawHarness

    /// Frame n−1 drawn in full, then frame n redrawn only in the indicator's box, equals frame n
    /// drawn in full, for each animated indicator, at scale 1 and 2.
    @Test(arguments: [1, 2] as [Int32])
    func indicatorBoxRedrawEqualsFullDraw(_ scale: Int32) throws {
        func spinner(_ ms: Int64, _ status: String?, _ configure: @escaping (inout HUDAppearance) -> Void = { _ in }) -> HUDPresentation {
            H.presentation(.spinner(elapsed: .milliseconds(ms)), status: status, configure)
        }
        let dark: (inout HUDAppearance) -> Void = { $0.mask = .gradient; $0.style = .dark }
        let native: (inout HUDAppearance) -> Void = { $0.spinner = .native }
        let frames: [(HUDPresentation, HUDPresentation)] = [
            (spinner(0, "Loading"), spinner(17, "Loading")),
            (spinner(480, nil, dark), spinner(497, nil, dark)),
            (H.presentation(.activity(elapsed: .milliseconds(80)), status: "Native", native),
             H.presentation(.activity(elapsed: .milliseconds(90)), status: "Native", native)),
            (H.presentation(.ring(progress: Fixed16_16(0.2)), status: "Up", native),
             H.presentation(.ring(progress: Fixed16_16(0.25)), status: "Up", native)),
            (H.mb(.determinate, .pie(progress: Fixed16_16(0.3)), label: "Pie"), H.mb(.determinate, .pie(progress: Fixed16_16(0.31)), label: "Pie")),
            (H.mb(.bar, .bar(progress: Fixed16_16(0.3)), label: "Bar"), H.mb(.bar, .bar(progress: Fixed16_16(0.9)), label: "Bar")),
        ]
        let (w, h) = (320 * scale, 240 * scale)
        let painter = HUDPainter()
        for (i, (before, after)) in frames.enumerated() {
            let res = try H.resources()
            let screen = H.screen(w, h, scale: scale)
            let layout = HUDLayout.compute(after, screen: screen, resources: res)
            #expect(HUDLayoutKey(before, screen: screen) == HUDLayoutKey(after, screen: screen), "the layout is kept")
            let s = Fixed16_16(scale)

            let incremental = H.background(width: w, height: h)
            let canvas = Canvas(incremental.view)
            painter.draw(before, layout: layout, into: canvas, scale: s)
            let box = painter.indicatorBounds(after, layout: layout, scale: s)
            #expect(!box.isEmpty)
            #expect(painter.bounds(after, layout: layout, scale: s).contains(box))
            canvas.clip = box
            H.paintBackground(canvas, width: w, height: h)
            painter.draw(after, layout: layout, into: canvas, scale: s)
            canvas.flush()

            let full = try H.render(after, width: w, height: h, scale: scale, resources: res).pixmap
            let differing = H.differingPixels(incremental, full)
            #expect(differing == 0, "case \(i) at scale \(scale): \(differing) pixels differ from a full draw (box \(box))")
            let previous = try H.render(before, width: w, height: h, scale: scale, resources: res).pixmap
            #expect(H.differingPixels(incremental, previous) > 0, "case \(i): the frames differ")
        }
    }

    /// The root of a clipped redraw: a clip wholly inside a filled shape is filled. (A shape whose
    /// right edges all lie right of the clip must still cover it; the bezel under the spinner box
    /// is such a shape.)
    @Test func clipInsideAShapeIsFilled() {
        let p = Pixmap(width: 80, height: 80)
        let canvas = Canvas(p.view)
        canvas.clip = IntRect(x: 20, y: 20, width: 10, height: 10)
        canvas.fill(.roundedRect(Rect(10.5, 10.5, 50, 50), radius: Fixed16_16(5)), .solid(.black))
        canvas.flush()
        #expect(p[25, 25] == Color.black.premultiplied && p[20, 20] == Color.black.premultiplied)
    }

    /// Outside `bounds` only the backdrop is drawn: with no mask, a HUD leaves every pixel
    /// outside its bounds untouched, zoomed or not.
    @Test(arguments: [Fixed16_16(1.3), Fixed16_16(0.5), Fixed16_16.one])
    func boundsHoldTheHUD(_ zoom: Fixed16_16) throws {
        var p = H.mb(.determinate, .pie(progress: .half), label: "Bounds", details: "all of it", button: "OK")
        p.scale = zoom
        let r = try H.render(p)
        let b = HUDPainter().bounds(p, layout: r.layout, scale: .one)
        let bg = H.background(width: 320, height: 240)
        var outsideChanged = 0, insideChanged = 0
        for y in Int32(0)..<240 {
            for x in Int32(0)..<320 where r.pixmap[x, y] != bg[x, y] {
                if b.contains(IntRect(x: x, y: y, width: 1, height: 1)) { insideChanged += 1 } else { outsideChanged += 1 }
            }
        }
        #expect(outsideChanged == 0 && insideChanged > 0)
        // The bezel's zoomed size: 1.3 is wider than 1, 0.5 narrower.
        let unzoomed = HUDPainter().bounds({ var q = p; q.scale = .one; return q }(), layout: r.layout, scale: .one)
        if zoom > .one { #expect(b.width > unzoomed.width) } else if zoom < .one { #expect(b.width < unzoomed.width) }
    }
}
