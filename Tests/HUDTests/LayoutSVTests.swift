// SPDX-License-Identifier: MIT
// SVProgressHUD's frame rules (hud-behaviour.md A6), checked against numbers worked out by hand.
// Screen 320x240 pt unless said otherwise: centre x = 160, centre y = floor(0.45·240) = 108.
// DejaVu Sans at 15 pt: line height 15·2384/2048 = 17.46 → lh = 18.
import Assets
import HUD
import Raster
import Testing

@Suite("Layout SV")
struct LayoutSVTests {
    typealias H = DrawHarness
    let screen = Size(320, 240)

    func layout(_ p: HUDPresentation, screen: Size? = nil) throws -> HUDLayout {
        HUDLayout.compute(p, screen: screen ?? self.screen, resources: try H.resources())
    }

    /// A6: no text: r = ringNoTextRadius 24, spinner frame 2(24 + 1 + 5) = 60, W = H = 24 + 60 = 84,
    /// content at the HUD's mid y; centre (160, floor(0.45·240) = 108).
    @Test func spinnerWithoutText() throws {
        let l = try layout(H.presentation(.spinner(elapsed: .zero)))
        #expect(l.bezel == Rect(118, 66, 84, 84))
        #expect(l.contentFrame == Rect(130, 78, 60, 60))
        #expect(l.indicatorRadius == Fixed16_16(24) && l.indicatorThickness == Fixed16_16(2))
        #expect(l.cornerRadius == Fixed16_16(14))  // A1 / A6: corners clipped at 14
        #expect(l.texts.isEmpty)
    }

