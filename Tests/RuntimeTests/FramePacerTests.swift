// SPDX-License-Identifier: MIT
import Display
import Runtime
import HUDProtocol
import Raster
import Testing

/// The frame pacer on a fake clock: the sleeper records each deadline it is asked to wait for and
/// moves the clock there, so the sequence of deadlines (frame boundaries, scheduled changes, or
/// none) is checked exactly, without real time.
@Suite("FramePacer")
struct FramePacerTests {
    static let interval: Int64 = 16_666_667  // 60 Hz, DisplayMode's rounding
    static let t0: Int64 = 5_000_000_000

    final class FakeClock {
        var now: Int64
        init(_ now: Int64) { self.now = now }
    }

    /// Waits by jumping the clock to the deadline; a nil deadline (block forever) takes the next
    /// scripted wake-up, and with none left the test has a pacer blocking for ever: recorded.
    final class FakeSleeper: PacerSleeper {
        let clock: FakeClock
        var deadlines: [Int64?] = []
        /// Wake-ups delivered instead of the deadline: (at clock time, reason).
        var wakeUps: [(at: Int64, reason: PacerWake)] = []
        /// How late a deadline's wake-up comes (a loaded machine).
        var late: Int64 = 0
        init(_ clock: FakeClock) { self.clock = clock }
        /// The descriptors each wait watched.
        var watched: [[Int32]] = []
        func wait(until deadline: Int64?, watching descriptors: [Int32]) throws(DisplayError) -> PacerWake {
            deadlines.append(deadline)
            watched.append(descriptors)
            if let w = wakeUps.first, deadline.map({ w.at < $0 }) ?? true {
                wakeUps.removeFirst()
                clock.now = max(clock.now, w.at)
                return w.reason
            }
            guard let deadline else { Issue.record("the pacer blocked with nothing to wake it"); return .woken }
            clock.now = max(clock.now, deadline + late)
            return .deadline
        }
    }

    /// Fills the frame with a colour that encodes the frame number; `behaviour` says what the frame
    /// at a time is, `cost` how long rendering takes (added to the fake clock).
    final class FakeScene: PacedScene {
        let pixmap = Pixmap(width: 8, height: 4)
        let clock: FakeClock
        var times: [Int64] = []
        var behaviour: (Int64) -> PacedFrame
        var cost: (Int) -> Int64 = { _ in 2_000_000 }
        init(_ clock: FakeClock, behaviour: @escaping (Int64) -> PacedFrame) { self.clock = clock; self.behaviour = behaviour }
        /// What `animationIntervalChanged` said, in order.
        var intervals: [Int64] = []
        func pixels(output index: Int) -> ComposedFrame { ComposedFrame(pixmap.view) }
        func animationIntervalChanged(_ nanoseconds: Int64) { intervals.append(nanoseconds) }
        func frame(at nanoseconds: Int64) -> PacedFrame {
            times.append(nanoseconds)
            var f = behaviour(nanoseconds)
            if !f.outputs[0].damage.isEmpty {
                let c = PremultipliedColor(a: 0xFF, r: UInt8(truncatingIfNeeded: times.count * 10), g: 0x40, b: 0x80)
                for y in Int32(0)..<4 { for x in Int32(0)..<8 { pixmap.view[x, y] = c } }
                f.outputs[0].damage = [pixmap.view.bounds]
            }
            clock.now += cost(times.count)
            return f
        }
    }

    /// A memory display whose `present` reports the timing the test wants (fbdev/DRM stand-in).
    final class TimedDisplay: Display {
        let memory = MemoryDisplay(width: 8, height: 4)
        var timing: () -> PresentTiming = { .timer }
        var outputs: [DisplayOutput] { memory.outputs }
        var frameIntervalNanoseconds: Int64 { memory.frameIntervalNanoseconds }
        func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming {
            _ = try memory.present(frame, damage: damage)
            return timing()
        }
        func close(_ how: CloseBehaviour) { memory.close(how) }
    }

