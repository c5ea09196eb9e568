// SPDX-License-Identifier: MIT
// The HUD on several outputs at once, headless: one state mirrored on a 1920x1080 screen and an
// 800x480 landscape picture on a 480x800 panel turned by 90°, each laid out for its own frame size
// (compared pixel for pixel with the HUD drawn from scratch at that size), and hotplug in the loop:
// an output connected mid-animation shows the HUD at the next frame, an unplugged one gets no more
// presents while the other's frames go on unchanged.
import Display
import HUD
import HUDProtocol
import Raster
@testable import Runtime
import Testing

@Suite("Runtime outputs and hotplug")
struct RuntimeOutputsTests {
    static let hdmi = DisplayOutput(name: "HDMI-A-1", mode: DisplayMode(width: 1920, height: 1080, refreshMillihertz: 60_000), format: .xrgb8888, rotation: .r0)
    static let dsi = DisplayOutput(name: "DSI-1", mode: DisplayMode(width: 480, height: 800, refreshMillihertz: 60_000), format: .xrgb8888, rotation: .r90)
    static let vga = DisplayOutput(name: "VGA-1", mode: DisplayMode(width: 1024, height: 768, refreshMillihertz: 60_000), format: .xrgb8888, rotation: .r0)

    struct Rig {
        let clock = FakeClock(Fixtures.t0)
        let display: MemoryDisplay
        let poller: PollingPoller
        let runtime: HUDRuntime
        init(_ outputs: [DisplayOutput]) throws {
            display = try MemoryDisplay(outputs: outputs)
            poller = PollingPoller(clock)
            let clock = self.clock
            runtime = try HUDRuntime(display: display, resources: Fixtures.resources, poller: poller, clock: { clock.now }, console: .off)
        }
        /// HUD time of the last frame drawn.
        var hudTime: Instant { runtime.scene.clock.now }
        func steps(_ n: Int) throws { for _ in 0..<n { try runtime.step() } }
        /// The screen shows the HUD of `script` drawn from scratch at the last frame's time.
        func showsReference(_ name: String, _ script: String) throws -> Int {
            let screen = try #require(display.screen(named: name))
            let expected = try Fixtures.reference(script, at: hudTime, width: screen.output.frameWidth, height: screen.output.frameHeight)
            return Fixtures.differences(screen.shownUnrotated(), expected)
        }
    }

