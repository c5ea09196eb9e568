// SPDX-License-Identifier: MIT
// The frame pacer over several outputs and hotplug, on a fake clock: each output's own frame goes
// to its own present; an output without damage is not presented; the display's hotplug descriptor
// is watched beside the caller's and, when readable, the outputs are refreshed, the scene told and
// a frame drawn at once; the pacing method and refresh override change the deadlines; a paused
// pacer draws nothing and arms no timer.
#if canImport(Glibc)
import Glibc
#endif
import Display
import Runtime
import HUDProtocol
import Raster
import Testing

@Suite("FramePacer outputs")
struct FramePacerOutputsTests {
    static let t0: Int64 = 3_000_000_000
    static let interval: Int64 = 16_666_667

    /// Reports watched descriptors that are really readable (poll, no timeout), else jumps the
    /// clock to the deadline; blocking without one is recorded.
    final class Sleeper: PacerSleeper {
        let clock: FramePacerTests.FakeClock
        var deadlines: [Int64?] = []
        var watched: [[Int32]] = []
        var blocked = 0
        init(_ clock: FramePacerTests.FakeClock) { self.clock = clock }
        func wait(until deadline: Int64?, watching descriptors: [Int32]) throws(DisplayError) -> PacerWake {
            deadlines.append(deadline)
            watched.append(descriptors)
            var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if !fds.isEmpty, poll(&fds, nfds_t(fds.count), 0) > 0, let ready = fds.first(where: { $0.revents != 0 }) { return .readable(ready.fd) }
            guard let deadline else { blocked += 1; return .woken }
            clock.now = max(clock.now, deadline)
            return .deadline
        }
    }

    /// One frame per output, each filled with a colour made of the output's width and the frame
    /// number; damage is the whole frame of the outputs listed in `damaged` (nil: all).
    final class Scene: PacedScene {
        var frames: [(name: String, pixmap: Pixmap)]
        var count = 0
        var animating = true
        var damaged: Set<Int>?
        var changes: [[String]] = []
        init(_ outputs: [DisplayOutput]) { frames = outputs.map { ($0.name, Pixmap(width: $0.frameWidth, height: $0.frameHeight)) } }
        static func colour(width: Int32, frame: Int) -> PremultipliedColor {
            PremultipliedColor(a: 0xFF, r: UInt8(truncatingIfNeeded: width), g: UInt8(truncatingIfNeeded: frame), b: 0x55)
        }
        func frame(at nanoseconds: Int64) -> PacedFrame {
            count += 1
            var damage: [PacedFrame.Output] = []
            for (i, f) in frames.enumerated() {
                guard damaged?.contains(i) ?? true else { damage.append(.init(name: f.name, damage: [])); continue }
                let c = Self.colour(width: f.pixmap.width, frame: count)
                for y in 0..<f.pixmap.height { for x in 0..<f.pixmap.width { f.pixmap.view[x, y] = c } }
                damage.append(.init(name: f.name, damage: [f.pixmap.view.bounds]))
            }
            return PacedFrame(outputs: damage, animating: animating)
        }
        func pixels(output index: Int) -> ComposedFrame { ComposedFrame(frames[index].pixmap.view) }
        func outputsChanged(_ outputs: [DisplayOutput]) {
            changes.append(outputs.map(\.name))
            frames = outputs.map { o in frames.first { $0.name == o.name } ?? (o.name, Pixmap(width: o.frameWidth, height: o.frameHeight)) }
        }
    }

    static let wide = DisplayOutput(name: "A", mode: DisplayMode(width: 40, height: 20, refreshMillihertz: 60_000), format: .xrgb8888, rotation: .r0)
    static let tall = DisplayOutput(name: "B", mode: DisplayMode(width: 30, height: 12, refreshMillihertz: 60_000), format: .rgb565, rotation: .r90)
    static let third = DisplayOutput(name: "C", mode: DisplayMode(width: 8, height: 8, refreshMillihertz: 60_000), format: .xrgb8888, rotation: .r0)

    /// A pacer over `display` on its own fake clock and sleeper, with a scene of the display's
    /// outputs (static unless `animating`); what the pacer logs is kept in `log.lines`.
    struct Rig {
        let clock = FramePacerTests.FakeClock(FramePacerOutputsTests.t0)
        let log = FramePacerTests.LogBox()
        let scene: Scene
        let sleeper: Sleeper
        let pacer: FramePacer
        init(_ display: any Display, animating: Bool = true) {
            scene = Scene(display.outputs)
            scene.animating = animating
            sleeper = Sleeper(clock)
            let clock = self.clock, log = self.log
            pacer = FramePacer(display: display, scene: scene, sleeper: sleeper, clock: { clock.now }, log: { log.lines.append($0) })
        }
    }

