// SPDX-License-Identifier: MIT
// A prompt's form (Layout+Form.swift), checked against numbers worked out by hand. Screen 320x240
// pt, margin 20: the label (bold 16, 19 high) 10 above a 28-high field; bullets 13 apart from 10
// inside the field's left edge, a 2-wide caret after them.
import Assets
import HUD
import Raster
import Testing

@Suite("Layout of a prompt")
struct LayoutFormTests {
    typealias H = DrawHarness
    let screen = Size(320, 240)

    func layout(_ entry: HUDEntry, _ change: (inout HUDAppearance) -> Void = { _ in }) throws -> HUDLayout {
        var p = HUDPresentation()
        change(&p.appearance)
        p.entry = entry
        p.status = entry.prompt
        return HUDLayout.compute(p, screen: screen, resources: try H.resources())
    }

    /// W = 200 (prompt-width) + 40, H = 40 + 19 + 10 + 28 = 97, centred; the field under the label.
    @Test func theFormStack() throws {
        let l = try layout(HUDEntry(prompt: "Disk", isSecure: true, characters: 3))
        #expect(l.bezel == Rect(40, 71.5, 240, 97))
        let e = try #require(l.entry)
        #expect(e.field == Rect(60, 71.5 + 20 + 19 + 10, 200, 28))
        #expect(l.texts.map(\.role) == [.label] && l.texts[0].frame.minY == Fixed16_16(91.5))
        #expect(e.bullets.map(\.x) == [76.5, 89.5, 102.5].map { Fixed16_16($0) })
        #expect(e.bullets.allSatisfy { $0.y == e.field.midY } && e.overflow == nil)
        #expect(e.caret.minX == Fixed16_16(70 + 39 + 2) && e.caret.size.width == Fixed16_16(2))
        #expect(l.content.isNone && l.button == nil)
    }

    /// More characters than fit: a small bullet at the left edge, then as many as still fit; the
    /// caret stays inside the field. The count shown never depends on anything but the count typed.
    @Test func overflowKeepsInsideTheField() throws {
        let fits = try layout(HUDEntry(prompt: "Disk", isSecure: true, characters: 13)).entry!
        #expect(fits.bullets.count == 13 && fits.overflow == nil)
        let over = try layout(HUDEntry(prompt: "Disk", isSecure: true, characters: 40)).entry!
        #expect(over.overflow != nil && over.bullets.count == 13)
        #expect(over.caret.maxX <= over.field.maxX - HUDLayoutFormInset.value)
        #expect(over.bullets.first!.x > over.overflow!.x)
        #expect(try layout(HUDEntry(prompt: "Disk", isSecure: true, characters: 41)).entry!.bullets.count == 13)
    }

    /// prompt-width sets the field; a wider label widens it; never past the screen's margins.
    @Test func theFieldsWidth() throws {
        #expect(try layout(HUDEntry(prompt: "PIN", isSecure: true)) { $0.promptWidth = Fixed16_16(120) }.entry!.field.size.width == Fixed16_16(120))
        let long = try layout(HUDEntry(prompt: "Please unlock disk nvme0n1p3_crypt", isSecure: true))
        #expect(long.entry!.field.size.width == long.texts[0].frame.size.width)
        let huge = try layout(HUDEntry(prompt: "PIN", isSecure: true)) { $0.promptWidth = Fixed16_16(2000) }
        #expect(huge.entry!.field.size.width == Fixed16_16(320 - 80) && huge.bezel.minX >= Fixed16_16(20))
    }

    /// A question shows its text, left-aligned in the field; a long one its end, beside the caret.
    @Test func aQuestionEchoesItsEnd() throws {
        let short = try layout(HUDEntry(prompt: "Name?", isSecure: false, echo: "Zoë"))
        let echo = try #require(short.texts.first { $0.role == .entry })
        #expect(echo.origin.x == short.entry!.field.minX + Fixed16_16(10) && short.entry!.bullets.isEmpty)
        let long = try layout(HUDEntry(prompt: "Name?", isSecure: false, echo: String(repeating: "abcdefghij", count: 8) + "END"))
        let tail = try #require(long.texts.first { $0.role == .entry })
        #expect(tail.text.lines.count == 1 && tail.frame.maxX <= long.entry!.field.maxX)
        #expect(long.entry!.caret.maxX <= long.entry!.field.maxX)
        // A secure entry never carries its text.
        #expect(HUDEntry(prompt: "P", isSecure: true, characters: 2, echo: "pw").echo.isEmpty)
    }
}

/// The field's inner margin, as Layout+Form.swift keeps it.
enum HUDLayoutFormInset { static let value = Fixed16_16(10) }

extension HUDContent {
    var isNone: Bool { if case .none = self { return true } else { return false } }
}
