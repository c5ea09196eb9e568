// SPDX-License-Identifier: MIT
// Styles (A1), masks (A8), icons and images: golden frames and the colours they must produce.
import GoldenSupport
import HUD
import HUDProtocol
import Raster
import Testing

@Suite("Draw styles, masks and images")
struct DrawStyleTests {
    typealias H = DrawHarness

    /// A1: light, dark and custom styles, and an image colour tinting the indicator only.
    @Test func styles() throws {
        let status = "Please wait"
        _ = try H.expect(H.presentation(.spinner(elapsed: .milliseconds(300)), status: status) { $0.style = .light }, "style-light")
        _ = try H.expect(H.presentation(.spinner(elapsed: .milliseconds(300)), status: status) { $0.style = .dark }, "style-dark")
        _ = try H.expect(H.presentation(.spinner(elapsed: .milliseconds(300)), status: status) {
            $0.style = .custom; $0.foregroundColor = Color(rgb: 0xFFD400); $0.backgroundColor = Color(rgb: 0x4B1D6B, alpha: 230)
        }, "style-custom")
        _ = try H.expect(H.presentation(.ring(progress: Fixed16_16(0.7)), status: status) {
            $0.style = .dark; $0.imageColor = Color(rgb: 0x30D158)
        }, "style-image-color")
    }

    /// A1: the colours each style resolves to.
    @Test func styleColours() {
        var a = HUDAppearance()
        #expect(HUDColors.resolve(a) == HUDColors(text: .black, indicator: .black, track: Color.black.withAlpha(26),
                                                  bezel: Color.white.withAlpha(153)))
        a.style = .dark
        #expect(HUDColors.resolve(a).bezel == Color.black.withAlpha(153) && HUDColors.resolve(a).text == .white)
        a.imageColor = Color(rgb: 0xFF0000)
        #expect(HUDColors.resolve(a).text == .white && HUDColors.resolve(a).indicator == Color(rgb: 0xFF0000))
        #expect(HUDColors.resolve(a).track == Color(rgb: 0xFF0000, alpha: 26))
        a.style = .custom
        a.foregroundColor = Color(rgb: 0x123456)
        a.backgroundColor = Color(rgb: 0x654321, alpha: 200)
        #expect(HUDColors.resolve(a).text == Color(rgb: 0x123456) && HUDColors.resolve(a).bezel == Color(rgb: 0x654321, alpha: 200))
        // B1: MB's content colour is the label colour at α0.7.
        var m = HUDAppearance()
        m.mode = .indeterminate
        #expect(HUDColors.resolve(m).text == Color.black.withAlpha(179))
    }

    /// A8: every mask, with the default light HUD.
    @Test(arguments: HUDMask.allCases)
    func mask(_ mask: HUDMask) throws {
        let p = H.presentation(.spinner(elapsed: .zero), status: "Masked") { a in
            a.mask = mask
            a.backdropColor = Color(rgb: 0x800020, alpha: 128)
        }
        let r = try H.expect(p, "mask-\(mask.rawValue)")
        let corner = H.color(r.pixmap, 2, 2), background = H.color(H.background(width: 320, height: 240), 2, 2)
        switch mask {
        case .none, .clear: #expect(corner == background)
        case .black:
            // black α0.4 over the background: 0.6 of it.
            let expected: Int = Int(background.b) * 153 / 255
            #expect(abs(Int(corner.b) - expected) <= 1)
        case .gradient:
            // α0 at the centre, α0.75 at min(W,H) = 240 px and beyond; the corner is 200 px out.
            let centre = H.color(r.pixmap, 160, 120 - 80), bg = H.color(H.background(width: 320, height: 240), 160, 40)
            let expected: Int = Int(bg.b) * (255 - 191 / 3) / 255
            #expect(abs(Int(centre.b) - expected) <= 2, "a third of the way: α0.25")
            #expect(corner.b < background.b)
        case .custom: #expect(corner != background)
        }
    }

    /// A8: the backdrop fades with the presentation's backdrop alpha.
    @Test func backdropFades() throws {
        var p = H.presentation(.spinner(elapsed: .zero)) { $0.mask = .black }
        p.backdropAlpha = .half
        let r = try H.render(p)
        let c = r.pixmap[2, 2], bg = H.background(width: 320, height: 240)[2, 2]
        let expected: Int = Int(bg.b) * (255 - 51) / 255
        #expect(abs(Int(c.b) - expected) <= 1, "black α0.2")
    }

    /// Success, error and info symbols, and a custom PNG tinted and untinted.
    @Test func icons() throws {
        _ = try H.expect(H.presentation(.image(.success), status: "Done"), "icon-success")
        _ = try H.expect(H.presentation(.image(.error), status: "Failed"), "icon-error")
        _ = try H.expect(H.presentation(.image(.info), status: "Note") { $0.style = .dark }, "icon-info")
        _ = try H.expect(H.presentation(.image(.success)) { $0.imageSize = Size(56, 56) }, "icon-success-56")
        let png = try H.fixturePNG("disc")
        _ = try H.expect(H.presentation(.image(.custom(path: png)), status: "Tinted"), "image-tinted")
        _ = try H.expect(H.presentation(.image(.custom(path: png)), status: "Untinted") { $0.tintImages = false }, "image-untinted")
    }

    /// A custom image that cannot be loaded: a placeholder is drawn and the error is reported.
    @Test func missingImage() throws {
        let path = "/nonexistent/splashhud-missing.png"
        let r = try H.render(H.presentation(.image(.custom(path: path)), status: "Missing"))
        #expect(r.layout.issues.count == 1)
        guard case .image(let p, let reason)? = r.layout.issues.first else { Issue.record("no image issue"); return }
        #expect(p == path && reason.contains(path))
        expectGolden(r.pixmap, "image-missing", suite: H.suite)
    }

    /// Tinting uses only the image's alpha: no red left in a tinted image, red when untinted.
    @Test func tintingUsesAlphaOnly() throws {
        let png = try H.fixturePNG("disc-tint")
        let tinted = try H.render(H.presentation(.image(.custom(path: png))))
        let untinted = try H.render(H.presentation(.image(.custom(path: png))) { $0.tintImages = false })
        let c = tinted.layout.indicatorCenter
        let t = H.color(tinted.pixmap, c.x.floor, c.y.floor), u = H.color(untinted.pixmap, c.x.floor, c.y.floor)
        #expect(t.r == t.g && t.g == t.b && t.r < 10, "black (light style's foreground)")
        #expect(u.r > 180 && u.g < 60, "the PNG's red")
    }
}
