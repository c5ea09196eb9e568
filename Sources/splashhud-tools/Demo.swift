// SPDX-License-Identifier: MIT
// `splashhud demo`: the main job. Plays a real update sequence on the memory framebuffer — a
// spinner with status, the progress ring from 0 to 100 % with changing status, success, dismiss —
// and writes an animated PNG, key frames and the event log; then the rasterizer's own pictures
// (the benchmark's reference frame and the primitive gallery). When a real screen can be opened
// (DRM or fbdev, with permission) the sequence also plays there (DemoScreen); the summary says
// which display was used and why the others were not.
import ArgumentParser
import Assets
import Board
import Foundation
import Gallery
import HUD
import HUDProtocol
import Raster

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a HUD update sequence headless and write its pictures (APNG, key PNGs, events, gallery).")

    @Option(name: .shortAndLong, help: "Folder for the pictures (created if missing).")
    var out: String = "out/demo"

    @Option(help: "Screen size in pixels, WxH.")
    var size: String = "800x480"

    @Option(help: "Frames per second of the animated PNG.")
    var fps: Int = 30

    @Flag(help: "Only the memory framebuffer: do not try to play the demo on a real screen.")
    var noScreen = false

    @Option(help: "Board profile for the real screen (a name in boards/ or a .conf file).")
    var profile: String?

    static let script = """
        # The demo's update sequence (`splashhud render` reads this format). Success stays up for
        # SVProgressHUD's display duration, at least min-dismiss, then dismisses itself.
        @0.0 set min-dismiss 1.5
        @0.0 show "Preparing update\u{2026}"
        @1.5 progress 0 "Downloading 1 of 3"
        @2.0 progress 0.2 "Downloading 1 of 3"
        @2.5 progress 0.4 "Installing 2 of 3"
        @3.0 progress 0.6 "Installing 2 of 3"
        @3.5 progress 0.8 "Installing 3 of 3"
        @4.0 progress 1 "Installing 3 of 3"
        @4.3 success "Updated"

        """

    /// Instants worth a still, and their file names.
    static let keyFrames: [(Double, String)] = [
        (0.07, "1-fade-in"), (1.0, "2-spinner"), (2.8, "3-progress-40"), (4.2, "4-progress-100"), (4.8, "5-success"), (5.9, "6-fade-out"),
    ]

    /// The profile `--profile` names; a lookup failure is a usage error (exit status 64).
    static func loadProfile(_ nameOrPath: String) throws -> BoardProfile {
        do { return try ProfileLocator.load(nameOrPath) } catch { throw ValidationError(error.message) }
    }

    func run() throws {
        let parts = size.lowercased().split(separator: "x").compactMap { Int32($0) }
        guard parts.count == 2, parts.allSatisfy({ (64...8192).contains($0) }) else { throw ValidationError("--size must be WxH, got '\(size)'") }
        guard (1...60).contains(fps) else { throw ValidationError("--fps must be 1...60") }
        try FileManager.default.createDirectory(atPath: "\(out)/raster/primitives", withIntermediateDirectories: true)
        var written: [String] = []

        let (w, h) = (parts[0], parts[1])
        let commands = try CommandParser.parseScript(Self.script)
        let setup = try RenderSetup(width: w, height: h, scale: .one, background: .image(Self.backdrop(width: w, height: h)),
                                    format: .argb8888, rotation: .r0, commands: commands)
        try Self.script.write(toFile: "\(out)/hud.script", atomically: true, encoding: .utf8)
        let n = try setup.writeAnimation(from: 0, to: 6.2, fps: fps, to: "\(out)/hud.apng.png")
        written.append("\(out)/hud.apng.png (animated PNG, \(n) frames at \(fps) fps)")
        for (t, name) in Self.keyFrames {
            try setup.writeFrame(at: .seconds(t), to: "\(out)/hud-\(name).png")
        }
        written.append("\(out)/hud-*.png (\(Self.keyFrames.count) key frames)")
        let log = setup.eventLog().map(\.description).joined(separator: "\n") + "\n"
        try log.write(toFile: "\(out)/hud-events.txt", atomically: true, encoding: .utf8)
        written.append("\(out)/hud-events.txt and hud.script (replay: splashhud render \(out)/hud.script --at 2.8 --out frame.png)")

        written += try writeRasterPictures()
        print("SplashHUD demo: pictures from the memory framebuffer (\(w)x\(h)) in \(out)/:")
        for line in written { print("  \(line)") }

        if noScreen {
            print("Display: the memory framebuffer only (--no-screen: no real screen tried).")
            return
        }
        let loaded = try profile.map(Demo.loadProfile)
        print("Trying a real screen (DRM, then fbdev)…")
        let outcome = try DemoScreen.play(script: commands, duration: 6.2, profile: loaded)
        if let played = outcome.played {
            print("Display: played the demo on \(played), and wrote the pictures above from the memory framebuffer.")
        } else {
            print("Display: the memory framebuffer (no real screen showed the demo).")
        }
        for reason in outcome.notUsed { print("  not used: \(reason)") }
    }

    /// A soft vertical gradient standing in for a boot logo screen.
    static func backdrop(width: Int32, height: Int32) -> Pixmap {
        let p = Pixmap(width: width, height: height)
        let canvas = Canvas(p.view)
        canvas.fill(.rect(Rect(x: .zero, y: .zero, width: Fixed16_16(width), height: Fixed16_16(height))),
                    .linear(start: .zero, end: Point(x: .zero, y: Fixed16_16(height)),
                            stops: [GradientStop(0, Color(rgb: 0x2B4A6F)), GradientStop(1, Color(rgb: 0x0F1C2B))]))
        canvas.flush()
        return p
    }

    /// The rasterizer's pictures: the benchmark's reference frame and the primitive gallery.
    func writeRasterPictures() throws -> [String] {
        let dir = "\(out)/raster"
        for variant in [ReferenceFrame.Variant.full1080, .full4k] {
            let scene = try ReferenceFrame(variant)
            let pixmap = Pixmap(width: scene.geometry.width, height: scene.geometry.height)
            scene.draw(frame: 10, into: Canvas(pixmap.view))
            try PNGEncoder.write(pixmap.view, to: "\(dir)/reference-\(variant.rawValue).png")
        }
        try PNGEncoder.write(Gallery.grid(Gallery.primitives).view, to: "\(dir)/gallery.png")
        for item in Gallery.primitives {
            try PNGEncoder.write(Gallery.render(item).view, to: "\(dir)/primitives/\(item.name).png")
        }
        return ["\(dir)/reference-full1080.png, reference-full4k.png, gallery.png, primitives/ (the rasterizer's own pictures)"]
    }
}
