// SPDX-License-Identifier: MIT
// `splashhud render --profile`: a board profile's look in a headless render, as a theme author
// expects it on the board: its mode as the scanout's size (turned by its rotation), its format,
// screen colour, theme colours and `[hud]` lines give the same bytes as the same look spelled
// out with options and `set` lines; options given win over the profile.
import Foundation
import Raster
import Testing
@testable import splashhud_tools

@Suite("splashhud render --profile")
struct RenderProfileTests {
    let script = """
        @0.0 show "Loading"
        @0.6 progress 0.25 "Copying"
        """

    let profile = """
        # A test board: a portrait 150x200 RGB565 panel turned to landscape.
        [output]
        mode = 150x200
        rotation = 90
        pixel-format = RGB565
        [theme]
        screen = #204060
        foreground = #FF8000
        [hud]
        style = light
        label = "Profile label"
        """

    func run(_ args: [String]) throws {
        var command = try SplashHUDTools.parseAsRoot(args)
        try command.run()
    }

    @Test func theProfilesLookEqualsTheSameLookSpelledOut() throws {
        let dir = try temporaryDirectory("render-profile")
        try script.write(toFile: "\(dir)/s.hud", atomically: true, encoding: .utf8)
        try profile.write(toFile: "\(dir)/board.conf", atomically: true, encoding: .utf8)
        // The profile's settings as `set` lines at 0 s, in the order the daemon applies them
        // (theme colours, then [hud] lines), before the script's own.
        let spelled = "@0 set foreground-color #FF8000\n@0 set style light\n@0 set label \"Profile label\"\n" + script
        try spelled.write(toFile: "\(dir)/spelled.hud", atomically: true, encoding: .utf8)
        try run(["render", "\(dir)/s.hud", "--profile", "\(dir)/board.conf", "--at", "0.7", "--out", "\(dir)/profile.png"])
        try run(["render", "\(dir)/spelled.hud", "--size", "200x150", "--rotate", "90", "--format", "RGB565",
                 "--background", "#204060", "--at", "0.7", "--out", "\(dir)/spelled.png"])
        let a = try PNGDecoderHelper.decode("\(dir)/profile.png"), b = try PNGDecoderHelper.decode("\(dir)/spelled.png")
        // The scanout is the mode's size; the HUD laid out on the turned screen.
        #expect(a.width == 150 && a.height == 200)
        #expect(a.pixels == b.pixels, "the profile's render differs from the same look given as options")
        // And the profile did change something: without it the frame is another.
        try run(["render", "\(dir)/s.hud", "--size", "200x150", "--rotate", "90", "--format", "RGB565",
                 "--at", "0.7", "--out", "\(dir)/plain.png"])
        #expect(try PNGDecoderHelper.decode("\(dir)/plain.png").pixels != a.pixels)
    }

    @Test func optionsWinOverTheProfile() throws {
        let dir = try temporaryDirectory("render-profile")
        try script.write(toFile: "\(dir)/s.hud", atomically: true, encoding: .utf8)
        try profile.write(toFile: "\(dir)/board.conf", atomically: true, encoding: .utf8)
        try run(["render", "\(dir)/s.hud", "--profile", "\(dir)/board.conf", "--size", "120x90", "--rotate", "0",
                 "--background", "#000000", "--at", "2", "--out", "\(dir)/o.png"])
        let o = try PNGDecoderHelper.decode("\(dir)/o.png")
        #expect(o.width == 120 && o.height == 90)
        #expect(o.pixels[0] == Color.black.premultiplied.argb, "the --background given is not the one drawn")
    }

    @Test func aShippedProfileRendersAtItsPanelsSize() throws {
        let dir = try temporaryDirectory("render-profile")
        try script.write(toFile: "\(dir)/s.hud", atomically: true, encoding: .utf8)
        let boards = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("boards")
        // stm32mp1: a 480x800 DSI panel turned to landscape; the cape: 480x272 in RGB565.
        for (board, width, height) in [("stm32mp1", 480, 800), ("beaglebone-black-lcd-cape", 480, 272)] {
            try run(["render", "\(dir)/s.hud", "--profile", boards.appendingPathComponent("\(board).conf").path,
                     "--at", "0.7", "--out", "\(dir)/\(board).png"])
            let p = try PNGDecoderHelper.decode("\(dir)/\(board).png")
            #expect(p.width == width && p.height == height, "\(board): \(p.width)x\(p.height)")
        }
    }

    @Test func aProfileThatDoesNotLoadIsAUsageError() throws {
        let dir = try temporaryDirectory("render-profile")
        try script.write(toFile: "\(dir)/s.hud", atomically: true, encoding: .utf8)
        try "[output]\nrotaion = 90\n".write(toFile: "\(dir)/typo.conf", atomically: true, encoding: .utf8)
        #expect(throws: (any Error).self) {
            try run(["render", "\(dir)/s.hud", "--profile", "\(dir)/typo.conf", "--at", "0", "--out", "\(dir)/x.png"])
        }
        #expect(throws: (any Error).self) {
            try run(["render", "\(dir)/s.hud", "--profile", "no-such-board", "--at", "0", "--out", "\(dir)/x.png"])
        }
    }
}
