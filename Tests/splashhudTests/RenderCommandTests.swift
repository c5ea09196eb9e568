// SPDX-License-Identifier: MIT
import Foundation
import HUD
import Assets
import HUDProtocol
import Raster
import Testing
@testable import splashhud_tools

@Suite("splashhud render")
struct RenderCommandTests {
    let script = """
        @0.0 show "Loading"
        @0.6 progress 0.25 "Copying"
        @0.9 dismiss
        """

    func run(_ args: [String]) throws {
        var command = try SplashHUDTools.parseAsRoot(args)
        try command.run()
    }

    @Test func sameInputGivesTheSameBytes() throws {
        let dir = try temporaryDirectory("render")
        try script.write(toFile: "\(dir)/s.hud", atomically: true, encoding: .utf8)
        for name in ["a", "b"] {
            try run(["render", "\(dir)/s.hud", "--size", "200x150", "--at", "0.7", "--out", "\(dir)/\(name).png",
                     "--apng", "0:1:10", "--out", "\(dir)/\(name).apng.png", "--events", "\(dir)/\(name).log"])
        }
        for suffix in [".png", ".apng.png", ".log"] {
            let a = FileManager.default.contents(atPath: "\(dir)/a\(suffix)"), b = FileManager.default.contents(atPath: "\(dir)/b\(suffix)")
            #expect(a != nil && a == b, "\(suffix) differs between two runs")
        }
        let log = try String(contentsOfFile: "\(dir)/a.log", encoding: .utf8)
        #expect(log == """
            0.000 will-appear Loading
            0.150 did-appear Loading
            0.900 will-disappear Copying
            1.050 did-disappear Copying

            """)
    }

    @Test func framesShowTheHUDAtTheirInstant() throws {
        let dir = try temporaryDirectory("render")
        try script.write(toFile: "\(dir)/s.hud", atomically: true, encoding: .utf8)
        try run(["render", "\(dir)/s.hud", "--size", "200x150", "--background", "#204060",
                 "--at", "0.7", "--out", "\(dir)/shown.png", "--at", "2", "--out", "\(dir)/gone.png"])
        let shown = try PNGDecoderHelper.decode("\(dir)/shown.png"), gone = try PNGDecoderHelper.decode("\(dir)/gone.png")
        #expect(gone.pixels.allSatisfy { $0 == Color(rgb: 0x204060).premultiplied.argb })
        #expect(shown.pixels.contains { $0 != Color(rgb: 0x204060).premultiplied.argb })
    }

    @Test func rotationSwapsTheOutputSize() throws {
        let dir = try temporaryDirectory("render")
        try script.write(toFile: "\(dir)/s.hud", atomically: true, encoding: .utf8)
        try run(["render", "\(dir)/s.hud", "--size", "200x150", "--rotate", "90", "--format", "RGB565", "--at", "0.7", "--out", "\(dir)/r.png"])
        let r = try PNGDecoderHelper.decode("\(dir)/r.png")
        #expect(r.width == 150 && r.height == 200)
    }

    @Test func anImageThatWillNotLoadIsReportedWithItsLine() throws {
        let commands = try CommandParser.parseScript("@0 show\n@1 image /nonexistent/logo.png \"Logo\"\n@2 set font /nonexistent/font.ttf")
        let setup = try RenderSetup(width: 100, height: 100, scale: .one, background: .color(.black), format: .xrgb8888, rotation: .r0, commands: commands)
        let problems = setup.problems()
        #expect(problems.count == 2)
        #expect(problems.first?.hasPrefix("line 2: ") == true && problems.first?.contains("/nonexistent/logo.png") == true)
        #expect(problems.last?.hasPrefix("line 3: ") == true && problems.last?.contains("/nonexistent/font.ttf") == true)
    }

    @Test func badInputIsAClearError() throws {
        let dir = try temporaryDirectory("render")
        try "@0 shwo Loading\n".write(toFile: "\(dir)/bad.hud", atomically: true, encoding: .utf8)
        #expect(throws: (any Error).self) { try run(["render", "\(dir)/bad.hud", "--at", "0", "--out", "\(dir)/x.png"]) }
        #expect(throws: (any Error).self) { try run(["render", "\(dir)/bad.hud", "--size", "0x5", "--at", "0", "--out", "\(dir)/x.png"]) }
        #expect(throws: (any Error).self) { try run(["render", "\(dir)/bad.hud"]) }
        let message = SplashHUDTools.message(for: RenderTestError.parse(dir))
        #expect(message.contains("line 1") && message.contains("shwo"))
    }
}

enum RenderTestError: Error {
    case parse(String)
}

extension SplashHUDTools {
    /// The message the tool prints for the error parsing `dir/bad.hud` raises.
    static func message(for e: RenderTestError) -> String {
        guard case .parse(let dir) = e else { return "" }
        do { _ = try Render.parse(["\(dir)/bad.hud", "--at", "0", "--out", "x.png"]).loadScript(); return "" } catch { return "\(error)" }
    }
}

enum PNGDecoderHelper {
    static func decode(_ path: String) throws -> Pixmap { try Assets.PNGDecoder.decode(contentsOf: path) }
}