    struct Rig {
        let clock = FakeClock(FramePacerTests.t0)
        let display = TimedDisplay()
        let sleeper: FakeSleeper
        let scene: FakeScene
        let pacer: FramePacer
        let logBox = LogBox()
        init(_ behaviour: @escaping (Int64) -> PacedFrame) {
            sleeper = FakeSleeper(clock)
            scene = FakeScene(clock, behaviour: behaviour)
            let clock = self.clock, box = logBox
            pacer = FramePacer(display: display, scene: scene, sleeper: sleeper, clock: { clock.now }, log: { box.lines.append($0) })
        }
        func run(_ turns: Int) throws { for _ in 0..<turns { try pacer.runOnce() } }

        /// DRMDisplay's present: it first waits for the previous flip's event (its vblank), then
        /// commits this frame for the next vblank and returns that previous stamp at once. The
        /// log gets each commit's vblank.
        func presentQueuingFlips() -> FlipLog {
            let clock = self.clock, I = FramePacerTests.interval, t0 = FramePacerTests.t0, log = FlipLog()
            var pending: Int64?
            var last = t0  // the modeset that showed the first buffer
            display.timing = {
                if let p = pending { clock.now = max(clock.now, p); last = p }
                let flip = t0 + ((clock.now - t0) / I + 1) * I
                pending = flip
                log.flips.append(flip)
                return .vblank(nanoseconds: last)
            }
            return log
        }
    }

    final class FlipLog { var flips: [Int64] = [] }

    final class LogBox { var lines: [String] = [] }

    static let spinning = PacedFrame(output: "memory", damage: [IntRect(x: 0, y: 0, width: 1, height: 1)], animating: true)
    static let still = PacedFrame(output: "memory", damage: [IntRect(x: 0, y: 0, width: 1, height: 1)], animating: false)

    @Test("animating on a timer display: one frame per 60 Hz boundary of a grid from the first frame")
    func timerBoundaries() throws {
        let rig = Rig { _ in Self.spinning }
        #expect(rig.display.frameIntervalNanoseconds == Self.interval)
        try rig.run(5)
        let expected = (1...5).map { Optional(Self.t0 + Int64($0) * Self.interval) }
        #expect(rig.sleeper.deadlines == expected)
        #expect(rig.scene.times == [Self.t0] + expected.dropLast().map { $0! })
        #expect(rig.pacer.framesPresented == 5)
        #expect(rig.pacer.missedFrames == 0)
        #expect(rig.pacer.timersArmed == 5)
        // The last rendered frame is what the display shows.
        #expect(rig.display.memory.shown().view[7, 3] == rig.scene.pixmap.view[7, 3])
        #expect(rig.display.memory.presentCount == 5)
    }

    @Test("a late wake-up draws the animation frame for its boundary; a change drawn at once, for its instant")
    func lateWakeUpsKeepTheGrid() throws {
        var changeAt: Int64?
        let rig = Rig { t in changeAt.map { t >= $0 } == true ? Self.still : Self.spinning }
        rig.sleeper.late = 3_000_000
        try rig.run(5)
        let I = Self.interval, t0 = Self.t0
        #expect(rig.sleeper.deadlines == (1...5).map { Optional(t0 + Int64($0) * I) })
        #expect(rig.scene.times == (0...4).map { t0 + Int64($0) * I })
        // Static from the next frame on; a change 10 ms later is drawn at once, for its instant.
        changeAt = t0 + 5 * I
        let change = t0 + 5 * I + 10_000_000
        rig.sleeper.wakeUps = [(change, .woken), (t0 + 10 * I, .woken)]
        try rig.run(2)
        #expect(Array(rig.scene.times.suffix(2)) == [t0 + 5 * I, change])
    }

