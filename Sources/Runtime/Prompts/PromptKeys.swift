// SPDX-License-Identifier: MIT
// The bytes a terminal in raw mode sends for the keys of a prompt, as plymouthd reads them
// (ply-keyboard.c): text in the user's layout (the kernel's keymap made it), Enter, Backspace,
// Ctrl-U and Ctrl-W (erase the whole entry, as Plymouth does), Ctrl-C and Ctrl-D (cancel).
// Escape answers nothing; the sequences that arrow, function and keypad keys send without Num
// Lock (ESC [ … or ESC O …) are swallowed whole rather than typed. A CR followed by LF (a serial
// terminal's Enter) is one Enter.

public enum PromptKey: Equatable, Sendable {
    /// A byte of typed text.
    case text(UInt8)
    case enter, erase, eraseEntry, cancel
}

public struct PromptKeyDecoder: Sendable {
    private enum State: Sendable { case plain, escape, sequence, afterCR }
    private var state = State.plain

    public init() {}

    /// The key `byte` completes, nil when it completes none (part of a sequence, a lone Escape,
    /// another control character).
    public mutating func next(_ byte: UInt8) -> PromptKey? {
        switch state {
        case .escape:
            // ESC [ and ESC O start a sequence; anything else follows a lone Escape press.
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") { state = .sequence; return nil }
            state = .plain
        case .sequence:
            // Parameters and intermediates are 0x20...0x3F; the final byte ends it. ESC [ [ A (the
            // console's F1) has a second '[' before its final byte.
            if (0x40...0x7E).contains(byte) && byte != UInt8(ascii: "[") { state = .plain }
            return nil
        case .afterCR:
            state = .plain
            if byte == 0x0A { return nil }
        case .plain:
            break
        }
        switch byte {
        case 0x1B: state = .escape; return nil
        case 0x0D: state = .afterCR; return .enter
        case 0x0A: return .enter
        case 0x7F, 0x08: return .erase
        case 0x15, 0x17: return .eraseEntry
        case 0x03, 0x04: return .cancel
        case 0..<0x20: return nil
        default: return .text(byte)
        }
    }
}