    @Test("each output's own frame reaches its own screen; an output without damage is not presented")
    func perOutputPresent() throws {
        let display = try MemoryDisplay(outputs: [Self.wide, Self.tall], vsync: false)
        let rig = Rig(display)
        let (scene, sleeper, pacer) = (rig.scene, rig.sleeper, rig.pacer)
        try pacer.runOnce()
        #expect(pacer.framesPresented == 2)
        let a = try #require(display.screen(named: "A")), b = try #require(display.screen(named: "B"))
        #expect(a.shown().view[39, 19] == Scene.colour(width: 40, frame: 1))
        // B is 30x12 scanout turned by 90°: frames are 12x30.
        #expect(b.shownUnrotated().width == 12 && b.presentCount == 1)
        scene.damaged = [1]
        try pacer.runOnce()
        #expect(a.presentCount == 1 && b.presentCount == 2)
        #expect(a.shown().view[0, 0] == Scene.colour(width: 40, frame: 1))
        #expect(pacer.framesPresented == 3)
        // The hotplug descriptor is watched beside the caller's descriptors.
        pacer.watchedDescriptors = [99]
        try pacer.runOnce()
        #expect(sleeper.watched.last == [99, try #require(display.hotplugDescriptor)])
    }

    @Test("a frame's outputs go to the display's outputs of the same names, in whatever order the scene lists them; one the display lacks is skipped")
    func outputsByName() throws {
        let display = try MemoryDisplay(outputs: [Self.wide, Self.tall], vsync: false)
        let rig = Rig(display)
        rig.scene.frames.reverse()  // the scene draws B, then A
        rig.scene.frames.append(("gone", Pixmap(width: 4, height: 4)))
        try rig.pacer.runOnce()
        #expect(rig.pacer.framesPresented == 2)
        let a = try #require(display.screen(named: "A")), b = try #require(display.screen(named: "B"))
        #expect(a.shown().view[39, 19] == Scene.colour(width: 40, frame: 1))
        // B's scanout is RGB565: its red is B's width, 12, to 5 bits (A's would be 40).
        #expect(b.presentCount == 1 && abs(Int(b.shownUnrotated().view[11, 29].r) - 12) <= 8)
    }

    @Test("hotplug: the readable descriptor refreshes the outputs, tells the scene and draws the new one at once")
    func hotplug() throws {
        let display = try MemoryDisplay(outputs: [Self.wide, Self.tall], vsync: false)
        let rig = Rig(display, animating: false)
        let (clock, scene, sleeper, pacer) = (rig.clock, rig.scene, rig.sleeper, rig.pacer)
        try pacer.runOnce()
        #expect(sleeper.blocked == 1)
        display.connect(Self.third)
        display.disconnect("A")
        try pacer.runOnce()  // draws the old outputs once more (woken), then wakes on the descriptor and refreshes
        let a = try #require(display.screen(named: "A"))
        let aCount = a.presentCount
        #expect(scene.changes == [["B", "C"]])
        #expect(pacer.outputChanges == 1)
        #expect(rig.log.lines.last == "outputs changed: B 12x30, C 8x8")
        try pacer.runOnce()  // the next turn draws at once, without a timer
        #expect(pacer.timersArmed == 0)
        #expect(clock.now == Self.t0)
        let c = try #require(display.screen(named: "C"))
        #expect(c.presentCount == 1 && c.shown().view[7, 7] == Scene.colour(width: 8, frame: scene.count))
        #expect(a.presentCount == aCount, "unplugged: no more presents")
        // A refresh that changes nothing draws nothing extra.
        display.connect(Self.third)
        try pacer.runOnce()
        #expect(pacer.outputChanges == 1)
    }

    @Test("pacing .timer ignores vblank stamps; a refresh override sets the grid; .vblank without stamps says so once")
    func pacingMethods() throws {
        let rig = Rig(try MemoryDisplay(outputs: [Self.wide]))  // vblank at n · interval: far from t0
        let (sleeper, pacer) = (rig.sleeper, rig.pacer)
        pacer.pacing = .timer
        pacer.frameIntervalOverride = 40_000_000
        for _ in 0..<4 { try pacer.runOnce() }
        #expect(sleeper.deadlines == (1...4).map { Optional(Self.t0 + Int64($0) * 40_000_000) })
        #expect(pacer.missedFrames == 0)

        let plain = Rig(try MemoryDisplay(outputs: [Self.wide], vsync: false))
        plain.pacer.pacing = .vblank
        for _ in 0..<3 { try plain.pacer.runOnce() }
        #expect(plain.log.lines.filter { $0.contains("no vblank timestamps") }.count == 1)
    }

    @Test("a memory display with a vblank clock stamps the next vblank of that clock's grid")
    func vblankClock() throws {
        let display = try MemoryDisplay(outputs: [Self.wide])
        let rig = Rig(display)
        let (clock, sleeper, pacer) = (rig.clock, rig.sleeper, rig.pacer)
        clock.now = 10 * Self.interval + 5
        display.vblankClock = { clock.now }
        for _ in 0..<3 { try pacer.runOnce() }
        #expect(pacer.lastTiming == .vblank(nanoseconds: 13 * Self.interval))
        #expect(sleeper.deadlines == [11, 12, 13].map { Optional(Int64($0) * Self.interval) })
        #expect(pacer.missedFrames == 0)
    }

