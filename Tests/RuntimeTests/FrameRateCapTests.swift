// SPDX-License-Identifier: MIT
// The frame rate cap: animation frames on every k-th refresh boundary (timer grid or vblank
// stamps), evenly spaced and never above the cap, each drawn for its boundary (the spinner keeps
// the clock's speed), the scene told the capped interval, and a static scene still without any deadline.
import Display
import Raster
import Runtime
import Testing

@Suite("Frame rate cap")
struct FrameRateCapTests {
    typealias Rig = FramePacerTests.Rig
    static let I = FramePacerTests.interval, t0 = FramePacerTests.t0

    @Test("refreshes per frame: ceil(refresh rate / cap)", arguments: [
        (Int64(16_666_667), Int32?(15), Int64(4), Int32?(15)), (16_666_667, 25, 3, 20), (16_666_667, 60, 1, nil),
        (16_666_667, 59, 2, 30), (16_666_667, 1000, 1, nil), (16_666_667, nil, 1, nil),
        (13_333_333, 15, 5, 15), (13_333_333, 30, 3, 25), (16_683_350, 30, 2, 30),  // 75 Hz; 59.94 Hz
    ])
    func refreshesPerFrame(interval: Int64, cap: Int32?, k: Int64, rate: Int32?) {
        let rig = Rig { _ in FramePacerTests.spinning }
        rig.pacer.frameIntervalOverride = interval
        rig.pacer.scheduler.maxFramesPerSecond = cap
        #expect(rig.pacer.scheduler.refreshesPerFrame == k)
        #expect(rig.pacer.scheduler.animationIntervalNanoseconds == k * interval)
        #expect(rig.pacer.scheduler.cappedFramesPerSecond == rate)
    }

    @Test("15 fps on a 60 Hz timer display: every 4th boundary of the grid, each drawn for its boundary")
    func timerGridEveryFourthRefresh() throws {
        let rig = Rig { _ in FramePacerTests.spinning }
        rig.pacer.scheduler.maxFramesPerSecond = 15
        try rig.run(16)
        let I = Self.I, t0 = Self.t0
        #expect(rig.sleeper.deadlines == (1...16).map { Optional(t0 + Int64($0) * 4 * I) })
        #expect(rig.scene.times == (0..<16).map { t0 + Int64($0) * 4 * I })
        #expect(rig.pacer.framesPresented == 16)
        #expect(rig.pacer.missedFrames == 0)
        #expect(rig.scene.intervals == [4 * I])
        // Lifting the cap goes back to every refresh, and the scene hears so.
        rig.pacer.scheduler.maxFramesPerSecond = nil
        try rig.run(3)
        let last = t0 + 16 * 4 * I
        #expect(Array(rig.sleeper.deadlines.suffix(3)) == [last + I, last + 2 * I, last + 3 * I])
        #expect(rig.scene.intervals == [4 * I, I])
    }

    @Test("15 fps with vblank stamps at 75 Hz: every 5th vblank, none counted missed")
    func vblankEveryFifthRefresh() throws {
        let rig = Rig { _ in FramePacerTests.spinning }
        let I: Int64 = 13_333_333, t0 = Self.t0, clock = rig.clock
        rig.pacer.frameIntervalOverride = I
        rig.pacer.scheduler.maxFramesPerSecond = 15
        var shown: [Int64] = []
        // A present that blocks until its flip, at the next vblank of a 75 Hz grid.
        rig.display.timing = {
            let stamp = t0 + ((clock.now - t0) / I + 1) * I
            clock.now = stamp
            shown.append(stamp)
            return .vblank(nanoseconds: stamp)
        }
        try rig.run(20)  // each frame is rendered ahead in one turn and presented in the next
        let gaps = zip(shown.dropFirst(), shown).map { ($0 - $1) / I }
        #expect(gaps.count >= 9 && gaps.allSatisfy { $0 == 5 }, "\(gaps)")
        #expect(rig.pacer.missedFrames == 0)
    }

    @Test("15 fps with queued flips (DRM) at 60 Hz: a flip every 4th vblank, steady")
    func queuedFlipsEveryFourthRefresh() throws {
        let rig = Rig { _ in FramePacerTests.spinning }
        let I = Self.I, t0 = Self.t0
        rig.pacer.scheduler.maxFramesPerSecond = 15
        let log = rig.presentQueuingFlips()
        try rig.run(20)
        let flips = log.flips
        let gaps = zip(flips.dropFirst(), flips).map { ($0 - $1) / I }
        #expect(gaps.allSatisfy { $0 == 4 }, "\(gaps) \(flips.map { ($0 - t0) / I }) \(rig.scene.times.map { ($0 - t0) * 4 / I })")
        #expect(rig.pacer.missedFrames == 0)
    }

