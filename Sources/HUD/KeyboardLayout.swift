// SPDX-License-Identifier: MIT
// The on-screen keyboard's layouts, as data: for a touch-only kiosk's passphrase prompt. Each
// layout has the key rows of its physical keyboard (the digit row and three letter rows, in the
// keymap's order: QWERTZ's z and ü, AZERTY's digit row that types & é " ' ( without shift), and
// what each key types on three levels: base, shift and symbols. The symbols level holds every
// printable ASCII character the other two levels do not, so any layout types any ASCII passphrase.
// A non-Latin layout (ru) types Latin, as a console keymap's Latin level does, the keymap's own
// letters drawn small beside them so the keys are where the user's keyboard has them.
//
// The bottom rows are the same in every layout: shift, the third letter row, backspace; then the
// symbols switch, space and enter.

public struct KeyboardLayout: Equatable, Sendable {
    public enum Level: Equatable, Sendable { case base, shift, symbols }

    /// The name a keymap is known by (`[input] keymap`, vconsole.conf's KEYMAP, XKBLAYOUT).
    public var name: String
    /// What the space bar says: the layout in use, in its own language.
    public var title: String
    /// The four character rows on each level, one Character per key; the levels' rows are the same
    /// lengths.
    public var base: [[Character]]
    public var shift: [[Character]]
    public var symbols: [[Character]]
    /// The keymap's own letters beside the Latin ones (non-Latin layouts), per key; empty: none.
    public var hints: [[Character]]

    public init(name: String, title: String, base: [String], shift: [String], hints: [String] = []) {
        self.name = name; self.title = title
        self.base = base.map(Array.init); self.shift = shift.map(Array.init); self.hints = hints.map(Array.init)
        // The digits on the first row, then every printable ASCII character neither level types,
        // in ASCII order, laid into the letter rows' lengths; keys left over are blank (they type
        // nothing).
        let taken = Set(self.base.joined()).union(self.shift.joined())
        var spare = (0x21...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }.filter { !taken.contains($0) }
        var digits = Array("1234567890")
        symbols = self.base.enumerated().map { i, row in
            row.map { _ in
                if i == 0 { return digits.isEmpty ? " " : digits.removeFirst() }
                return spare.isEmpty ? " " : spare.removeFirst()
            }
        }
    }

    /// The characters of `level`'s rows.
    public func rows(_ level: Level) -> [[Character]] {
        switch level {
        case .base: return base
        case .shift: return shift
        case .symbols: return symbols
        }
    }

    /// The layouts there are, by name.
    public static let all: [KeyboardLayout] = [us, de, fr, ru]

    /// The layout for a keymap's name: `de`, `de-latin1-nodeadkeys`, `de_CH`, `fr(oss)`, `ru`;
    /// nil for a keymap without one here.
    public static func named(_ keymap: String) -> KeyboardLayout? {
        let lowered = keymap.lowercased()
        let stem = lowered.prefix { $0.isLetter && $0.isASCII }
        return all.first { $0.name == stem }
    }

    /// The names `named` knows, for messages.
    public static var names: [String] { all.map(\.name) }

    /// US QWERTY's rows, base and shift: the us layout's, and the Latin level of non-Latin keymaps.
    private static let qwerty = (base: ["1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm"],
                                 shift: ["!@#$%^&*()", "QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"])

    public static let us = KeyboardLayout(name: "us", title: "English (US)", base: qwerty.base, shift: qwerty.shift)

    public static let de = KeyboardLayout(
        name: "de", title: "Deutsch",
        base: ["1234567890ß", "qwertzuiopü", "asdfghjklöä", "yxcvbnm"],
        shift: ["!\"§$%&/()=?", "QWERTZUIOPÜ", "ASDFGHJKLÖÄ", "YXCVBNM"])

    public static let fr = KeyboardLayout(
        name: "fr", title: "Français",
        base: ["&é\"'(-è_çà", "azertyuiop", "qsdfghjklm", "wxcvbn"],
        shift: ["1234567890", "AZERTYUIOP", "QSDFGHJKLM", "WXCVBN"])

    /// The Russian keymap's Latin level: QWERTY keys with ЙЦУКЕН beside them.
    public static let ru = KeyboardLayout(
        name: "ru", title: "Русский · Latin", base: qwerty.base, shift: qwerty.shift,
        hints: ["", "йцукенгшщз", "фывапролд", "ячсмить"])
}

/// Which key of the on-screen keyboard: a character key by row and column, or a function key.
public enum KeyboardKey: Hashable, Sendable {
    case character(row: Int, column: Int)
    case shift, symbols, backspace, space, enter
}

/// What the prompt's on-screen keyboard shows: the layout, the level, and the key held down.
public struct KeyboardState: Equatable, Sendable {
    public var layout: KeyboardLayout
    public var level: KeyboardLayout.Level
    /// The key under a touch that is down (drawn pressed); nil when none is.
    public var pressed: KeyboardKey?

    public init(layout: KeyboardLayout, level: KeyboardLayout.Level = .base, pressed: KeyboardKey? = nil) {
        self.layout = layout; self.level = level; self.pressed = pressed
    }

    /// What tapping `key` types: its character on this level (nil for function keys and blanks).
    public func text(of key: KeyboardKey) -> Character? {
        switch key {
        case .character(let row, let column):
            let rows = layout.rows(level)
            guard rows.indices.contains(row), rows[row].indices.contains(column), rows[row][column] != " " else { return nil }
            return rows[row][column]
        case .space: return " "
        case .shift, .symbols, .backspace, .enter: return nil
        }
    }

    /// The level after tapping `key`: shift and symbols toggle; a character typed on the shift
    /// level goes back to base (one capital, as a phone's keyboard does); symbols stay.
    public func level(after key: KeyboardKey) -> KeyboardLayout.Level {
        switch (key, level) {
        case (.shift, .shift): return .base
        case (.shift, _): return .shift
        case (.symbols, .symbols): return .base
        case (.symbols, _): return .symbols
        case (.character, .shift), (.space, .shift): return .base
        default: return level
        }
    }
}
