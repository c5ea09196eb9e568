// SPDX-License-Identifier: MIT
// The HUD the end-to-end display test shows: one script, a backdrop and the instants at which a
// frame is presented and photographed. The guest program (main.swift) plays it on the real fbdev
// driver under QEMU; Tests/QEMUTests replays it on a MemoryDisplay (`@testable import` of this
// module) and compares QEMU's screendumps with that, so both sides draw from this one file.
import Assets
import HUD
import HUDProtocol
import Raster

enum GuestScene {
    /// A spinner that fades in, then the progress ring moving with new status text. The backdrop
    /// gradient runs through every channel so RGB565 dithering shows on most pixels.
    static let script = """
        @0 show "Installing update 3 of 7\u{2026}"
        @1.2 progress 0.4 "Copying"
        @2.0 progress 0.75 "Copying files"
        """

    /// The presented instants, in seconds, with the shot taken after each. The first is mid fade-in
    /// (a full-screen first present), 1.00 -> 1.05 changes only the spinner's box (a partial
    /// present), 1.5 and 2.6 replace the bezel (progress ring, new text).
    static let instants: [(seconds: Double, name: String)] = [
        (0.12, "frame-0"), (1.0, "frame-1"), (1.05, "frame-2"), (1.5, "frame-3"), (2.6, "frame-4"),
    ]

    /// A diagonal gradient from blue-grey through purple to orange: smooth ramps in all three
    /// channels, where 565 quantisation without dithering would band.
    static func backdrop(width: Int32, height: Int32) -> Pixmap {
        let p = Pixmap(width: width, height: height)
        let canvas = Canvas(p.view)
        canvas.fill(
            .rect(Rect(x: .zero, y: .zero, width: Fixed16_16(width), height: Fixed16_16(height))),
            .linear(
                start: .zero, end: Point(x: Fixed16_16(width), y: Fixed16_16(height)),
                stops: [
                    GradientStop(0, Color(rgb: 0x2B4A6F)), GradientStop(0.6, Color(rgb: 0x6A3D8F)),
                    GradientStop(1, Color(rgb: 0xD08A3C)),
                ]))
        canvas.flush()
        return p
    }

    /// A player of the script drawing `width x height` frames (the output's frame size).
    static func player(width: Int32, height: Int32, resources: HUDResources) throws -> ScriptPlayer {
        let commands = try CommandParser.parseScript(script)
        let renderer = HUDSceneRenderer(
            width: width, height: height, background: .image(backdrop(width: width, height: height)), resources: resources)
        return ScriptPlayer(script: commands, renderer: renderer)
    }
}