    @Test("paused: nothing drawn, no timer; unpaused and marked dirty: drawn at once")
    func paused() throws {
        let display = try MemoryDisplay(outputs: [Self.wide], vsync: false)
        let rig = Rig(display)
        let (sleeper, pacer) = (rig.sleeper, rig.pacer)
        try pacer.runOnce()
        pacer.isPaused = true
        try pacer.runOnce()
        try pacer.runOnce()
        #expect(display.presentCount == 1)
        #expect(sleeper.deadlines.suffix(2) == [nil, nil])
        pacer.isPaused = false
        pacer.markDirty()
        try pacer.runOnce()
        #expect(display.presentCount == 2)
    }

    /// A display whose hotplug descriptor is a pipe with data in it and whose refresh fails.
    final class BrokenHotplug: Display {
        let memory = MemoryDisplay(width: 8, height: 8)
        var fds: [Int32] = [-1, -1]
        init() { _ = pipe(&fds); var b: UInt8 = 1; _ = write(fds[1], &b, 1) }
        deinit { Glibc.close(fds[0]); Glibc.close(fds[1]) }
        var outputs: [DisplayOutput] { memory.outputs }
        var frameIntervalNanoseconds: Int64 { memory.frameIntervalNanoseconds }
        var hotplugDescriptor: Int32? { fds[0] }
        func refreshOutputs() throws(DisplayError) -> Bool { throw .unsupported("uevent socket", "recv failed") }
        func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming { try memory.present(frame, damage: damage) }
        func close(_ how: CloseBehaviour) { memory.close(how) }
    }

    @Test("a hotplug refresh that fails is logged once, the descriptor dropped, and the loop goes on")
    func hotplugFailure() throws {
        let display = BrokenHotplug()
        let rig = Rig(display)
        let sleeper = rig.sleeper
        for _ in 0..<3 { try rig.pacer.runOnce() }
        #expect(rig.log.lines.filter { $0.hasPrefix("hotplug: ") }.count == 1, "\(rig.log.lines)")
        #expect(sleeper.watched.first == [display.fds[0]])
        #expect(sleeper.watched.dropFirst().allSatisfy { $0.isEmpty })
        #expect(display.memory.presentCount >= 2)
    }

    /// Two memory outputs whose presents fail with `error` while `failing` says so.
    final class FlakyDisplay: Display {
        let memory: MemoryDisplay
        var failing: (Int) -> Bool = { _ in false }
        var error = DisplayError.masterLost("drmModeAtomicCommit", .permissionDenied, "/dev/dri/card0")
        init() throws { memory = try MemoryDisplay(outputs: [FramePacerOutputsTests.wide, FramePacerOutputsTests.third], vsync: false) }
        var outputs: [DisplayOutput] { memory.outputs }
        var frameIntervalNanoseconds: Int64 { memory.frameIntervalNanoseconds }
        func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming { try memory.present(frame, damage: damage) }
        func present(_ frame: ComposedFrame, damage: [IntRect], output index: Int) throws(DisplayError) -> PresentTiming {
            if failing(index) { throw error }
            return try memory.present(frame, damage: damage, output: index)
        }
        func close(_ how: CloseBehaviour) { memory.close(how) }
    }

    @Test("master lost on every output: no error, a retry in 250 ms, then the whole frame again though nothing changed")
    func masterLost() throws {
        let display = try FlakyDisplay()
        display.failing = { _ in true }
        let rig = Rig(display, animating: false)
        let (scene, sleeper, pacer, log) = (rig.scene, rig.sleeper, rig.pacer, rig.log)
        try pacer.runOnce()
        try pacer.runOnce()
        #expect(sleeper.deadlines == [Self.t0 + 250_000_000, Self.t0 + 500_000_000])
        #expect(log.lines.filter { $0.contains("present failed") }.count == 2, "once per output: \(log.lines)")
        display.failing = { _ in false }
        scene.damaged = []  // the scene has nothing new to draw
        try pacer.runOnce()
        #expect(display.memory.screens.map(\.presentCount) == [1, 1])
        #expect(display.memory.screens[0].lastWrittenRects == [IntRect(x: 0, y: 0, width: 40, height: 20)])
        #expect(display.memory.screens[1].shown().view[7, 7] == Scene.colour(width: 8, frame: 2))
        #expect(log.lines.filter { $0.contains("presenting again") }.count == 2)
        #expect(sleeper.deadlines.last == .some(nil), "static again: no timer")
    }

    @Test("one output failing does not stop the other; any other error on every output ends the turn")
    func otherFailures() throws {
        let display = try FlakyDisplay()
        display.error = .closed
        display.failing = { $0 == 1 }
        let pacer = Rig(display).pacer
        try pacer.runOnce()
        try pacer.runOnce()
        #expect(display.memory.screens.map(\.presentCount) == [2, 0])
        display.failing = { _ in true }
        #expect(throws: DisplayError.closed) { try pacer.runOnce() }
    }
}
