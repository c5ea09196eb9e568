// SPDX-License-Identifier: MIT
// `splashhud render SCRIPT`: draws a HUD script headless and deterministically (the same input
// gives the same bytes) into PNG frames, an animated PNG, and an event log.
import ArgumentParser
import Assets
import Foundation
import HUD
import HUDProtocol
import Raster

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a HUD script headless to PNG frames, an animated PNG and an event log.",
        discussion: """
            SCRIPT holds timed commands, one per line: `@SECONDS COMMAND`, for example
              @0.0 show "Loading"
              @1.2 progress 0.5 "Copying"
            (`-` reads standard input). Outputs, in any number and order:
              --at T --out FILE.png              the frame at T seconds
              --apng FROM:TO:FPS --out FILE.png  an animated PNG of that range
              --events FILE                      the event log, `T EVENT STATUS` a line (`-`: stdout)
            The HUD uses the library's defaults unless the script sets something; --profile
            takes a board profile's size, scale, format, rotation, screen colour, logo, theme
            and [hud] settings instead (the options given win over it).
            """)

    @Argument(help: "The script of timed commands (`-` for standard input).")
    var script: String

    @Option(help: "Board profile whose look the frames take (a name in boards/ or a .conf file).")
    var profile: String?

    @Option(help: "Screen size in pixels, WxH (default: the profile's mode, else 1280x720).")
    var size: String?

    @Option(help: "Pixels per point (default: the profile's, else 1).")
    var scale: Double?

    @Option(help: "Scanout pixel format the frames are shown in (ARGB8888, XRGB8888, ABGR8888, XBGR8888, RGB888, BGR888, RGB565, BGR565; default: the profile's, else XRGB8888).")
    var format: String?

    @Option(help: "Panel rotation: 0, 90, 180 or 270 (clockwise; default: the profile's, else 0).")
    var rotate: Int?

    @Option(help: "What lies behind the HUD: a colour #RRGGBB[AA] or a PNG file (scaled to fill; default: the profile's screen and logo, else #000000).")
    var background: String?

    @Option(help: "Write the event log here (`-` for standard output).")
    var events: String?

    @Argument(parsing: .allUnrecognized, help: .hidden)
    var outputs: [String] = []

    func validate() throws {
        _ = try screenSize()
        if let scale, !(scale > 0 && scale <= 8) { throw ValidationError("--scale must be above 0 and at most 8, got \(scale)") }
        if let format, PixelFormat(name: format) == nil { throw ValidationError("unknown --format '\(format)'") }
        if let rotate, Rotation(rawValue: rotate) == nil { throw ValidationError("--rotate must be 0, 90, 180 or 270, got \(rotate)") }
        do { _ = try RenderOutput.parse(outputs) } catch { throw ValidationError("\(error)") }
        if try RenderOutput.parse(outputs).isEmpty && events == nil {
            throw ValidationError("nothing to do: ask for --at T --out FILE.png, --apng FROM:TO:FPS --out FILE.png or --events FILE")
        }
    }

    /// `--size` as numbers; nil when not given.
    func screenSize() throws -> (Int32, Int32)? {
        guard let size else { return nil }
        let parts = size.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int32(parts[0]), let h = Int32(parts[1]), (1...8192).contains(w), (1...8192).contains(h) else {
            throw ValidationError("--size must be WxH with each 1...8192, got '\(size)'")
        }
        return (w, h)
    }

    func run() throws {
        let look = try RenderLook(profile: profile.map(Demo.loadProfile), size: screenSize(), scale: scale, format: format,
                                  rotate: rotate, background: background.map(loadBackground))
        var setup = try RenderSetup(width: look.width, height: look.height, scale: look.scale, background: look.background,
                                    format: look.format, rotation: look.rotation, commands: look.settings + loadScript())
        setup.support = look.support
        for problem in setup.problems() { FileHandle.standardError.write("splashhud render: \(script): \(problem)\n".data(using: .utf8)!) }
        var written: [String] = []
        for output in try RenderOutput.parse(outputs) {
            switch output {
            case .frame(let t, let path):
                try setup.writeFrame(at: .seconds(t), to: path)
                written.append(path)
            case .animation(let from, let to, let fps, let path):
                let n = try setup.writeAnimation(from: from, to: to, fps: fps, to: path)
                written.append("\(path) (\(n) frames)")
            }
        }
        if let events {
            let log = setup.eventLog().map(\.description).joined(separator: "\n") + "\n"
            if events == "-" { print(log, terminator: "") } else { try log.write(toFile: events, atomically: true, encoding: .utf8); written.append(events) }
        }
        if !written.isEmpty { FileHandle.standardError.write(("wrote " + written.joined(separator: ", ") + "\n").data(using: .utf8)!) }
    }

    func loadScript() throws -> [TimedCommand] {
        let data: Data
        if script == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let d = FileManager.default.contents(atPath: script) else { throw ValidationError("cannot read the script \(script)") }
            data = d
        }
        do { return try CommandParser.parseScript(bytes: [UInt8](data)) } catch { throw ValidationError("\(script): \(error)") }
    }

    func loadBackground(_ background: String) throws -> SceneBackground {
        if background.hasPrefix("#") {
            guard let c = Color(hex: background) else { throw ValidationError("--background: bad colour '\(background)' (use #RRGGBB or #RRGGBBAA)") }
            return .color(c)
        }
        do { return .image(try PNGDecoder.decode(contentsOf: background)) } catch { throw ValidationError("--background \(background): \(error)") }
    }
}

extension Color {
    /// `#RRGGBB` or `#RRGGBBAA`.
    init?(hex: String) {
        let digits = hex.dropFirst()
        guard hex.first == "#", digits.count == 6 || digits.count == 8, let v = UInt32(digits, radix: 16) else { return nil }
        self = digits.count == 6 ? Color(rgb: v) : Color(rgb: v >> 8, alpha: UInt8(v & 0xFF))
    }
}
