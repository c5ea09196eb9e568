// SPDX-License-Identifier: MIT
// The on-screen keyboard under a prompt (Layout+Keyboard.swift, HUDPainter): it fits the screen
// on small and large panels either way up, keys never overlap, hit-testing finds each key at its
// centre and in the gaps, and the renders are held as goldens (us and de, landscape and portrait,
// a pressed key, the shift and symbols levels, the Russian hints).
import Assets
import GoldenSupport
import HUD
import Raster
import Testing

@Suite("On-screen keyboard on the HUD")
struct KeyboardDrawTests {
    typealias H = DrawHarness

    static func prompt(_ state: KeyboardState, characters: Int = 6) -> HUDPresentation {
        var p = H.presentation(.none)
        p.entry = HUDEntry(prompt: "Please unlock disk nvme0n1p3_crypt", isSecure: true, characters: characters, keyboard: state)
        p.status = p.entry?.prompt
        return p
    }

    static let screens: [(Int32, Int32)] = [(800, 480), (480, 800), (1920, 1080), (1080, 1920), (320, 240), (1280, 800)]

    /// The whole form inside the screen, keys inside the bezel and apart, every key found where it is.
    @Test(arguments: KeyboardLayout.all.map(\.name))
    func fitsEveryScreen(_ name: String) throws {
        let layout = try #require(KeyboardLayout.named(name))
        let resources = try H.resources()
        for (w, h) in Self.screens {
            for level in [KeyboardLayout.Level.base, .shift, .symbols] {
                let p = Self.prompt(KeyboardState(layout: layout, level: level))
                let l = HUDLayout.compute(p, screen: H.screen(w, h, scale: 1), resources: resources)
                let k = try #require(l.entry?.keyboard)
                #expect(l.bezel.minX >= .zero && l.bezel.minY >= .zero && l.bezel.maxX <= Fixed16_16(w) && l.bezel.maxY <= Fixed16_16(h),
                        "\(name) \(w)x\(h): bezel \(l.bezel)")
                #expect(k.frame.minY >= l.entry!.field.maxY && k.frame.maxY <= l.bezel.maxY && k.frame.minX >= l.bezel.minX)
                #expect(k.keys.count == layout.base.joined().count + 5)
                for (i, a) in k.keys.enumerated() {
                    #expect(a.frame.size.width > Fixed16_16(10) && a.frame.size.height > Fixed16_16(10))
                    #expect(k.key(at: Point(x: a.frame.midX, y: a.frame.midY)) == a.key)
                    for b in k.keys[(i + 1)...] {
                        let apart = a.frame.maxX <= b.frame.minX || b.frame.maxX <= a.frame.minX
                            || a.frame.maxY <= b.frame.minY || b.frame.maxY <= a.frame.minY
                        #expect(apart, "\(a.key) and \(b.key) overlap")
                    }
                }
                // Labels: a text block per key that types something, the title on space, ?123/ABC.
                let labels = l.texts.filter { $0.role == .key }
                let typing = layout.rows(level).joined().filter { $0 != " " }.count
                let hints = level == .symbols ? 0 : layout.hints.joined().count
                #expect(labels.count == typing + hints + 2, "\(name) \(level)")
                #expect(l.issues.isEmpty, "\(l.issues)")
            }
        }
    }

    /// Keys are fingertip-sized where the screen allows, and the keyboard as wide as it may be.
    @Test func sizedFromTheScreen() throws {
        let resources = try H.resources()
        func pitch(_ w: Int32, _ h: Int32, _ layout: KeyboardLayout = .us) throws -> Fixed16_16 {
            let l = HUDLayout.compute(Self.prompt(KeyboardState(layout: layout)), screen: H.screen(w, h, scale: 1), resources: resources)
            return try #require(l.entry?.keyboard).frame.size.height / Fixed16_16(5)
        }
        #expect(try pitch(1920, 1080) == Fixed16_16(56))
        #expect(try pitch(800, 480) == Fixed16_16(56))
        // Portrait 480 wide: (480 - 80) / 10 units.
        #expect(try pitch(480, 800) == Fixed16_16(40))
        #expect(try pitch(480, 800, .de) == Fixed16_16(36))
    }

    /// The gaps between keys belong to the nearer key; outside the keyboard there is none.
    @Test func gapsFindTheNearerKey() throws {
        let l = HUDLayout.compute(Self.prompt(KeyboardState(layout: .us)), screen: H.screen(800, 480, scale: 1), resources: try H.resources())
        let k = try #require(l.entry?.keyboard)
        let q = try #require(k.keys.first { $0.key == .character(row: 1, column: 0) })
        let w = try #require(k.keys.first { $0.key == .character(row: 1, column: 1) })
        let between = (q.frame.maxX + w.frame.minX) / Fixed16_16(2)
        #expect(k.key(at: Point(x: between - Fixed16_16(0.5), y: q.frame.midY)) == q.key)
        #expect(k.key(at: Point(x: between + Fixed16_16(0.5), y: q.frame.midY)) == w.key)
        #expect(k.key(at: Point(x: k.frame.minX - Fixed16_16(10), y: q.frame.midY)) == nil)
        #expect(k.key(at: Point(x: l.entry!.field.midX, y: l.entry!.field.midY)) == nil)
    }

    /// A pressed key is drawn stronger than its neighbours (darker on the light bezel); nothing else changes.
    @Test func pressedKeyIsHighlighted() throws {
        let key = KeyboardKey.character(row: 2, column: 3)
        let plain = try H.render(Self.prompt(KeyboardState(layout: .us)), width: 800, height: 480)
        let pressed = try H.render(Self.prompt(KeyboardState(layout: .us, pressed: key)), width: 800, height: 480)
        let frame = try #require(pressed.layout.entry?.keyboard?.keys.first { $0.key == key }).frame
        let px = (frame.minX + Fixed16_16(4)).floor, py = (frame.minY + Fixed16_16(4)).floor
        #expect(abs(H.luma(pressed.pixmap, px, py) - H.luma(plain.pixmap, px, py)) > 60)
        let differing = H.differingPixels(plain.pixmap, pressed.pixmap)
        #expect(differing > 0 && differing <= Int(frame.size.width.ceil * frame.size.height.ceil))
    }

    @Test func goldens() throws {
        _ = try H.expect(Self.prompt(KeyboardState(layout: .us)), "keyboard-us-800x480", width: 800, height: 480)
        _ = try H.expect(Self.prompt(KeyboardState(layout: .us, level: .symbols, pressed: .character(row: 1, column: 2))),
                         "keyboard-us-symbols-480x800", width: 480, height: 800)
        _ = try H.expect(Self.prompt(KeyboardState(layout: .de, level: .shift, pressed: .character(row: 1, column: 10))),
                         "keyboard-de-shift-800x480", width: 800, height: 480)
        _ = try H.expect(Self.prompt(KeyboardState(layout: .de)), "keyboard-de-480x800", width: 480, height: 800)
        _ = try H.expect(Self.prompt(KeyboardState(layout: .ru)), "keyboard-ru-1280x800", width: 1280, height: 800)
        _ = try H.expect(Self.prompt(KeyboardState(layout: .fr), characters: 40), "keyboard-fr-overflow-800x480", width: 800, height: 480)
    }
}