    @Test("15 fps with queued flips at 60 Hz, the loop waking 1.2 refreshes late every time: still a flip every 4th vblank")
    func queuedFlipsKeepTheGridWhenTheLoopIsLate() throws {
        let rig = Rig { _ in FramePacerTests.spinning }
        let I = Self.I
        rig.pacer.scheduler.maxFramesPerSecond = 15
        let log = rig.presentQueuingFlips()
        rig.sleeper.late = I + I / 5
        try rig.run(20)
        // Paced from the boundary each frame was due at, not from when it began: a late wake-up
        // does not push the frames after it a vblank later (5 refreshes apart, 12 fps).
        let gaps = zip(log.flips.dropFirst(), log.flips).map { ($0 - $1) / I }.dropFirst(2)
        #expect(!gaps.isEmpty && gaps.allSatisfy { $0 == 4 }, "\(gaps)")
    }

    @Test("15 fps with queued flips at 60 Hz and a render that takes 1.5 refreshes: rendered ahead, held, still a flip every 4th vblank")
    func slowRendersAreDrawnAhead() throws {
        let rig = Rig { _ in FramePacerTests.spinning }
        let I = Self.I
        rig.pacer.scheduler.maxFramesPerSecond = 15
        rig.scene.cost = { _ in I * 3 / 2 }
        let log = rig.presentQueuingFlips()
        try rig.run(40)
        // Drawn at its boundary, such a frame would miss the vblank after it: 5 refreshes, then 3.
        let gaps = zip(log.flips.dropFirst(), log.flips).map { ($0 - $1) / I }.dropFirst(2)
        #expect(gaps.count >= 15 && gaps.allSatisfy { $0 == 4 }, "\(gaps)")
        #expect(rig.pacer.scheduler.framesRenderedAhead >= 15)
        // Each drawn for its boundary, the vblank before the one it shows at: 4 refreshes apart.
        let steps = zip(rig.scene.times.dropFirst(), rig.scene.times).map { $0 - $1 }.dropFirst(2)
        #expect(steps.allSatisfy { $0 == 4 * I }, "\(steps)")
        #expect(zip(log.flips.dropFirst(), rig.scene.times.dropFirst()).allSatisfy { flip, t in flip == t + I },
                "flips \(log.flips.map { ($0 - Self.t0) / I }), frames drawn for \(rig.scene.times.map { ($0 - Self.t0) / I })")
        #expect(rig.pacer.missedFrames == 0)
    }

    @Test("a change that comes while a capped frame is held is drawn into it before it is presented")
    func aChangeDuringTheHoldIsDrawnIn() throws {
        let rig = Rig { _ in FramePacerTests.spinning }
        let I = Self.I, clock = rig.clock, sleeper = rig.sleeper
        rig.pacer.scheduler.maxFramesPerSecond = 15
        let log = rig.presentQueuingFlips()
        try rig.run(12)
        try #require(rig.pacer.scheduler.framesRenderedAhead > 0)
        // The next frame rendered ahead (for an instant still to come) gets a command half a
        // refresh after it, while it is held.
        var heldFor: Int64?, presents = 0
        let memory = rig.display.memory
        rig.scene.behaviour = { t in
            if heldFor == nil && t > clock.now {
                heldFor = t
                presents = memory.presentCount
                sleeper.wakeUps = [(clock.now + I / 2, .woken)]
            }
            return FramePacerTests.spinning
        }
        var turns = 0
        while heldFor == nil && turns < 4 { try rig.run(1); turns += 1 }
        let boundary = try #require(heldFor)
        #expect(rig.display.memory.presentCount == presents, "held, not presented")
        try rig.run(3)
        // Drawn again for the same boundary (both damages presented), then presented at its time:
        // its flip at the vblank after that boundary, 4 refreshes after the one before.
        let again = rig.scene.times.filter { $0 == boundary }.count
        #expect(again == 2, "\(rig.scene.times.map { ($0 - Self.t0) / I })")
        #expect(log.flips.contains(boundary + I))
        #expect(rig.display.memory.shown().view[7, 3] != PremultipliedColor(argb: 0))
        let gaps = zip(log.flips.dropFirst(), log.flips).map { ($0 - $1) / I }.dropFirst(2)
        #expect(gaps.allSatisfy { $0 == 4 }, "\(gaps)")
    }

    @Test("a static scene under a cap still waits without any deadline")
    func staticCostsNothing() throws {
        let rig = Rig { _ in PacedFrame(output: "memory", damage: [IntRect(x: 0, y: 0, width: 1, height: 1)], animating: false) }
        rig.pacer.scheduler.maxFramesPerSecond = 15
        rig.sleeper.wakeUps = [(at: Self.t0 + 2_000_000_000, reason: .woken)]
        try rig.run(1)
        #expect(rig.sleeper.deadlines == [nil])
        #expect(rig.pacer.timersArmed == 0)
    }
}
