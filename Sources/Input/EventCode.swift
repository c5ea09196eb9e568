// SPDX-License-Identifier: MIT
// The evdev codes SplashHUD reads, from <linux/input-event-codes.h> (a stable kernel ABI), and the
// names key events carry to subscribers.

public enum EventType {
    public static let syn: UInt16 = 0x00, key: UInt16 = 0x01, rel: UInt16 = 0x02, abs: UInt16 = 0x03, led: UInt16 = 0x11
}

public enum EventCode {
    // EV_SYN
    public static let synReport: UInt16 = 0, synDropped: UInt16 = 3
    // EV_LED: the VT's keyboard handler lights a keyboard's LEDs through LED triggers (the
    // input-leds module; Debian's console-setup points Caps Lock's at kbd-ctrlllock, as its
    // keymaps make Caps Lock CtrlL_Lock), and every reader of the device sees them set.
    public static let ledCapsLock: UInt16 = 0x01
    // EV_REL
    public static let relX: UInt16 = 0x00, relY: UInt16 = 0x01
    // EV_ABS
    public static let absX: UInt16 = 0x00, absY: UInt16 = 0x01
    public static let absMTSlot: UInt16 = 0x2f, absMTPositionX: UInt16 = 0x35, absMTPositionY: UInt16 = 0x36
    public static let absMTTrackingID: UInt16 = 0x39
    // EV_KEY buttons
    public static let buttonLeft: UInt16 = 0x110, buttonTouch: UInt16 = 0x14a
    /// Keyboard keys are below this code (and from `keyOK` up); buttons sit between.
    public static let buttonMisc: UInt16 = 0x100, keyOK: UInt16 = 0x160
    // EV_KEY keys
    public static let keyEsc: UInt16 = 1, keyEnter: UInt16 = 28, keySpace: UInt16 = 57, keyKeypadEnter: UInt16 = 96
    public static let keyA: UInt16 = 30

    /// INPUT_PROP_DIRECT: the device's surface is the screen (a touchscreen, not a touchpad).
    public static let propertyDirect: UInt16 = 0x01
}

/// A keyboard key by its evdev code: the name subscribers see (the kernel's KEY_ name in lower
/// case, `enter`, `esc`, `a`, `f1`) and the text it types without modifiers (Plymouth's keystroke).
public struct KeyName: Equatable, Sendable {
    public var code: UInt16
    public init(code: UInt16) { self.code = code }

    public var name: String {
        if let (n, _) = Self.table[code] { return n }
        return "key-\(code)"
    }

    /// What the key types on a US layout without Shift (nil for keys that type nothing).
    public var text: String? { Self.table[code]?.1 }

    /// What the key types with Ctrl held, as a terminal sends it: a letter's control character
    /// (Ctrl+C 0x03, which systemd-fsckd's keystroke watch waits for); nil for other keys.
    public var controlText: String? {
        guard let t = text?.unicodeScalars.first, text?.unicodeScalars.count == 1, ("a"..."z").contains(t) else { return nil }
        return String(UnicodeScalar(UInt8(t.value - 0x60)))
    }

    public static let leftControl: UInt16 = 29, rightControl: UInt16 = 97

    private static let table: [UInt16: (String, String?)] = {
        var t: [UInt16: (String, String?)] = [
            1: ("esc", "\u{1B}"), 14: ("backspace", "\u{7F}"), 15: ("tab", "\t"), 28: ("enter", "\n"),
            57: ("space", " "), 96: ("kpenter", "\n"), 103: ("up", nil), 105: ("left", nil), 106: ("right", nil),
            108: ("down", nil), 102: ("home", nil), 107: ("end", nil), 104: ("pageup", nil), 109: ("pagedown", nil),
            111: ("delete", nil), 110: ("insert", nil), 12: ("minus", "-"), 13: ("equal", "="), 26: ("leftbrace", "["),
            27: ("rightbrace", "]"), 39: ("semicolon", ";"), 40: ("apostrophe", "'"), 41: ("grave", "`"),
            43: ("backslash", "\\"), 51: ("comma", ","), 52: ("dot", "."), 53: ("slash", "/"),
            29: ("leftctrl", nil), 97: ("rightctrl", nil), 42: ("leftshift", nil), 54: ("rightshift", nil),
            56: ("leftalt", nil), 100: ("rightalt", nil), 125: ("leftmeta", nil), 58: ("capslock", nil),
            116: ("power", nil), 113: ("mute", nil), 114: ("volumedown", nil), 115: ("volumeup", nil),
        ]
        // Letters by keyboard row, digits 1-9 then 0, F1-F10 then F11, F12.
        for (start, row) in [(16, "qwertyuiop"), (30, "asdfghjkl"), (44, "zxcvbnm")] {
            for (i, c) in row.enumerated() { t[UInt16(start + i)] = (String(c), String(c)) }
        }
        for (i, c) in "1234567890".enumerated() { t[UInt16(2 + i)] = (String(c), String(c)) }
        for i in 0..<10 { t[UInt16(59 + i)] = ("f\(i + 1)", nil) }
        t[87] = ("f11", nil); t[88] = ("f12", nil)
        return t
    }()
}