    @Test("one HUD mirrored on 1920x1080 and a 90°-rotated 480x800 panel, each laid out for its frame size")
    func mirroredPerResolution() throws {
        let rig = try Rig([Self.hdmi, Self.dsi])
        let script = "@0 progress 0.5 \"Installing\""
        #expect(try rig.runtime.submit("progress 0.5 \"Installing\"").get() == ())
        // Fade in (animating) until the HUD is static and the loop would block.
        while rig.poller.blocked == 0 { try rig.runtime.step() }
        #expect(rig.hudTime > Instant.zero + .milliseconds(150))
        #expect(try rig.showsReference("HDMI-A-1", script) == 0)
        #expect(try rig.showsReference("DSI-1", script) == 0)
        // The panel's scanout is the 800x480 picture turned into its 480x800 memory.
        let dsi = try #require(rig.display.screen(named: "DSI-1"))
        let landscape = try Fixtures.reference(script, at: rig.hudTime, width: 800, height: 480)
        #expect(dsi.scanout.width == 480 && dsi.scanout.height == 800)
        #expect(Fixtures.differences(dsi.shown(), landscape.view.asScanout(format: .xrgb8888, rotation: .r90)) == 0)
        // Laid out, not scaled: the bezel is the same size on both and centred on each.
        let black = Color.black.premultiplied
        let a = Fixtures.box(of: try #require(rig.display.screen(named: "HDMI-A-1")).shownUnrotated(), background: black)
        let b = Fixtures.box(of: dsi.shownUnrotated(), background: black)
        #expect(a.width == b.width && a.height == b.height && a.width > 50)
        // Centred horizontally; vertically at 45 % of each height (SV's layout, above the middle).
        #expect(abs(a.x * 2 + a.width - 1920) <= 1 && abs(b.x * 2 + b.width - 800) <= 1, "\(a) \(b)")
        #expect(abs((a.y * 2 + a.height) * 10 - 1080 * 9) <= 20 && abs((b.y * 2 + b.height) * 10 - 480 * 9) <= 20, "\(a) \(b)")
    }

    @Test("an output connected mid-animation shows the HUD at the next frame; an unplugged one is dropped, the other undisturbed")
    func hotplugMidAnimation() throws {
        let rig = try Rig([Self.hdmi, Self.dsi])
        let script = "@0 show \"Working\""
        rig.runtime.submit("show \"Working\"")
        try rig.steps(30)  // half a second of spinner
        let hdmiRenderer = try #require(rig.runtime.scene.renderer(named: "HDMI-A-1"))

        // Plug in: the eventfd wakes the loop, the outputs are re-read, and the very next frame draws
        // the new output completely.
        rig.display.connect(Self.vga)
        let plugged = rig.clock.now
        var turns = 0
        while rig.display.screen(named: "VGA-1")?.presentCount ?? 0 == 0 {
            try rig.runtime.step(); turns += 1
            try #require(turns < 10)
        }
        #expect(turns <= 2)
        #expect(rig.clock.now - plugged < 1_000_000_000)
        #expect(rig.runtime.frames.outputChanges == 1)
        #expect(rig.display.outputs.map(\.name) == ["HDMI-A-1", "DSI-1", "VGA-1"])
        #expect(try rig.showsReference("VGA-1", script) == 0)
        #expect(try rig.showsReference("HDMI-A-1", script) == 0)
        // The outputs that stayed kept their renderers: only the spinner was redrawn on them.
        #expect(rig.runtime.scene.renderer(named: "HDMI-A-1") === hdmiRenderer)
        let hdmi = try #require(rig.display.screen(named: "HDMI-A-1"))
        #expect(hdmi.lastWrittenRects.allSatisfy { $0.width < 200 && $0.height < 200 }, "\(hdmi.lastWrittenRects)")

        // Unplug the panel: it gets no more presents and keeps its last picture; HDMI goes on.
        try rig.steps(3)
        rig.display.disconnect("DSI-1")
        let dsi = try #require(rig.display.screen(named: "DSI-1"))
        try rig.runtime.step()  // the wake-up that re-reads the outputs
        let dsiCount = dsi.presentCount, dsiBytes = dsi.scanoutBytes
        let hdmiCount = hdmi.presentCount
        try rig.steps(12)
        #expect(rig.display.outputs.map(\.name) == ["HDMI-A-1", "VGA-1"])
        #expect(dsi.presentCount == dsiCount)
        #expect(dsi.scanoutBytes == dsiBytes)
        #expect(hdmi.presentCount >= hdmiCount + 11)
        #expect(try rig.showsReference("HDMI-A-1", script) == 0)
        #expect(try rig.showsReference("VGA-1", script) == 0)
        #expect(rig.runtime.scene.renderer(named: "HDMI-A-1") === hdmiRenderer)
        #expect(rig.runtime.frames.missedFrames == 0)
        // Every frame on the 60 Hz vblank grid: consecutive deadlines one interval apart (or equal,
        // where a hotplug wake-up came in between).
        let d = rig.poller.deadlines.compactMap { $0 }.dropFirst(4)
        for (a, b) in zip(d, d.dropFirst()) { #expect(b - a == 0 || b - a == 16_666_667) }
    }

    @Test("a static HUD with no timer is woken by a plug-in and draws the new output at once")
    func hotplugWhileStatic() throws {
        let rig = try Rig([Self.hdmi])
        let script = "@0 progress 0.25"
        rig.runtime.submit("progress 0.25")
        while rig.poller.blocked == 0 { try rig.runtime.step() }
        let timers = rig.runtime.loop.timedWaits
        rig.display.connect(Self.dsi)
        let plugged = rig.clock.now
        try rig.steps(2)
        #expect(rig.clock.now == plugged, "no timer ran: the descriptor woke the loop")
        #expect(rig.runtime.loop.timedWaits == timers)
        #expect(try rig.showsReference("DSI-1", script) == 0)
        #expect(try #require(rig.display.screen(named: "DSI-1")).presentCount == 1)
    }

    @Test("an output unplugged and plugged back in the same mode between two refreshes is drawn again")
    func replugSameMode() throws {
        let rig = try Rig([Self.hdmi, Self.vga])
        let script = "@0 progress 0.25"
        rig.runtime.submit("progress 0.25")
        while rig.poller.blocked == 0 { try rig.runtime.step() }
        let hdmiPresents = try #require(rig.display.screen(named: "HDMI-A-1")).presentCount
        // Same name, same mode, new screen (a card re-opened after an unplug): nothing of ours on it.
        rig.display.disconnect("VGA-1")
        rig.display.connect(Self.vga)
        try rig.steps(2)
        let screen = try #require(rig.display.screen(named: "VGA-1"))
        #expect(screen.presentCount == 1)
        #expect(try rig.showsReference("VGA-1", script) == 0)
        #expect(try #require(rig.display.screen(named: "HDMI-A-1")).presentCount == hdmiPresents, "the other output is not redrawn")
    }

    @Test("an output that comes back in another mode is laid out afresh for its new size")
    func modeChange() throws {
        let rig = try Rig([Self.hdmi, Self.dsi])
        let script = "@0 progress 0.75 \"Copying\""
        rig.runtime.submit("progress 0.75 \"Copying\"")
        while rig.poller.blocked == 0 { try rig.runtime.step() }
        let dsiRenderer = try #require(rig.runtime.scene.renderer(named: "DSI-1"))
        rig.display.disconnect("HDMI-A-1")
        let smaller = DisplayOutput(name: "HDMI-A-1", mode: DisplayMode(width: 1280, height: 720, refreshMillihertz: 60_000), format: .xrgb8888, rotation: .r0)
        rig.display.connect(smaller)
        try rig.steps(2)
        #expect(rig.display.outputs.map(\.name) == ["DSI-1", "HDMI-A-1"])
        #expect(rig.runtime.scene.renderer(named: "HDMI-A-1")?.width == 1280)
        #expect(rig.runtime.scene.renderer(named: "DSI-1") === dsiRenderer)
        #expect(try rig.showsReference("HDMI-A-1", script) == 0)
        #expect(try rig.showsReference("DSI-1", script) == 0)
    }
}
