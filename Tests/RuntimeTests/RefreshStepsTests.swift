// SPDX-License-Identifier: MIT
// The spinner at the display's refresh rate: the scheduler draws each animation frame for its
// boundary on the refresh grid and the scene rounds the spinner to as many steps a turn as frames
// come a second, so however late the loop wakes, every frame shows the next step, a turn later the
// same picture comes round again, and from the second turn on each step is copied, not drawn.
import Display
import GoldenSupport
import HUDProtocol
import Raster
import Runtime
import Testing

@Suite("Spinner steps at the refresh rate")
struct RefreshStepsTests {
    static func fingerprint(_ p: Pixmap) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for y in 0..<Int(p.height) {
            let row = p.view.row(Int32(y))
            for x in 0..<Int(p.width) { h = (h ^ UInt64(row[x])) &* 0x100_0000_01b3 }
        }
        return h
    }

    /// 75 Hz (QEMU's DRM modes) and 75.69 Hz (vesafb's 1024x768), where a phase rounded to 76
    /// steps of a second would skip one every 250 frames.
    @Test("on a timer, the spinner started between boundaries, the loop waking 0-9 ms late: each frame the next step", arguments: [
        (Int32(75_000), 75), (75_694, 76),
    ])
    func everyFrameIsTheNextStep(millihertz: Int32, count: Int) throws {
        let t0 = FramePacerTests.t0
        let display = MemoryDisplay(width: 320, height: 240, refreshMillihertz: millihertz)
        let clock = FramePacerTests.FakeClock(t0)
        let sleeper = FramePacerTests.FakeSleeper(clock)
        let scene = HUDScene(outputs: display.outputs, origin: 0, resources: Fixtures.resources)
        let pacer = FramePacer(display: display, scene: scene, sleeper: sleeper, clock: { clock.now }, log: { _ in })
        pacer.pacing = .timer
        // Shown 6 ms before the first frame: the steps' edges fall between the grid's boundaries,
        // where a wake-up 7 ms late would already reach the next step.
        let show = try #require(try CommandParser.parse("show"))
        scene.apply(show, at: t0 - 6_000_000)
        var frames: [UInt64] = []
        var bytesAfterTwoTurns = 0
        var rng = SplitMix64(state: 75)
        while frames.count < 3 * count {
            sleeper.late = Int64(rng.next() % 9_000_000)
            let before = display.presentCount
            try pacer.runOnce()
            if display.presentCount != before { frames.append(Self.fingerprint(display.shown())) }
            if frames.count == 2 * count { bytesAfterTwoTurns = scene.renderer(named: "memory")!.pixelBytes }
        }
        #expect(scene.renderer(named: "memory")?.spinnerSteps?.count == Int32(count))
        #expect(pacer.missedFrames == 0)
        // The fade-in takes the first turn's first frames; from the second turn on it is steady.
        let second = Array(frames[count..<2 * count]), third = Array(frames[(2 * count)...])
        #expect(Set(second).count == count, "a step repeated or was skipped within a turn")
        #expect(third == second)
        // Every step's tile was kept by then; the third turn drew nothing new.
        #expect(bytesAfterTwoTurns > 0 && scene.renderer(named: "memory")!.pixelBytes == bytesAfterTwoTurns)
    }
}

/// The scene's usual frame renders only the indicator (the controller at rest, every output showing
/// its generation): each output's picture is what a renderer given the whole presentation draws,
/// and every pixel that changed lies in the frame's damage, also when an output joins halfway
/// (its first frame is a whole one) and when the status changes.
@Suite("Resting frames")
struct RestingFrameTests {
    static let a = DisplayOutput(name: "A", mode: DisplayMode(width: 200, height: 150, refreshMillihertz: 60_000), format: .xrgb8888, rotation: .r0)
    static let b = DisplayOutput(name: "B", mode: DisplayMode(width: 160, height: 120, refreshMillihertz: 60_000), format: .xrgb8888, rotation: .r90)

    @Test func restingFramesAreWholeRendersPictures() throws {
        let scene = HUDScene(outputs: [Self.a], origin: 0, resources: Fixtures.resources)
        scene.animationIntervalChanged(16_666_667)
        scene.apply(try #require(try CommandParser.parse("show \"Loading\"")), at: 0)
        var previous: [String: Pixmap] = [:]
        for frame in 0..<150 {
            let t = Int64(frame) * 16_666_667
            if frame == 50 { scene.outputsChanged([Self.a, Self.b]) }
            if frame == 90 { scene.apply(try #require(try CommandParser.parse("status \"Almost there\"")), at: t) }
            let f = scene.frame(at: t)
            for (i, output) in scene.outputs.enumerated() {
                let shown = scene.pixels(output: i).materialized()
                let whole = scene.picture(for: output).materialized()
                #expect(pixelDifferences(shown.pixels, whole.pixels).count == 0, "frame \(frame), output \(output.name)")
                if let before = previous[output.name] {
                    for y in 0..<Int(shown.height) {
                        let now = shown.view.row(Int32(y)), then = before.view.row(Int32(y))
                        for x in 0..<Int(shown.width) where now[x] != then[x] {
                            #expect(f.damage(output: output.name).contains { $0.contains(x: Int32(x), y: Int32(y)) },
                                    "frame \(frame) \(output.name): (\(x), \(y)) outside the damage")
                        }
                    }
                }
                previous[output.name] = shown
            }
        }
    }
}

/// A new output laid out like one that went (the splash moving from the firmware's framebuffer to
/// the GPU's card) takes that output's renderer and frame: nothing is drawn again. One of another
/// size or rotation gets its own.
@Suite("An output's frame handed on")
struct FrameHandedOnTests {
    static func output(_ name: String, _ w: Int32, _ h: Int32, _ r: Rotation = .r0) -> DisplayOutput {
        DisplayOutput(name: name, mode: DisplayMode(width: w, height: h, refreshMillihertz: 60_000), format: .xrgb8888, rotation: r)
    }

    @Test func aCardTakesTheFirmwareFramebuffersFrame() throws {
        let scene = HUDScene(outputs: [Self.output("/dev/fb0", 200, 150)], origin: 0, resources: Fixtures.resources)
        scene.apply(try #require(try CommandParser.parse("show \"Loading\"")), at: 0)
        _ = scene.frame(at: 0)
        let drawn = try #require(scene.renderer(named: "/dev/fb0"))
        scene.outputsChanged([Self.output("card0-Virtual-1", 200, 150)])
        #expect(scene.renderer(named: "card0-Virtual-1") === drawn)
        // Another size, or the same turned: drawn afresh.
        scene.outputsChanged([Self.output("card1-HDMI-A-1", 320, 240)])
        #expect(scene.renderer(named: "card1-HDMI-A-1") !== drawn)
        let again = try #require(scene.renderer(named: "card1-HDMI-A-1"))
        scene.outputsChanged([Self.output("card2-DSI-1", 320, 240, .r180)])
        #expect(scene.renderer(named: "card2-DSI-1") !== again)
        // An output that stays keeps its own; a second new one does not share it.
        scene.outputsChanged([Self.output("card2-DSI-1", 320, 240, .r180), Self.output("card3-DP-1", 320, 240, .r180)])
        #expect(scene.renderer(named: "card3-DP-1") !== scene.renderer(named: "card2-DSI-1"))
    }
}

