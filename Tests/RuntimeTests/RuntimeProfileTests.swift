// SPDX-License-Identifier: MIT
// Board profiles really changing the pixels: rotation (the HUD laid out portrait and turned into the
// panel's memory), scale (the HUD twice the size), theme colours (screen, bezel), the logo at its
// placement and offset beneath the HUD, pacing reaching the pacer, a bad logo that is logged while
// the splash runs on, and `[hud]` lines validated by the command language with file:line:key.
#if canImport(Glibc)
import Board
import Glibc
#endif
import Assets
import Display
import HUD
import HUDProtocol
import Raster
@testable import Runtime
import Testing

@Suite("Runtime board profiles")
struct RuntimeProfileTests {
    /// A directory for this test's files (a logo), removed by the caller with `removeDirectory`.
    static func makeDirectory() -> String {
        var template = Array("/tmp/splashhud-runtime-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        return dir
    }

    static func removeDirectory(_ dir: String, files: [String]) {
        for f in files { unlink(dir + "/" + f) }
        rmdir(dir)
    }

    struct Run {
        let clock = FakeClock(Fixtures.t0)
        let log = LogLines()
        let opened: OpenedDisplay
        let poller: PollingPoller
        let runtime: HUDRuntime
        var memory: MemoryDisplay { opened.display as! MemoryDisplay }

        /// Opens the display the profile text asks for (backend memory) and shows `command` until the
        /// HUD is static.
        init(_ text: String, file: String = "/tmp/test.conf", command: String = "progress 0.5 \"Installing\"") throws {
            let profile = try BoardProfile.parse(text, file: file)
            opened = DisplayOpener(profile: profile, logger: log.logger).open()
            poller = PollingPoller(clock)
            let clock = self.clock
            runtime = try HUDRuntime(display: opened.display, profile: profile, resources: Fixtures.resources, poller: poller,
                                     clock: { clock.now }, console: .off, logger: log.logger)
            runtime.submit(command)
            var turns = 0
            while poller.blocked == 0 && turns < 200 { try runtime.step(); turns += 1 }
        }
    }

    static let memory = "[device]\nbackend = memory\n"

    @Test("rotation 90 lays the HUD out portrait and turns it into the 800x480 panel's memory")
    func rotation() throws {
        let run = try Run(Self.memory + "[output]\nmode = 800x480\nrotation = 90\n")
        let screen = run.memory.screens[0]
        #expect(screen.output.rotation == .r90 && screen.output.frameWidth == 480 && screen.output.frameHeight == 800)
        let portrait = try Fixtures.reference("@0 progress 0.5 \"Installing\"", at: run.runtime.scene.clock.now, width: 480, height: 800)
        #expect(Fixtures.differences(screen.shownUnrotated(), portrait) == 0)
        #expect(Fixtures.differences(screen.shown(), portrait.view.asScanout(format: .xrgb8888, rotation: .r90)) == 0)
        // Unrotated, the same profile shows a different picture in the panel's memory.
        let flat = try Run(Self.memory + "[output]\nmode = 800x480\nrotation = 0\n")
        #expect(Fixtures.differences(flat.memory.shown(), screen.shown()) > 1000)
    }

    @Test("scale 2 draws the HUD twice the size, as the renderer at scale 2 does")
    func scale() throws {
        let one = try Run(Self.memory + "[output]\nmode = 640x480\nscale = 1\n")
        let two = try Run(Self.memory + "[output]\nmode = 640x480\nscale = 2\n")
        let black = Color.black.premultiplied
        let a = Fixtures.box(of: one.memory.shown(), background: black)
        let b = Fixtures.box(of: two.memory.shown(), background: black)
        #expect(abs(b.width - 2 * a.width) <= 2 && abs(b.height - 2 * a.height) <= 2, "\(a) \(b)")
        let expected = try Fixtures.reference("@0 progress 0.5 \"Installing\"", at: two.runtime.scene.clock.now, width: 640, height: 480, scale: .one * 2)
        #expect(Fixtures.differences(two.memory.shown(), expected) == 0)
    }

    @Test("theme colours: the screen colour behind, the bezel in the background colour")
    func colours() throws {
        let run = try Run(Self.memory + "[output]\nmode = 640x480\n[theme]\nscreen = #103050\nforeground = #00FF00\nbackground = #FF0000\n[hud]\nstyle = custom\n")
        let shown = run.memory.shown()
        #expect(shown.view[0, 0] == Color(rgb: 0x103050).premultiplied)
        #expect(shown.view[639, 479] == Color(rgb: 0x103050).premultiplied)
        let box = Fixtures.box(of: shown, background: Color(rgb: 0x103050).premultiplied)
        // Just inside the bezel's top edge, in the middle: bezel colour.
        #expect(shown.view[box.x + box.width / 2, box.y + 4] == Color(rgb: 0xFF0000).premultiplied)
        // The ring and text are drawn in the foreground colour: some pure green pixels.
        var green = 0
        for y in box.y..<(box.y + box.height) { for x in box.x..<(box.x + box.width) where shown.view[x, y] == Color(rgb: 0x00FF00).premultiplied { green += 1 } }
        #expect(green > 50)
        let appearance = HUDAppearance().applying([.foregroundColor(Color(rgb: 0x00FF00)), .backgroundColor(Color(rgb: 0xFF0000)), .style(.custom)])
        let expected = try Fixtures.reference("@0 progress 0.5 \"Installing\"", at: run.runtime.scene.clock.now, width: 640, height: 480,
                                              background: .color(Color(rgb: 0x103050)), appearance: appearance)
        #expect(Fixtures.differences(shown, expected) == 0)
    }

    @Test("the logo beneath the HUD at its placement and offset, in points", arguments: [
        ("center", "0,-100", IntRect(x: 280, y: 20, width: 80, height: 40)),
        ("top", "10,5", IntRect(x: 300, y: 10, width: 80, height: 40)),
        ("bottom", "-20,-30", IntRect(x: 240, y: 380, width: 80, height: 40)),
    ])
    func logo(placement: String, offset: String, expected: IntRect) throws {
        let dir = Self.makeDirectory()
        defer { Self.removeDirectory(dir, files: ["logo.png"]) }
        // 40x20 points of opaque orange with a 1-pixel blue column at the left edge.
        let logo = Pixmap(width: 40, height: 20)
        for y in Int32(0)..<20 { for x in Int32(0)..<40 { logo.view[x, y] = (x == 0 ? Color(rgb: 0x0000FF) : Color(rgb: 0xFF8000)).premultiplied } }
        try PNGEncoder.write(logo, to: dir + "/logo.png")
        let run = try Run(Self.memory + "[output]\nmode = 640x480\nscale = 2\n[theme]\nscreen = #000000\nlogo = logo.png\n"
                          + "logo-placement = \(placement)\nlogo-offset = \(offset)\n", file: dir + "/board.conf", command: "show")
        let shown = run.memory.shown()
        let orange = Color(rgb: 0xFF8000).premultiplied, black = Color.black.premultiplied
        // Corners of the logo rect (away from the HUD, which covers the middle of the centred logo).
        #expect(shown.view[expected.x + 4, expected.y] == orange)
        #expect(shown.view[expected.x + expected.width - 1, expected.y + expected.height - 1] == orange)
        #expect(shown.view[expected.x, expected.y + 1] == Color(rgb: 0x0000FF).premultiplied)
        #expect(shown.view[expected.x - 1, expected.y] == black)
        #expect(shown.view[expected.x + expected.width, expected.y + expected.height - 1] == black)
        if expected.y > 0 { #expect(shown.view[expected.x + 4, expected.y - 1] == black) }
        #expect(!run.log.contains("logo", level: .error))
    }

    @Test("a logo pushed off the frame by the largest offsets is not drawn, and does not trap")
    func logoFarOff() throws {
        let dir = Self.makeDirectory()
        defer { Self.removeDirectory(dir, files: ["logo.png"]) }
        let logo = Pixmap(width: 10, height: 10)
        for y in Int32(0)..<10 { for x in Int32(0)..<10 { logo.view[x, y] = Color(rgb: 0xFF8000).premultiplied } }
        try PNGEncoder.write(logo, to: dir + "/logo.png")
        for offset in ["32000,0", "-32000,-32000", "0,32767"] {
            // A HUD that comes to rest (a spinner at scale 8 would be drawn for 200 turns).
            let run = try Run(Self.memory + "[output]\nmode = 640x480\nscale = 8\n[theme]\nscreen = #000000\nlogo = logo.png\n"
                              + "logo-offset = \(offset)\n", file: dir + "/board.conf")
            let shown = run.memory.shown()
            var orange = 0
            let logoColour = Color(rgb: 0xFF8000).premultiplied.argb
            for y in 0..<Int(shown.height) {
                let row = shown.view.row(Int32(y))
                for x in 0..<Int(shown.width) where row[x] == logoColour { orange += 1 }
            }
            #expect(orange == 0, "offset \(offset)")
            #expect(run.memory.presentCount > 0)
        }
    }

    @Test("a logo that will not load is a clear logged error and the splash still runs")
    func badLogo() throws {
        let run = try Run(Self.memory + "[output]\nmode = 320x240\n[theme]\nlogo = /nonexistent/logo.png\n")
        #expect(run.log.contains("/nonexistent/logo.png cannot be shown", level: .error), "\(run.log.lines)")
        #expect(run.memory.presentCount > 0)
        #expect(Fixtures.box(of: run.memory.shown(), background: Color.black.premultiplied).width > 50)
    }

    @Test("pacing method and refresh reach the pacer: timer at 30 Hz despite 60 Hz vblanks")
    func pacing() throws {
        let run = try Run(Self.memory + "[output]\nmode = 320x240@60\n[pacing]\nmethod = timer\nrefresh = 30\n", command: "show")
        #expect(run.runtime.frames.pacing == .timer)
        #expect(run.runtime.frames.frameIntervalOverride == 33_333_333)
        let deadlines = run.poller.deadlines.compactMap { $0 }
        try #require(deadlines.count > 10)
        for (a, b) in zip(deadlines, deadlines.dropFirst()) { #expect(b - a == 33_333_333) }
    }

    @Test("[hud] max-fps caps the spinner at every 4th 60 Hz refresh; set max-fps changes it, the spinner steps follow")
    func maxFPS() throws {
        let run = try Run(Self.memory + "[output]\nmode = 320x240@60\n[pacing]\nmethod = timer\n[hud]\nmax-fps = 15\n", command: "show")
        #expect(run.runtime.maxFramesPerSecond == 15)
        let renderer = try #require(run.runtime.scene.renderer(named: run.runtime.scene.outputs[0].name))
        #expect(renderer.spinnerSteps == SpinnerSteps(frameInterval: 4 * 16_666_667))
        let deadlines = run.poller.deadlines.compactMap { $0 }
        try #require(deadlines.count > 10)
        for (a, b) in zip(deadlines, deadlines.dropFirst()) { #expect(b - a == 4 * 16_666_667) }
        run.runtime.submit("set max-fps refresh")
        for _ in 0..<5 { try run.runtime.step() }
        #expect(run.runtime.maxFramesPerSecond == nil)
        #expect(renderer.spinnerSteps == SpinnerSteps(frameInterval: 16_666_667))
        let later = run.poller.deadlines.compactMap { $0 }.suffix(3)
        for (a, b) in zip(later, later.dropFirst()) { #expect(b - a == 16_666_667) }
        run.runtime.maxFramesPerSecond = 20  // what a program's own option sets
        for _ in 0..<3 { try run.runtime.step() }
        #expect(renderer.spinnerSteps?.count == 20)
    }

    @Test("[hud] lines are applied after the theme, through the command language")
    func hudDefaults() throws {
        let profile = try BoardProfile.parse("[theme]\nforeground = #112233\n[hud]\nforeground-color = #445566\nfont-size = 20\nlabel = \"Hello\"\n", file: "b.conf")
        let settings = try profile.hudSettings()
        let appearance = HUDAppearance().applying(settings)
        #expect(appearance.foregroundColor == Color(rgb: 0x445566))
        #expect(settings.first == .foregroundColor(Color(rgb: 0x112233)))
        #expect(appearance.label == "Hello")
        #expect(settings.contains(.fontSize(.one * 20)))
    }

    @Test("[hud] lines become the set commands they stand for, quoted values quoted again")
    func hudLinesAsSetCommands() throws {
        let text = try String(contentsOf: BoardProfilesRunTests.boardsDirectory.appendingPathComponent("headless.conf"), encoding: .utf8)
        let headless = try BoardProfile.parse(text, file: "boards/headless.conf")
        #expect(headless.hudDefaults.map(\.setCommand) == ["set style custom", "set font-size 16", "set label \"Loading\""])
        let p = try BoardProfile.parse("[hud]\nlabel = \"Say \\\"hi\\\"\\tnow\"\nmask = custom\n", file: "boards/t.conf")
        #expect(p.hudDefaults.map(\.setCommand) == [#"set label "Say \"hi\"\tnow""#, "set mask custom"])
    }

    @Test("a bad [hud] line names file, line and key with the command parser's message", arguments: [
        ("[hud]\nstyle = purple\n", 2, "style"),
        ("[theme]\nscreen = #000000\n\n[hud]\nfont-size = 12\nspinner-sped = 3\n", 6, "spinner-sped"),
        ("[hud]\nring-radius = \"wide\"\n", 2, "ring-radius"),
    ])
    func badHUDLine(text: String, line: Int, key: String) throws {
        let profile = try BoardProfile.parse(text, file: "boards/x.conf")
        let entry = try #require(profile.hudDefaults.first { $0.key == key })
        var parserMessage = ""
        do { _ = try CommandParser.parse(entry.setCommand) } catch { parserMessage = error.message }
        #expect(!parserMessage.isEmpty)
        #expect(throws: BoardProfileError(file: "boards/x.conf", line: line, problem: .refusedHUDSetting(key: key, message: parserMessage))) { try profile.hudSettings() }
        let description = (try? profile.hudSettings()).map { _ in "" } ?? "\(BoardProfileError(file: "boards/x.conf", line: line, problem: .refusedHUDSetting(key: key, message: parserMessage)))"
        #expect(description.hasPrefix("boards/x.conf:\(line): \(key): "))
        // The runtime refuses to start on it.
        #expect(throws: RuntimeError.self) {
            try HUDRuntime(display: MemoryDisplay(width: 8, height: 8), profile: profile, resources: Fixtures.resources, poller: PollingPoller(FakeClock(0)), console: .off)
        }
    }

    @Test("scale = auto follows each output's density: 2 on a 192 dpi panel, 1 where the size is unknown")
    func autoScale() throws {
        let dense = DisplayOutput(name: "eDP-1", mode: DisplayMode(width: 1920, height: 1200, refreshMillihertz: 60_000), format: .xrgb8888,
                                  rotation: .r0, physicalWidthMM: 254, physicalHeightMM: 159)
        let plain = DisplayOutput(name: "HDMI-A-1", mode: DisplayMode(width: 1920, height: 1200, refreshMillihertz: 60_000), format: .xrgb8888, rotation: .r0)
        let display = try MemoryDisplay(outputs: [dense, plain])
        let profile = try BoardProfile.parse("[output]\nscale = auto\n", file: "b.conf")
        let clock = FakeClock(Fixtures.t0)
        let runtime = try HUDRuntime(display: display, profile: profile, resources: Fixtures.resources, poller: PollingPoller(clock),
                                     clock: { clock.now }, console: .off)
        #expect(runtime.scene.renderer(named: "eDP-1")?.scale == .one * 2)
        #expect(runtime.scene.renderer(named: "HDMI-A-1")?.scale == .one)
        runtime.submit("progress 0.5")
        for _ in 0..<30 { try runtime.step() }
        let black = Color.black.premultiplied
        let a = Fixtures.box(of: try #require(display.screen(named: "eDP-1")).shown(), background: black)
        let b = Fixtures.box(of: try #require(display.screen(named: "HDMI-A-1")).shown(), background: black)
        #expect(abs(a.width - 2 * b.width) <= 2 && b.width > 30, "\(a) \(b)")
    }

    @Test("the theme's font is resolved beside the profile; one that will not load is logged and the default font used")
    func themeFont() throws {
        let profile = try BoardProfile.parse("[theme]\nfont = fonts/Missing.ttf\n", file: "/etc/splashhud/board.conf")
        #expect(try profile.hudSettings() == [.font(path: "/etc/splashhud/fonts/Missing.ttf")])
        let log = LogLines()
        let clock = FakeClock(Fixtures.t0)
        let display = MemoryDisplay(width: 320, height: 240)
        let runtime = try HUDRuntime(display: display, profile: profile, resources: Fixtures.resources, poller: PollingPoller(clock),
                                     clock: { clock.now }, console: .off, logger: log.logger)
        #expect(log.contains("/etc/splashhud/fonts/Missing.ttf", level: .error), "\(log.lines)")
        runtime.submit("show \"Still here\"")
        for _ in 0..<20 { try runtime.step() }
        #expect(Fixtures.box(of: display.shown(), background: Color.black.premultiplied).width > 50)
    }
}
