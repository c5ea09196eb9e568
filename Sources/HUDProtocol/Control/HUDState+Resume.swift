// SPDX-License-Identifier: MIT
// A HUD's state as a script a new daemon starts with (`splashhud quit --save-script`,
// `splashhudd --script`): the same HUD at once, without its transition, where a daemon hands the
// screen over to its successor (an initramfs's to the real root's, over the frame it kept).

extension HUDState {
    /// The script that shows this HUD at 0 s with `animated off` (then on again): SV's ring as a
    /// progress; MB's pie, annular and bar as its mode, the progress and a show; MB's activity
    /// and text as their mode and a show; anything else shown with its status. A hidden HUD gives
    /// a script that shows nothing.
    public var resumeScript: String {
        var lines = ["# what splashhudd showed when it was told to quit (splashhud quit --save-script)"]
        guard visible else { return lines.joined(separator: "\n") + "\n" }
        let label = status.flatMap { $0.isEmpty ? nil : [CommandParser.quote($0)] } ?? []
        let mbMode = ["pie": HUDMode.determinate, "annular": .annular, "bar": .bar, "activity": .indeterminate, "text": .text][mode]
        var commands: [[String]] = [["set", "animated", "off"]]
        if mode == "ring" {
            commands.append(["progress", Self.format(progress ?? 0)] + label)
        } else if let mbMode {
            commands.append(["set", "mode", mbMode.rawValue])
            // MB's `progress` sets the value and the label; only `show` shows.
            if let progress { commands += [["progress", Self.format(progress)] + label, ["show"]] } else { commands.append(["show"] + label) }
        } else {
            commands.append(["show"] + label)
        }
        commands.append(["set", "animated", "on"])
        lines += commands.map { "@0 " + $0.joined(separator: " ") }
        return lines.joined(separator: "\n") + "\n"
    }
}
