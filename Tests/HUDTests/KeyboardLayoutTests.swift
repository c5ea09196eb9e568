// SPDX-License-Identifier: MIT
// The on-screen keyboard's layouts (KeyboardLayout.swift) as data: every level has the base's
// shape, every layout types every printable ASCII character, the keymaps' own orders (QWERTZ,
// AZERTY's unshifted symbols), a non-Latin layout typing Latin, and the levels' switching.
import HUD
import Testing

@Suite("On-screen keyboard layouts")
struct KeyboardLayoutTests {
    @Test(arguments: KeyboardLayout.all.map(\.name))
    func levelsShareTheBasesShape(_ name: String) throws {
        let l = try #require(KeyboardLayout.named(name))
        #expect(l.base.count == 4)
        #expect(l.shift.map(\.count) == l.base.map(\.count) && l.symbols.map(\.count) == l.base.map(\.count))
        #expect(l.hints.isEmpty || l.hints.count == 4)
    }

    /// Any ASCII passphrase can be typed on any layout, each character on exactly one key.
    @Test(arguments: KeyboardLayout.all.map(\.name))
    func everyLayoutTypesAllOfASCII(_ name: String) throws {
        let l = try #require(KeyboardLayout.named(name))
        let typed = (l.base + l.shift + l.symbols).joined().filter { $0 != " " }
        let ascii = (0x21...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }
        #expect(Set(typed).isSuperset(of: ascii))
        let counts = Dictionary(grouping: typed, by: { $0 }).filter { $0.value.count > 1 && !$0.key.isNumber }
        #expect(counts.isEmpty, "typed on more than one key: \(counts.keys.sorted())")
        // The symbols level starts with the digits.
        #expect(String(l.symbols[0].prefix(10)) == "1234567890")
    }

    @Test func keymapsOrders() throws {
        #expect(KeyboardLayout.de.base[1][5] == "z" && KeyboardLayout.de.base[3][0] == "y" && KeyboardLayout.de.base[2].last == "ä")
        #expect(KeyboardLayout.fr.base[1].first == "a" && KeyboardLayout.fr.base[0][1] == "é" && KeyboardLayout.fr.shift[0][0] == "1")
        #expect(KeyboardLayout.us.base[1].first == "q" && KeyboardLayout.us.shift[0][1] == "@")
        // Russian: its Latin level, ЙЦУКЕН beside.
        let ru = KeyboardLayout.ru
        #expect((ru.base + ru.shift + ru.symbols).joined().allSatisfy { $0.isASCII })
        #expect(ru.hints[1].first == "й" && ru.hints[1].count == ru.base[1].count)
    }

    @Test func keymapNames() {
        #expect(KeyboardLayout.named("de-latin1-nodeadkeys")?.name == "de")
        #expect(KeyboardLayout.named("fr(oss)")?.name == "fr" && KeyboardLayout.named("de_CH")?.name == "de")
        #expect(KeyboardLayout.named("RU")?.name == "ru" && KeyboardLayout.named("us")?.name == "us")
        #expect(KeyboardLayout.named("uk") == nil && KeyboardLayout.named("") == nil && KeyboardLayout.named("dvorak") == nil)
    }

    /// Shift types one capital; symbols stay until switched off; space types a space.
    @Test func levels() {
        var s = KeyboardState(layout: .de)
        #expect(s.text(of: .character(row: 1, column: 5)) == "z" && s.text(of: .space) == " " && s.text(of: .enter) == nil)
        s.level = s.level(after: .shift)
        #expect(s.level == .shift && s.text(of: .character(row: 1, column: 10)) == "Ü")
        #expect(s.level(after: .character(row: 1, column: 0)) == .base && s.level(after: .shift) == .base)
        s.level = s.level(after: .symbols)
        #expect(s.level == .symbols && s.level(after: .character(row: 1, column: 0)) == .symbols)
        #expect(s.text(of: .character(row: 1, column: 0)) == "#" && s.level(after: .symbols) == .base)
        // Keys past a row's end type nothing.
        #expect(s.text(of: .character(row: 3, column: 40)) == nil && s.text(of: .character(row: 9, column: 0)) == nil)
    }
}
