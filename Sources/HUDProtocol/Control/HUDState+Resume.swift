// SPDX-License-Identifier: MIT
// A HUD's state as a script a new daemon starts with (`splashhud quit --save-script`,
// `splashhudd --script`): the same HUD at once, without a fade-in, where a daemon hands the screen
// over to its successor (an initramfs's to the real root's, over the frame it kept).

extension HUDState {
    /// The script that shows this HUD at 0 s without a fade-in (then the default fade-in again):
    /// a ring, pie, annular or bar as a progress, anything else shown with its status. A hidden
    /// HUD gives a script that shows nothing.
    public var resumeScript: String {
        var lines = ["# what splashhudd showed when it was told to quit (splashhud quit --save-script)"]
        guard visible else { return lines.joined(separator: "\n") + "\n" }
        lines.append("@0 set fade-in 0")
        var command: [String]
        switch mode {
        case "ring", "pie", "annular", "bar": command = ["progress", Self.format(progress ?? 0)]
        default: command = ["show"]
        }
        if let status, !status.isEmpty { command.append(CommandParser.quote(status)) }
        lines.append("@0 " + command.joined(separator: " "))
        lines.append("@0 set fade-in 0.15")  // HUDAppearance.fadeIn, the default
        return lines.joined(separator: "\n") + "\n"
    }
}