    /// A6: with text: r = 18, frame 48; lw = ceil(w), lh = 18; W = 24 + max(lw, 48),
    /// H = 24 + 18 + 48 + 8 = 98; content centre y = max(12, (0 − 48 − 8 − 18)/2) + 24 = 36;
    /// label centre y = 36 + 24 + 8 + 9 = 77.
    @Test func spinnerWithText() throws {
        let res = try H.resources()
        let w = TextLayout.advanceWidth(of: "Loading", chain: try #require(res.regular), fontSize: Fixed16_16(15))
        let lw = Fixed16_16(Int32(w.ceil))
        let l = HUDLayout.compute(H.presentation(.spinner(elapsed: .zero), status: "Loading"), screen: screen, resources: res)
        let width = Fixed16_16(24) + max(lw, Fixed16_16(48))
        #expect(l.bezel.size == Size(width: width, height: Fixed16_16(98)))
        #expect(l.bezel.midY == Fixed16_16(108) && l.bezel.midX == Fixed16_16(160))
        #expect(l.indicatorRadius == Fixed16_16(18))
        #expect(l.contentFrame.size == Size(48, 48))
        #expect(l.indicatorCenter.y - l.bezel.minY == Fixed16_16(36))
        let label = try #require(l.texts.first)
        #expect(label.frame.size == Size(width: lw, height: Fixed16_16(18)))
        #expect(label.frame.midY - l.bezel.minY == Fixed16_16(77))
        #expect(label.frame.midX == l.bezel.midX)
    }

    /// A6: minimumSize raises both sides; with text the content is placed with
    /// yOffset = max(12, (150 − 48 − 8 − 18)/2 = 38), so its centre is 38 + 24 = 62 and the label's
    /// 62 + 24 + 8 + 9 = 103.
    @Test func minimumSize() throws {
        let l = try layout(H.presentation(.spinner(elapsed: .zero), status: "Min") { $0.minimumSize = Size(200, 150) })
        #expect(l.bezel.size == Size(200, 150))
        #expect(l.indicatorCenter.y - l.bezel.minY == Fixed16_16(62))
        #expect(try #require(l.texts.first).frame.midY - l.bezel.minY == Fixed16_16(103))
        // Without text the content sits at the (raised) mid y.
        let n = try layout(H.presentation(.spinner(elapsed: .zero)) { $0.minimumSize = Size(200, 150) })
        #expect(n.indicatorCenter.y - n.bezel.minY == Fixed16_16(75))
    }

    /// A6: centre = (midX, floor(0.45·H)) + offset. 0.45·241 = 108.45 → 108.
    @Test func offsetAndFloor() throws {
        let l = try layout(H.presentation(.spinner(elapsed: .zero)) { $0.offset = Point(30, -20) })
        #expect(l.bezelCenter == Point(190, 88))
        let odd = try layout(H.presentation(.spinner(elapsed: .zero)), screen: Size(320, 241))
        #expect(odd.bezel.midY == Fixed16_16(108))
        // A huge offset does not trap (values are clamped).
        let far = try layout(H.presentation(.spinner(elapsed: .zero)) { $0.offset = Point(30000, 30000) })
        #expect(far.bezel.minX > Fixed16_16(320))
    }

    /// A6: an image: content = imageViewSize (28): W = H = 24 + 28 = 52; with text 24 + 18 + 28 + 8.
    @Test func image() throws {
        let l = try layout(H.presentation(.image(.success)))
        #expect(l.bezel.size == Size(52, 52))
        let t = try layout(H.presentation(.image(.info), status: "i"))
        #expect(t.bezel.size.height == Fixed16_16(78))
        // An empty image size means no image is shown (SV's imageUsed): only the margins remain.
        let none = try layout(H.presentation(.image(.error)) { $0.imageSize = Size(0, 0) })
        #expect(none.bezel.size == Size(24, 24))
    }

    /// A6: native: the frame is 37: W = H = 61; the ring keeps the spinner frame of the current
    /// animation type and its own radius (24 without text), even beyond that frame.
    @Test func nativeAndRing() throws {
        let n = try layout(H.presentation(.activity(elapsed: .zero)) { $0.spinner = .native })
        #expect(n.bezel.size == Size(61, 61))
        let ring = try layout(H.presentation(.ring(progress: .half)) { $0.spinner = .native })
        #expect(ring.bezel.size == Size(61, 61) && ring.indicatorRadius == Fixed16_16(24))
        let flatRing = try layout(H.presentation(.ring(progress: .half), status: "Up"))
        #expect(flatRing.contentFrame.size == Size(48, 48) && flatRing.indicatorRadius == Fixed16_16(18))
    }

    /// A6: text is measured within 200x300 with the last line truncated: a long text wraps to at
    /// most 200 pt (W ≤ 224) and at most floor(300 / 17.46) = 17 lines, the last ending in "…".
    @Test func longTextWrapsAndTruncates() throws {
        let long = String(repeating: "Installing the system update now. ", count: 40)
        let l = try layout(H.presentation(.spinner(elapsed: .zero), status: long))
        let label = try #require(l.texts.first)
        #expect(label.text.lines.count == 17)
        #expect(label.text.isTruncated && label.text.lines.last!.text.hasSuffix("…"))
        #expect(l.bezel.size.width <= Fixed16_16(224) && l.bezel.size.width > Fixed16_16(200))
        #expect(label.frame.size.height == Fixed16_16(Int32((17 * 17.4609375).rounded(.up))))
    }

    /// A6: empty text is treated as nil.
    @Test func emptyTextIsNil() throws {
        let l = try layout(H.presentation(.spinner(elapsed: .zero), status: ""))
        #expect(l.bezel.size == Size(84, 84) && l.texts.isEmpty)
    }

    /// CJK text falls back to the CJK face and is measured like any other.
    @Test func cjk() throws {
        let l = try layout(H.presentation(.spinner(elapsed: .zero), status: "正在安装更新"))
        let label = try #require(l.texts.first)
        #expect(label.text.lines.count == 1 && label.text.lines[0].glyphs.allSatisfy { $0.faceIndex > 0 })
        #expect(l.bezel.size.width == Fixed16_16(24) + label.frame.size.width)
    }

    /// A bad font path falls back to the default chain and reports it.
    @Test func badFontFallsBack() throws {
        let l = try layout(H.presentation(.spinner(elapsed: .zero), status: "Font") { $0.fontPath = "/nonexistent/font.ttf" })
        #expect(l.texts.count == 1)
        guard case .font(let path, _)? = l.issues.first else { Issue.record("no font issue: \(l.issues)"); return }
        #expect(path == "/nonexistent/font.ttf")
    }

    /// Scale does not enter the layout: 640x480 px at scale 2 is the 320x240 pt layout.
    @Test func layoutIsInPoints() throws {
        let a = try layout(H.presentation(.spinner(elapsed: .zero), status: "Pt"))
        let b = try layout(H.presentation(.spinner(elapsed: .zero), status: "Pt"), screen: H.screen(640, 480, scale: 2))
        #expect(a.bezel == b.bezel && a.contentFrame == b.contentFrame)
    }
}