    @Test("a frame that overruns its boundaries skips them, counts them missed and logs once per second")
    func missedFrames() throws {
        let rig = Rig { _ in Self.spinning }
        // Frame 3 takes 40 ms: boundaries t0+3I and t0+4I pass while it renders (2 ms is the norm).
        rig.scene.cost = { $0 == 3 ? 40_000_000 : 2_000_000 }
        try rig.run(4)
        let I = Self.interval, t0 = Self.t0
        #expect(rig.sleeper.deadlines == [t0 + I, t0 + 2 * I, t0 + 5 * I, t0 + 6 * I])
        #expect(rig.pacer.missedFrames == 2)
        #expect(rig.logBox.lines.count == 1)
        #expect(rig.logBox.lines.first?.contains("missed 2 frame(s)") == true, "\(rig.logBox.lines)")
        #expect(rig.logBox.lines.first?.contains("took 40 ms") == true, "\(rig.logBox.lines)")
        // Every frame from now on overruns one boundary: 10 more misses within the second, no more log lines.
        rig.scene.cost = { _ in 20_000_000 }
        try rig.run(10)
        #expect(rig.pacer.missedFrames == 12)
        #expect(rig.logBox.lines.count == 1)
        // A second later the next miss logs the sum since the last line.
        rig.scene.cost = { _ in 1_000_000_000 }
        try rig.run(1)
        #expect(rig.logBox.lines.count == 2)
        #expect(rig.logBox.lines.last?.contains("(\(rig.pacer.missedFrames) in all)") == true, "\(rig.logBox.lines)")
        // Deadlines stay on the grid of the first frame.
        for d in rig.sleeper.deadlines { #expect((d! - t0) % I == 0) }
    }

    @Test("a display with vblank timestamps: the next frame is drawn when this one is on the glass")
    func vblankPacing() throws {
        let rig = Rig { _ in Self.spinning }
        // A present that blocks until its flip: it returns at the next vblank of a 60 Hz grid, with
        // that vblank's stamp.
        let clock = rig.clock, I = Self.interval, t0 = Self.t0
        rig.display.timing = {
            let stamp = t0 + ((clock.now - t0) / I + 1) * I
            clock.now = stamp
            return .vblank(nanoseconds: stamp)
        }
        try rig.run(4)
        // Each frame is drawn at the vblank that showed the one before and shown at the next: one
        // frame per refresh, not one per two.
        #expect(rig.sleeper.deadlines == (1...4).map { Optional(t0 + Int64($0) * I) })
        #expect(rig.scene.times == (0...3).map { t0 + Int64($0) * I })
        #expect(rig.pacer.missedFrames == 0)
        // A frame that takes 1.5 intervals misses one vblank: counted.
        rig.scene.cost = { _ in I + I / 2 }
        try rig.run(1)
        #expect(rig.pacer.missedFrames == 1)
    }

    @Test("a present that returns once its flip is queued (DRM): every refresh gets a frame, none missed")
    func vblankPacingWithQueuedFlips() throws {
        let rig = Rig { _ in Self.spinning }
        let I = Self.interval, t0 = Self.t0
        let log = rig.presentQueuingFlips()
        try rig.run(8)
        let flips = log.flips
        #expect(flips == (1...8).map { t0 + Int64($0) * I }, "\(flips.map { ($0 - t0) * 4 / I })")
        #expect(rig.pacer.missedFrames == 0)
        // Steady state: each frame is drawn right after the vblank that showed the one before last.
        #expect(Array(rig.scene.times.suffix(3)) == (5...7).map { t0 + Int64($0 - 1) * I })
    }

    @Test("vblank stamps that come back at once cannot make the loop spin: at least 3/4 interval per frame")
    func vblankStampsAtOnce() throws {
        let rig = Rig { _ in Self.spinning }
        let clock = rig.clock
        rig.display.timing = { .vblank(nanoseconds: clock.now) }
        try rig.run(3)
        let I = Self.interval
        var start = Self.t0
        for d in rig.sleeper.deadlines {
            #expect(d == start + I - I / 4)
            start = d!
        }
    }

    @Test("static with a scheduled change: one timer at that instant, then no timer at all")
    func staticWithNextChange() throws {
        let dismiss = Self.t0 + 3_000_000_000
        let rig = Rig { t in
            t < dismiss ? PacedFrame(output: "memory", damage: [IntRect(x: 0, y: 0, width: 8, height: 4)], animating: false, nextChange: dismiss)
                : PacedFrame(output: "memory", damage: [IntRect(x: 0, y: 0, width: 8, height: 4)], animating: false, nextChange: nil)
        }
        rig.sleeper.wakeUps = [(at: dismiss + 60_000_000_000, reason: .woken)]
        try rig.run(2)
        #expect(rig.sleeper.deadlines == [dismiss, nil])
        #expect(rig.scene.times == [Self.t0, dismiss])
        #expect(rig.pacer.timersArmed == 1)
        #expect(rig.pacer.framesPresented == 2)
    }

    @Test("static with nothing scheduled: every wait blocks without a deadline; a wake-up renders once")
    func staticWithoutTimer() throws {
        var first = true
        let rig = Rig { _ in
            defer { first = false }
            return PacedFrame(output: "memory", damage: first ? [IntRect(x: 0, y: 0, width: 8, height: 4)] : [], animating: false)
        }
        rig.sleeper.wakeUps = [(at: Self.t0 + 2_000_000_000, reason: .woken), (at: Self.t0 + 9_000_000_000, reason: .readable(42))]
        var readable: [Int32] = []
        rig.pacer.onReadable = { readable.append($0) }
        try rig.run(2)
        #expect(rig.sleeper.deadlines == [nil, nil])
        #expect(rig.pacer.timersArmed == 0)
        #expect(rig.pacer.waits == 2)
        // Woken: the scene was asked (nothing changed, so nothing presented).
        #expect(rig.scene.times == [Self.t0, Self.t0 + 2_000_000_000])
        #expect(rig.pacer.framesPresented == 1)
        #expect(readable == [42])
        #expect(rig.pacer.pendingDeadline == nil)
    }

    @Test("a wake-up during an animation keeps the pending boundary instead of adding a frame")
    func wakeDuringAnimation() throws {
        let rig = Rig { _ in Self.spinning }
        rig.sleeper.wakeUps = [(at: Self.t0 + 10_000_000, reason: .woken)]
        try rig.run(3)
        let I = Self.interval, t0 = Self.t0
        #expect(rig.sleeper.deadlines == [t0 + I, t0 + I, t0 + 2 * I])
        #expect(rig.scene.times == [t0, t0 + I])
        #expect(rig.pacer.framesPresented == 2)
    }

    @Test("an animation that stops and restarts starts a new grid at its first frame")
    func animationRestart() throws {
        let I = Self.interval, t0 = Self.t0
        let stopAt = t0 + 2 * I, restart = t0 + 1_000_000_000 + 1_234_567
        let rig = Rig { t in
            t < stopAt || t >= restart ? Self.spinning
                : PacedFrame(output: "memory", damage: [IntRect(x: 0, y: 0, width: 1, height: 1)], animating: false)
        }
        rig.sleeper.wakeUps = [(at: restart, reason: .woken)]
        try rig.run(5)
        #expect(rig.sleeper.deadlines == [t0 + I, t0 + 2 * I, nil, restart + I, restart + 2 * I])
        #expect(rig.pacer.timersArmed == 4)
    }

    @Test("a display without refresh (.immediate) is still paced on the grid, not presented in a spin")
    func immediateDisplay() throws {
        let clock = FakeClock(Self.t0)
        let sleeper = FakeSleeper(clock)
        let scene = FakeScene(clock) { _ in Self.spinning }
        let memory = MemoryDisplay(width: 8, height: 4, refreshMillihertz: nil)
        let pacer = FramePacer(display: memory, scene: scene, sleeper: sleeper, clock: { clock.now }, log: { _ in })
        for _ in 0..<3 { try pacer.runOnce() }
        #expect(pacer.lastTiming == .immediate)
        #expect(sleeper.deadlines == (1...3).map { Optional(Self.t0 + Int64($0) * Self.interval) })
        #expect(memory.presentCount == 3)
        #expect(memory.shown().view[0, 0] == scene.pixmap.view[0, 0])
    }
}
