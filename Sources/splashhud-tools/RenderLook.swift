// SPDX-License-Identifier: MIT
// What `splashhud render` draws on: the screen's size, scale, format and rotation, what lies behind
// the HUD, and the HUD settings applied before the script. From the options, else from a board
// profile (`--profile`: the look a theme author gets on that board), else the defaults. A profile
// value the headless render cannot know takes the default: a `preferred` mode (no connector)
// renders 1280x720, `panel-orientation` no rotation, `auto` scale 1 and format XRGB8888. A
// profile's mode is the scanout's size, as on the board: turned 90 or 270 degrees, the HUD lays
// out on the mode's height by its width (`--size` is the HUD's screen, as without a profile).
import ArgumentParser
import Board
import HUD
import HUDProtocol
import LinuxSystem
import Logging
import Raster

struct RenderLook {
    var width: Int32 = 1280
    var height: Int32 = 720
    var scale: Fixed16_16 = .one
    var format: PixelFormat = .xrgb8888
    var rotation: Rotation = .r0
    var background: SceneBackground = .color(.black)
    /// The profile's theme colours and font, then its `[hud]` lines, as `set` commands at 0 s.
    var settings: [TimedCommand] = []
    /// The profile's support address (`[updates]`), for images shown with `--support`.
    var support: SupportAddress?

    /// The profile's look first, then each option given on the command line over it.
    init(profile: BoardProfile?, size: (Int32, Int32)?, scale: Double?, format: String?, rotate: Int?,
         background: SceneBackground?) throws {
        var scanout: (Int32, Int32)?
        let logger = Logger(label: "splashhud.render") { StreamLogHandler.standardError(label: $0) }
        if let profile {
            support = profile.supportAddress(hostName: Files.hostName, logger: logger)
            if case .size(let w, let h, _) = profile.mode { scanout = (w, h) }
            if case .fixed(let s) = profile.scale { self.scale = s }
            if let f = profile.pixelFormat { self.format = f }
            rotation = DisplayOpener.fixedRotation(profile)
            do {
                settings = try profile.hudSettings().map { TimedCommand(time: .zero, command: .set($0), line: 0) }
            } catch {
                throw ValidationError("\(error)")
            }
        }
        if let scale { self.scale = Fixed16_16(scale) }
        if let format { self.format = PixelFormat(name: format)! }
        if let rotate { rotation = Rotation(rawValue: rotate)! }
        if let size {
            width = size.0; height = size.1
        } else if let (w, h) = scanout {
            let turned = rotation == .r90 || rotation == .r270
            width = turned ? h : w; height = turned ? w : h
        }
        if let background {
            self.background = background
        } else if let profile {
            // The screen colour and logo, as the daemon composes them (a logo that will not load
            // is reported and left out, as the daemon does).
            self.background = profile.sceneTheme(logger: logger).background(width: width, height: height, scale: self.scale, rotation: rotation)
        }
    }
}
