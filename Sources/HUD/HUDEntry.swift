// SPDX-License-Identifier: MIT
// A prompt on the HUD (a passphrase, a question): MBProgressHUD's look for a form, the prompt as
// the label over an entry field. A secure entry shows one bullet per character typed, never the
// text; a question shows what was typed. The prompt replaces whatever the HUD showed for as long
// as it is up (HUDController.entry), and that comes back when it is answered.

public struct HUDEntry: Equatable, Sendable {
    /// The label over the field.
    public var prompt: String
    /// Bullets instead of the text.
    public var isSecure: Bool
    /// Characters typed (what a secure entry draws).
    public var characters: Int
    /// The text typed, for a question only (never set for a secure entry).
    public var echo: String
    /// The on-screen keyboard under the field (touch-only kiosks); nil: none.
    public var keyboard: KeyboardState?

    public init(prompt: String, isSecure: Bool, characters: Int = 0, echo: String = "", keyboard: KeyboardState? = nil) {
        self.prompt = prompt; self.isSecure = isSecure; self.characters = characters
        self.echo = isSecure ? "" : echo
        self.keyboard = keyboard
    }
}
