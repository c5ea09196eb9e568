// SPDX-License-Identifier: MIT
// MBProgressHUD's stack (hud-behaviour.md B2), checked against numbers worked out by hand.
// Screen 320x240 pt: centre (160, 120); margin 20; padding 4. DejaVu Sans Bold line heights:
// 16 pt → 18.625 → 19, 12 pt → 13.97 → 14.
import Assets
import HUD
import Raster
import Testing

@Suite("Layout MB")
struct LayoutMBTests {
    typealias H = DrawHarness
    let screen = Size(320, 240)

    func layout(_ p: HUDPresentation) throws -> HUDLayout {
        HUDLayout.compute(p, screen: screen, resources: try H.resources())
    }

    /// B2: indicator alone: W = H = 37 + 2·20 = 77, centred on the screen; corner radius 5 (B1).
    @Test func indicatorOnly() throws {
        let l = try layout(H.mb(.indeterminate, .activity(elapsed: .zero)))
        #expect(l.isMB && l.bezel == Rect(121.5, 81.5, 77, 77))
        #expect(l.contentFrame == Rect(141.5, 101.5, 37, 37))
        #expect(l.cornerRadius == Fixed16_16(5))
    }

    /// B2: indicator + label: H = 40 + 37 + 4 + 19 = 100; W = max(37, ceil(label)) + 40.
    @Test func indicatorAndLabel() throws {
        let res = try H.resources()
        let w = TextLayout.advanceWidth(of: "Loading", chain: try #require(res.bold), fontSize: Fixed16_16(16))
        let l = HUDLayout.compute(H.mb(.determinate, .pie(progress: .half), label: "Loading"), screen: screen, resources: res)
        #expect(l.bezel.size == Size(width: Fixed16_16(Int32(w.ceil)) + Fixed16_16(40), height: Fixed16_16(100)))
        #expect(l.contentFrame.minY - l.bezel.minY == Fixed16_16(20))
        let label = try #require(l.texts.first)
        #expect(label.role == .label && label.frame.minY - l.contentFrame.maxY == Fixed16_16(4))
        #expect(label.frame.size.height == Fixed16_16(19))
    }

    /// B2: every element: H = 40 + 37 + 4 + 19 + 4 + 14 + 4 + (14 + 12) = 148 (button: title + 12
    /// high, + 20 wide, B1), 3 gaps of 4.
    @Test func fullStack() throws {
        let l = try layout(H.mb(.annular, .annular(progress: .half), label: "Working", details: "Step 2", button: "Cancel"))
        #expect(l.bezel.size.height == Fixed16_16(148))
        #expect(l.texts.map(\.role) == [.label, .details, .button])
        let button = try #require(l.button)
        let title = l.texts[2]
        #expect(button.size.width == title.frame.size.width + Fixed16_16(20) && button.size.height == Fixed16_16(26))
        #expect(l.bezel.maxY - button.maxY == Fixed16_16(20))
    }

    /// B2: text mode has no indicator: H = 40 + 19; the bar is 120x10: W = 160, H = 50.
    @Test func textModeAndBar() throws {
        #expect(try layout(H.mb(.text, .none, label: "Saved")).bezel.size.height == Fixed16_16(59))
        #expect(try layout(H.mb(.bar, .bar(progress: .half))).bezel.size == Size(160, 50))
    }

    /// B2 (997): square makes H = W; minSize raises both; elements stay centred between equal spacers.
    @Test func squareAndMinSize() throws {
        let s = try layout(H.mb(.bar, .bar(progress: .half), label: "Square") { $0.square = true })
        #expect(s.bezel.size.width == s.bezel.size.height && s.bezel.size.width == Fixed16_16(160))
        let content = s.texts[0].frame.maxY - s.contentFrame.minY  // 10 + 4 + 19 = 33
        #expect(content == Fixed16_16(33))
        #expect(s.contentFrame.minY - s.bezel.minY == s.bezel.maxY - s.texts[0].frame.maxY)
        let m = try layout(H.mb(.indeterminate, .activity(elapsed: .zero)) { $0.minimumSize = Size(150, 120) })
        #expect(m.bezel.size == Size(150, 120) && m.indicatorCenter == m.bezelCenter)
    }

    /// B2 (998, 999): centre = screen centre + offset, but at least margin in from the edges: an
    /// offset beyond the screen (MBProgressMaxOffset) pins the bezel 20 pt from that edge.
    @Test func offsetPinsToEdges() throws {
        let moved = try layout(H.mb(.indeterminate, .activity(elapsed: .zero)) { $0.offset = Point(30, -40) })
        #expect(moved.bezelCenter == Point(190, 80))
        let bottom = try layout(H.mb(.indeterminate, .activity(elapsed: .zero)) { $0.offset = Point(0, 30000) })
        #expect(bottom.bezel.maxY == Fixed16_16(220) && bottom.bezel.midX == Fixed16_16(160))
        let left = try layout(H.mb(.indeterminate, .activity(elapsed: .zero)) { $0.offset = Point(-30000, -30000) })
        #expect(left.bezel.origin == Point(20, 20))
    }

    /// B2: the widest text is viewW − 4·margin = 240; the label is one line, tail truncated;
    /// details wrap within the same width.
    @Test func textWidths() throws {
        let long = "A label far too long to fit on one line of this small screen at all"
        let l = try layout(H.mb(.text, .none, label: long, details: long + " " + long))
        let label = l.texts[0], details = l.texts[1]
        #expect(label.text.lines.count == 1 && label.text.isTruncated)
        #expect(label.frame.size.width <= Fixed16_16(240) && details.frame.size.width <= Fixed16_16(240))
        #expect(details.text.lines.count > 2)
        #expect(l.bezel.size.width <= Fixed16_16(280))
    }

    /// B1: MB's colours: the content colour (label colour α0.7) for text and indicators.
    @Test func colours() throws {
        let l = try layout(H.mb(.indeterminate, .activity(elapsed: .zero)) { $0.contentColor = Color(rgb: 0x0000FF) })
        #expect(l.colors.text == Color(rgb: 0x0000FF) && l.colors.track == Color(rgb: 0x0000FF, alpha: 26))
    }
}
