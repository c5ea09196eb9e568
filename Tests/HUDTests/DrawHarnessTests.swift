// SPDX-License-Identifier: MIT
// Shared helpers for the drawing tests: presentations built by hand (the controller is not used),
// a fixed background with structure (so translucency and backdrops show), and one call that lays
// out and draws a presentation into a fresh pixmap. Plus checks of the harness itself.
import Assets
import Foundation
import GoldenSupport
import HUD
import HUDProtocol
import Raster
import Testing

enum DrawHarness {
    static let suite = "Draw"

    /// A presentation fully shown (alpha 1, backdrop 1, no zoom) with `indicator` and `status`.
    static func presentation(_ indicator: HUDPresentation.Indicator, status: String? = nil,
                             _ configure: (inout HUDAppearance) -> Void = { _ in }) -> HUDPresentation {
        var p = HUDPresentation()
        p.alpha = .one
        p.backdropAlpha = .one
        p.indicator = indicator
        p.status = status
        configure(&p.appearance)
        return p
    }

    /// An MB presentation: `mode` set, so MB's layout and colours apply.
    static func mb(_ mode: HUDMode, _ indicator: HUDPresentation.Indicator, label: String? = nil, details: String? = nil,
                   button: String? = nil, _ configure: (inout HUDAppearance) -> Void = { _ in }) -> HUDPresentation {
        var p = presentation(indicator, status: label) { a in a.mode = mode; configure(&a) }
        p.details = details
        p.button = button
        return p
    }

    /// Fresh resources per render: HUDResources and glyph caches are not thread-safe, and tests run
    /// in parallel.
    static func resources() throws -> HUDResources { try HUDResources.system() }

    /// A diagonal blue-to-sand gradient with a dark stripe: light and dark translucent bezels and
    /// every backdrop show against it.
    static func paintBackground(_ canvas: Canvas, width: Int32, height: Int32) {
        let all = IntRect(x: 0, y: 0, width: width, height: height)
        canvas.fill(all, .linear(start: Point(x: .zero, y: .zero), end: Point(x: Fixed16_16(width), y: Fixed16_16(height)),
                                 stops: [GradientStop(0, Color(rgb: 0x3A6EA5)), GradientStop(1, Color(rgb: 0xE8C48A))]))
        canvas.fill(IntRect(x: 0, y: height * 3 / 5, width: width, height: height / 12), .solid(Color(rgb: 0x223344)))
    }

    static func background(width: Int32, height: Int32) -> Pixmap {
        let pixmap = Pixmap(width: width, height: height)
        let canvas = Canvas(pixmap.view)
        paintBackground(canvas, width: width, height: height)
        canvas.flush()
        return pixmap
    }

    /// The screen in points for a pixel size at an integer scale.
    static func screen(_ width: Int32, _ height: Int32, scale: Int32) -> Size {
        Size(width: Fixed16_16(width / scale), height: Fixed16_16(height / scale))
    }

    /// Lays out `p` and draws it over the background into a `width`x`height` pixmap at `scale`.
    static func render(_ p: HUDPresentation, width: Int32 = 320, height: Int32 = 240, scale: Int32 = 1,
                       resources: HUDResources? = nil) throws -> (pixmap: Pixmap, layout: HUDLayout) {
        let res = try resources ?? self.resources()
        let layout = HUDLayout.compute(p, screen: screen(width, height, scale: scale), resources: res, scale: Fixed16_16(scale))
        let pixmap = background(width: width, height: height)
        let canvas = Canvas(pixmap.view)
        HUDPainter().draw(p, layout: layout, into: canvas, scale: Fixed16_16(scale))
        canvas.flush()
        return (pixmap, layout)
    }

    /// Renders and compares with the golden `Golden/Draw/<name>.png`.
    static func expect(_ p: HUDPresentation, _ name: String, width: Int32 = 320, height: Int32 = 240, scale: Int32 = 1,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> (pixmap: Pixmap, layout: HUDLayout) {
        let r = try render(p, width: width, height: height, scale: scale)
        #expect(r.layout.issues.isEmpty, "\(r.layout.issues)", sourceLocation: sourceLocation)
        expectGolden(r.pixmap, name, suite: suite, sourceLocation: sourceLocation)
        return r
    }

    /// How many pixels differ between two pixmaps of the same size (and the first, for messages).
    static func differingPixels(_ a: Pixmap, _ b: Pixmap) -> Int {
        let pa = a.pixels, pb = b.pixels
        var count = 0
        for i in pa.indices where pa[i] != pb[i] { count += 1 }
        return count
    }

    /// Straight (unpremultiplied) colour of a pixel.
    static func color(_ pixmap: Pixmap, _ x: Int32, _ y: Int32) -> Color { pixmap[x, y].unpremultiplied }

    /// Brightness (r+g+b) of a pixel.
    static func luma(_ pixmap: Pixmap, _ x: Int32, _ y: Int32) -> Int {
        let c = pixmap[x, y]
        return Int(c.r) + Int(c.g) + Int(c.b)
    }

    /// A small PNG written to a temporary file: an opaque red disc with a blue ring on clear, so
    /// tinting (alpha only) and not tinting (its own colours) look different.
    static func fixturePNG(_ name: String) throws -> String {
        let pixmap = Pixmap(width: 32, height: 32)
        let canvas = Canvas(pixmap.view)
        canvas.fill(.circle(center: Point(16, 16), radius: Fixed16_16(9)), .solid(Color(rgb: 0xD02020)))
        canvas.stroke(.circle(center: Point(16, 16), radius: Fixed16_16(13)), StrokeStyle(width: Fixed16_16(3)),
                      .solid(Color(rgb: 0x2040E0)))
        canvas.flush()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-draw-tests-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name + ".png").path
        try PNGEncoder.write(pixmap, to: path)
        return path
    }
}

@Suite("Draw harness")
struct DrawHarnessTests {
    @Test func transformMapsPointsToPixelsAndZoomsAboutTheBezelCentre() throws {
        let p = DrawHarness.presentation(.spinner(elapsed: .zero))
        let layout = HUDLayout.compute(p, screen: DrawHarness.screen(640, 480, scale: 2), resources: try DrawHarness.resources())
        let t = HUDPainter.transform(p, layout: layout, scale: Fixed16_16(2))
        #expect(t.apply(layout.bezel.origin) == Point(x: layout.bezel.minX * 2, y: layout.bezel.minY * 2))
        var zoomed = p
        zoomed.scale = Fixed16_16(1.5)
        let z = HUDPainter.transform(zoomed, layout: layout, scale: Fixed16_16(2))
        // The bezel centre stays put; its corner moves out by half again.
        #expect(z.apply(layout.bezelCenter) == t.apply(layout.bezelCenter))
        let corner = z.apply(layout.bezel.origin), centre = t.apply(layout.bezelCenter)
        #expect(centre.x - corner.x == (layout.bezel.size.width * 2).scaled(1.5).scaled(0.5))
    }

    @Test func hiddenPresentationDrawsNothing() throws {
        var p = DrawHarness.presentation(.spinner(elapsed: .zero), status: "Hidden") { $0.mask = .black }
        p.alpha = .zero
        p.backdropAlpha = .zero
        let r = try DrawHarness.render(p)
        #expect(r.pixmap.pixels == DrawHarness.background(width: 320, height: 240).pixels)
    }
}

extension Fixed16_16 {
    func scaled(_ k: Double) -> Fixed16_16 { self * Fixed16_16(k) }
}
