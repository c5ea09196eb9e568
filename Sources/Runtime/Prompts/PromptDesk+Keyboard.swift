// SPDX-License-Identifier: MIT
// The on-screen keyboard's taps (touch-only kiosks). A key is pressed while a touch that went down
// on it stays on it (drawn pressed) and typed when the touch lifts there, as the HUD's button is;
// sliding off lets it go. What a key types goes into the prompt's locked buffer as the terminal's
// keys do (PromptDesk.take), never into a String, a log line or an event: the taps' positions are
// not posted as touch events while the keyboard is up either (they would spell the passphrase).
import Board
import HUD

/// The input devices the kiosk has now.
public struct InputPresence: Equatable, Sendable {
    /// A keyboard is attached (its keys reach the prompt through the VT).
    public var keyboard: Bool
    /// A touchscreen, tablet or mouse is attached (it can tap the on-screen keyboard).
    public var pointer: Bool
    public init(keyboard: Bool, pointer: Bool) { self.keyboard = keyboard; self.pointer = pointer }
}

extension PromptDesk {
    /// Whether the prompt shows the on-screen keyboard: `always`; `auto` when no keyboard and a
    /// pointer are attached; never while the devices are not known (no input is read).
    var showsKeyboard: Bool {
        switch keyboardMode {
        case .never: return false
        case .always: return true
        case .auto: return devices.map { !$0.keyboard && $0.pointer } ?? false
        }
    }

    /// Why no one could answer a prompt (no keyboard, and no touchscreen or no on-screen keyboard;
    /// a named terminal is a keyboard); nil when someone can or the devices are not known.
    var noInput: String? {
        guard keyboardMode != .always, terminalPath == nil, let d = devices, !d.keyboard else { return nil }
        if !d.pointer { return "neither a keyboard nor a touchscreen is attached" }
        if keyboardMode == .never { return "no keyboard is attached (and the on-screen keyboard is off)" }
        return nil
    }

    /// A touch on the HUD while a prompt is up: true when the on-screen keyboard took it (then no
    /// one else sees it).
    public func pointer(_ phase: InputMessage.Phase, output: String, x: Int32, y: Int32) -> Bool {
        guard isActive, var state = keyboard else { return false }
        let key = phase == .cancel ? nil : surface?.keyboardKey(output: output, x: x, y: y)
        switch phase {
        case .down:
            state.pressed = key
        case .move:
            // Sliding off lets the key go; sliding back does not take it again.
            if state.pressed != key { state.pressed = nil }
        case .up:
            let typed = state.pressed
            state.pressed = nil
            if let typed, typed == key {
                keyboard = state
                press(typed)
                return true
            }
        case .cancel:
            state.pressed = nil
        }
        if state != keyboard {
            keyboard = state
            showEntry()
        }
        return true
    }

    /// What a tapped key does: types its character, erases, answers, or changes the level.
    private func press(_ key: KeyboardKey) {
        guard let state = keyboard else { return }
        switch key {
        case .backspace: take(.erase)
        case .enter:
            // The next prompt starts at its base level (showHead).
            take(.enter)
            return
        case .shift, .symbols: break
        case .character, .space:
            guard let c = state.text(of: key) else { break }
            for b in String(c).utf8 { take(.text(b)) }
        }
        keyboard?.level = state.level(after: key)
        showEntry()
    }
}
