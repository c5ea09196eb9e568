// SPDX-License-Identifier: MIT
// What a prompt says under its field (Layout+Form.swift): the layout's tag, Caps Lock, the tries
// left, and bullets that stay bounded however long the passphrase; the row laid out from the right
// for a right-to-left prompt. Goldens for each, an Arabic prompt with all three among them.
import Assets
import GoldenSupport
import HUD
import Raster
import Testing

@Suite("A prompt's hints under its field")
struct PromptHintsDrawTests {
    typealias H = DrawHarness

    static func prompt(_ entry: HUDEntry) -> HUDPresentation {
        var p = H.presentation(.none)
        p.entry = entry
        p.status = entry.prompt
        return p
    }

    static let arabic = "أدخل عبارة المرور لفتح القرص"

    func layout(_ entry: HUDEntry, width: Int32 = 480, height: Int32 = 320) throws -> HUDLayout {
        HUDLayout.compute(Self.prompt(entry), screen: H.screen(width, height, scale: 1), resources: try H.resources())
    }

    /// Nothing to say: no row, the form as before.
    @Test func noHintsNoRow() throws {
        let plain = try layout(HUDEntry(prompt: "Disk", isSecure: true, characters: 3))
        #expect(plain.texts.allSatisfy { $0.role != .hint } && plain.entry?.layoutTag == nil && plain.entry?.capsLockIcon == nil)
        let tagged = try layout(HUDEntry(prompt: "Disk", isSecure: true, characters: 3, layoutName: "de"))
        #expect(tagged.bezel.size.height == plain.bezel.size.height + Fixed16_16(16 + 6))
    }

    /// Left to right: the tag at the field's left edge, Caps Lock after it, the tries at the right
    /// edge; nothing overlaps and all of it stays under the field.
    @Test func theRowLeftToRight() throws {
        let l = try layout(HUDEntry(prompt: "Please unlock disk cryptroot", isSecure: true, characters: 4, layoutName: "de", capsLock: true, triesLeft: 2))
        let e = try #require(l.entry)
        let tag = try #require(e.layoutTag), icon = try #require(e.capsLockIcon)
        let hints = l.texts.filter { $0.role == .hint }
        #expect(hints.count == 3)
        #expect(tag.minX == e.field.minX && tag.minY >= e.field.maxY && icon.minX > tag.maxX)
        #expect(hints[1].frame.minX > icon.maxX && hints[2].frame.maxX <= e.field.maxX && hints[2].frame.minX > hints[1].frame.maxX)
        #expect(e.bullets.first!.x < e.bullets.last!.x && e.bullets.first!.x < e.field.midX)
    }

    /// Right to left (an Arabic prompt): the row mirrored, and the bullets from the field's right edge.
    @Test func theRowRightToLeft() throws {
        let l = try layout(HUDEntry(prompt: Self.arabic, isSecure: true, characters: 4, layoutName: "ar", capsLock: true, triesLeft: 2))
        let e = try #require(l.entry)
        let tag = try #require(e.layoutTag), icon = try #require(e.capsLockIcon)
        let hints = l.texts.filter { $0.role == .hint }
        #expect(tag.maxX == e.field.maxX && icon.maxX < tag.minX && hints[1].frame.maxX < icon.minX)
        #expect(hints[2].frame.minX >= e.field.minX && hints[2].frame.maxX < hints[1].frame.minX)
        #expect(e.bullets.first!.x > e.bullets.last!.x && e.bullets.first!.x > e.field.midX && e.caret.maxX < e.bullets.last!.x)
        #expect(l.issues.isEmpty, "\(l.issues)")
        // The HUD's own direction turns a Latin prompt's row the same way.
        var p = Self.prompt(HUDEntry(prompt: "Disk", isSecure: true, layoutName: "de"))
        p.appearance.textDirection = .rtl
        let r = HUDLayout.compute(p, screen: H.screen(480, 320, scale: 1), resources: try H.resources())
        #expect(r.entry?.layoutTag?.maxX == r.entry?.field.maxX)
    }

    /// However long the passphrase, the bullets drawn are at most `bulletLimit` and the picture is
    /// the same for 200 characters as for 26: a wide field says no more than a narrow one.
    @Test func bulletsAreBounded() throws {
        #expect(HUDEntry(prompt: "", isSecure: true, characters: 200).characters == HUDEntry.bulletLimit + 1)
        let wide = try layout(HUDEntry(prompt: String(repeating: "Please unlock disk ", count: 4), isSecure: true, characters: 200), width: 1920, height: 1080)
        let e = try #require(wide.entry)
        #expect(e.bullets.count <= HUDEntry.bulletLimit && e.overflow != nil)
        #expect(e.field.size.width > Fixed16_16(13 * (HUDEntry.bulletLimit + 4)), "the field is wide enough for more")
        let a = try H.render(Self.prompt(HUDEntry(prompt: "Disk", isSecure: true, characters: 200)), width: 480, height: 320).pixmap
        let b = try H.render(Self.prompt(HUDEntry(prompt: "Disk", isSecure: true, characters: HUDEntry.bulletLimit + 2)), width: 480, height: 320).pixmap
        #expect(H.differingPixels(a, b) == 0)
    }

    /// A Thai prompt takes the row as a Latin one does (Thai is left to right).
    @Test func aThaiPrompt() throws {
        let l = try layout(HUDEntry(prompt: "ป้อนรหัสผ่านเพื่อปลดล็อกดิสก์", isSecure: true, characters: 3, layoutName: "th", capsLock: true))
        #expect(l.entry?.layoutTag?.minX == l.entry?.field.minX && l.issues.isEmpty, "\(l.issues)")
    }

    @Test func goldens() throws {
        _ = try H.expect(Self.prompt(HUDEntry(prompt: "Please unlock disk cryptroot", isSecure: true, characters: 5, layoutName: "de")),
                         "prompt-layout-tag", width: 480, height: 320)
        _ = try H.expect(Self.prompt(HUDEntry(prompt: "Please unlock disk cryptroot", isSecure: true, characters: 5, layoutName: "us", capsLock: true)),
                         "prompt-caps-lock", width: 480, height: 320)
        _ = try H.expect(Self.prompt(HUDEntry(prompt: "Password (/dev/vda)", isSecure: true, characters: 2, triesLeft: 4)),
                         "prompt-tries-left", width: 480, height: 320)
        _ = try H.expect(Self.prompt(HUDEntry(prompt: "Please unlock disk cryptroot", isSecure: true, characters: 200, layoutName: "fr")),
                         "prompt-200-characters", width: 480, height: 320)
        _ = try H.expect(Self.prompt(HUDEntry(prompt: Self.arabic, isSecure: true, characters: 6, layoutName: "ar", capsLock: true, triesLeft: 1)),
                         "prompt-arabic-hints", width: 480, height: 320)
        _ = try H.expect(Self.prompt(HUDEntry(prompt: "Please unlock disk cryptroot", isSecure: true, characters: 3,
                                              keyboard: KeyboardState(layout: .de), layoutName: "de", triesLeft: 2)),
                         "prompt-keyboard-hints-800x480", width: 800, height: 480)
    }
}
