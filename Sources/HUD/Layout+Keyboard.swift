// SPDX-License-Identifier: MIT
// The on-screen keyboard under a prompt's field (KeyboardState): five rows of rounded keys in the
// bezel, sized from the screen so the whole form fits an 800x480 panel and a 1920x1080 one, either
// way up. Rows 0-2 are character keys one unit wide; row 3 is shift (1.5), the fourth character
// row, backspace (1.5); row 4 the symbols switch (1.5), space (the rest) and enter (2). The widest
// row sets the unit: the screen's width less the margins over that many units, or its height over
// five rows, at most 56 pt (a fingertip's key on a large screen without a keyboard as wide as it).
// Labels are the keys' characters on the level shown; shift, backspace and enter are drawn icons.
import Assets
import Raster

/// The keyboard's keys, in points.
public struct HUDKeyboardLayout {
    public enum Icon: Sendable { case shift, backspace, enter, capsLock }
    public struct Key {
        public var key: KeyboardKey
        public var frame: Rect
        public var icon: Icon?
        /// Shift, symbols, backspace, enter: drawn fainter than the character keys.
        public var isFunction: Bool
        /// Shift or symbols while its level is on.
        public var isActive: Bool
        public var isPressed: Bool
    }
    public var frame: Rect
    public var keys: [Key]
    public var cornerRadius: Fixed16_16
    /// Half the space between keys: a touch there still finds the nearer key.
    public var slack: Fixed16_16

    /// The key a touch at `point` presses: the key whose frame, widened by `slack`, holds it.
    public func key(at point: Point) -> KeyboardKey? {
        keys.first {
            point.x >= $0.frame.minX - slack && point.x < $0.frame.maxX + slack
                && point.y >= $0.frame.minY - slack && point.y < $0.frame.maxY + slack
        }?.key
    }

    func offset(by d: Point) -> HUDKeyboardLayout {
        var l = self
        l.frame.origin = l.frame.origin + d
        for i in l.keys.indices { l.keys[i].frame.origin = l.keys[i].frame.origin + d }
        return l
    }
}

extension HUDLayout {
    static let keyMaxPitch = 56.0
    static let keyboardRows = 5

    /// Units across the widest row of `layout`.
    static func keyboardUnits(_ layout: KeyboardLayout) -> Double {
        let r = layout.base.map(\.count)
        return Double(Swift.max(r[0], r[1], r[2], r[3] + 3, 10))
    }

    /// The keyboard for `state` within `available` points, at the origin, and its labels (placed
    /// relative to the same origin).
    static func computeKeyboard(_ state: KeyboardState, available: Size, chain: FontChain?) -> (HUDKeyboardLayout, [HUDTextBlock]) {
        let units = keyboardUnits(state.layout)
        let pitch = Swift.max(16, Swift.min(keyMaxPitch, available.width.double / units, available.height.double / Double(keyboardRows))).rounded(.down)
        let gap = Swift.max(2, (pitch / 8).rounded())
        let width = pitch * units
        var keys: [HUDKeyboardLayout.Key] = []
        var texts: [HUDTextBlock] = []
        let labelSize = Fixed16_16((pitch * 0.42).rounded()), smallSize = Fixed16_16((pitch * 0.26).rounded())
        func label(_ text: String, _ size: Fixed16_16, center: Point) {
            guard let chain, !text.isEmpty else { return }
            let t = TextLayout(text, chain: chain, fontSize: size, maxWidth: Fixed16_16(16384), maxHeight: nil, alignment: .center)
            _ = chain.takeMissing()
            texts.append(block(.key, t, center: center))
        }
        func add(_ key: KeyboardKey, x: Double, row: Int, units w: Double, icon: HUDKeyboardLayout.Icon? = nil, function: Bool = false) -> Rect {
            let frame = Rect(x: Fixed16_16(x + gap / 2), y: Fixed16_16(Double(row) * pitch + gap / 2),
                             width: Fixed16_16(w * pitch - gap), height: Fixed16_16(pitch - gap))
            let active = (key == .shift && state.level == .shift) || (key == .symbols && state.level == .symbols)
            keys.append(.init(key: key, frame: frame, icon: icon, isFunction: function, isActive: active, isPressed: state.pressed == key))
            return frame
        }
        let rows = state.layout.rows(state.level)
        for (r, row) in rows.enumerated() {
            let extra = r == 3 ? 3.0 : 0
            var x = (units - Double(row.count) - extra) * pitch / 2
            if r == 3 {
                _ = add(.shift, x: x, row: r, units: 1.5, icon: .shift, function: true)
                x += 1.5 * pitch
            }
            for (c, ch) in row.enumerated() {
                let key = KeyboardKey.character(row: r, column: c)
                let f = add(key, x: x, row: r, units: 1)
                if ch != " " { label(String(ch), labelSize, center: f.center) }
                if r < state.layout.hints.count, c < state.layout.hints[r].count, state.level != .symbols {
                    label(String(state.layout.hints[r][c]), smallSize,
                          center: Point(x: f.maxX - smallSize.halved - Fixed16_16(2), y: f.minY + smallSize.halved + Fixed16_16(2)))
                }
                x += pitch
            }
            if r == 3 { _ = add(.backspace, x: x, row: r, units: 1.5, icon: .backspace, function: true) }
        }
        let sym = add(.symbols, x: 0, row: 4, units: 1.5, function: true)
        label(state.level == .symbols ? "ABC" : "?123", smallSize, center: sym.center)
        let space = add(.space, x: 1.5 * pitch, row: 4, units: units - 3.5)
        label(state.layout.title, smallSize, center: space.center)
        _ = add(.enter, x: (units - 2) * pitch, row: 4, units: 2, icon: .enter, function: true)
        let size = Size(width: Fixed16_16(width), height: Fixed16_16(pitch * Double(keyboardRows)))
        return (HUDKeyboardLayout(frame: Rect(origin: .zero, size: size), keys: keys,
                                  cornerRadius: Fixed16_16((pitch / 9).rounded()), slack: Fixed16_16(gap / 2)), texts)
    }
}
