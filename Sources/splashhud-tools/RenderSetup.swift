// SPDX-License-Identifier: MIT
// What `splashhud render` and `splashhud demo` share: a script, a screen and how its frames are
// shown. Every output replays the script from the start on its own virtual clock, so outputs do
// not depend on each other or on their order.
import Assets
import HUD
import HUDProtocol
import Raster

struct RenderSetup {
    let width: Int32
    let height: Int32
    let scale: Fixed16_16
    let background: SceneBackground
    let format: PixelFormat
    let rotation: Rotation
    let commands: [TimedCommand]
    let resources: HUDResources
    /// Where images shown with `--support` send a person (a board profile's `[updates]`).
    var support: SupportAddress?

    init(width: Int32, height: Int32, scale: Fixed16_16, background: SceneBackground, format: PixelFormat, rotation: Rotation,
         commands: [TimedCommand]) throws {
        self.width = width; self.height = height; self.scale = scale; self.background = background
        self.format = format; self.rotation = rotation; self.commands = commands
        resources = try HUDResources.system()
    }

    /// What in the script cannot be drawn as asked (an image that will not load, a font that
    /// will not open), one message a line with the script's line number (line 0: a board
    /// profile's setting). Drawing goes on with a placeholder or the default font.
    func problems() -> [String] {
        commands.compactMap { c in
            let place = c.line > 0 ? "line \(c.line)" : "the board profile"
            switch c.command {
            case .image(.custom(let path), _, _, _):
                if case .failure(let e) = resources.image(at: path) { return "\(place): \(e)" }
            case .set(.font(let path)):
                if case .failure(let e) = resources.chain(fontAt: path) { return "\(place): \(e)" }
            default: break
            }
            return nil
        }
    }

    func player() -> ScriptPlayer {
        let player = ScriptPlayer(script: commands, renderer: HUDSceneRenderer(width: width, height: height, scale: scale, background: background, resources: resources))
        player.controller.support = support
        return player
    }

    /// The frame as the panel shows it (format and rotation applied).
    func shown(_ player: ScriptPlayer) -> Pixmap {
        let view = player.renderer.frame.view
        if format == .argb8888 && rotation == .r0 { return player.renderer.frame }
        return view.asScanout(format: format, rotation: rotation)
    }

    func writeFrame(at t: Instant, to path: String) throws {
        let p = player()
        p.render(at: t)
        try PNGEncoder.write(shown(p).view, to: path)
    }

    /// Frames at from, from + 1/fps, … up to `to`, as an animated PNG; returns the frame count.
    func writeAnimation(from: Double, to: Double, fps: Int, to path: String) throws -> Int {
        let p = player()
        let first = Instant.seconds(from)
        let count = Int(((to - from) * Double(fps)).rounded(.down)) + 1
        let size = rotation.outputSize(sourceWidth: width, sourceHeight: height)
        var apng = APNGEncoder(width: size.width, height: size.height, delay: .fps(UInt16(fps)))
        for k in 0..<count {
            // k/fps seconds after `from`, exactly in nanoseconds.
            p.render(at: first + Interval(nanoseconds: Int64(k) * 1_000_000_000 / Int64(fps)))
            try apng.addFrame(shown(p).view)
        }
        try apng.write(to: path)
        return count
    }

    /// Every event of the script, played to the end.
    func eventLog() -> [HUDEvent] {
        player().playToEnd()
    }
}
