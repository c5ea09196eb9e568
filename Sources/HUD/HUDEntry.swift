// SPDX-License-Identifier: MIT
// A prompt on the HUD (a passphrase, a question): MBProgressHUD's look for a form, the prompt as
// the label over an entry field. A secure entry shows one bullet per character typed, never the
// text; a question shows what was typed. The prompt replaces whatever the HUD showed for as long
// as it is up (HUDController.entry), and that comes back when it is answered. Under the field, what
// a person needs to type it right: the keyboard layout the keys go through, Caps Lock when it is on,
// and the tries left when the asker said how many.

public struct HUDEntry: Equatable, Sendable {
    /// The most bullets a secure entry draws (fewer when the field is narrower); past it, a mark
    /// says more were typed.
    public static let bulletLimit = 24
    /// The label over the field.
    public var prompt: String
    /// Bullets instead of the text.
    public var isSecure: Bool
    /// Characters typed (what a secure entry draws), at most `bulletLimit` + 1: more than the field
    /// shows is all a picture may say of a passphrase's length.
    public var characters: Int
    /// The text typed, for a question only (never set for a secure entry).
    public var echo: String
    /// The on-screen keyboard under the field (touch-only kiosks); nil: none.
    public var keyboard: KeyboardState?
    /// The keyboard layout typed through, as a short tag ("de"); nil: not known (none is guessed).
    public var layoutName: String?
    /// Caps Lock is on (the VT's lock state).
    public var capsLock: Bool
    /// Tries left, as the asker said it; nil: it did not say (none is counted here).
    public var triesLeft: Int?

    public init(prompt: String, isSecure: Bool, characters: Int = 0, echo: String = "", keyboard: KeyboardState? = nil,
                layoutName: String? = nil, capsLock: Bool = false, triesLeft: Int? = nil) {
        self.prompt = prompt; self.isSecure = isSecure; self.characters = Swift.min(Swift.max(0, characters), Self.bulletLimit + 1)
        self.echo = isSecure ? "" : echo
        self.keyboard = keyboard
        self.layoutName = layoutName; self.capsLock = capsLock; self.triesLeft = triesLeft
    }
}
