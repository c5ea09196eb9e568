// SPDX-License-Identifier: MIT
// Page flips as loop events: a due frame waits while a flip is in flight and is drawn in the turn
// its event arrives; an event that never comes holds the frame for at most the flip wait, then the
// frame is drawn anyway, without the loop spinning in between, and the display gives that flip up
// (present never waits for it a second time). Paced by timer, flip events do not
// wake the loop: a flip is collected when the next frame is due, and only one still in flight
// then has the card watched.
import Display
import Raster
import Runtime
import Testing

/// A loop and a frame scheduler drawing `scene` on the display `makeDisplay` gives, all on one
/// fake clock and a virtual poller (the card's event descriptor is 77), for the suites below.
struct FlipRig<D: Display, S: PacedScene> {
    let clock = FakeClock(FrameSchedulerFlipTests.t0)
    let poller: VirtualPoller
    let loop: EventLoop
    let display: D
    let scene: S
    let frames: FrameScheduler
    final class Log: @unchecked Sendable { var lines: [String] = [] }
    let log = Log()

    init(scene: S, display makeDisplay: (FakeClock) -> D) throws {
        poller = VirtualPoller(clock)
        let clock = self.clock, log = self.log
        loop = EventLoop(poller: poller, clock: { clock.now })
        display = makeDisplay(clock)
        self.scene = scene
        frames = FrameScheduler(display: display, scene: scene, clock: { clock.now }, log: { log.lines.append($0) })
        try frames.attach(to: loop)
    }
}

@Suite struct FrameSchedulerFlipTests {
    static let t0: Int64 = 2_000_000_000
    static let interval: Int64 = 16_666_667

    /// A memory display whose presents leave a flip in flight until `complete` (the card's event).
    final class FlippingDisplay: Display {
        let memory = MemoryDisplay(width: 8, height: 4)
        var pending = false
        /// Whether the pending flip's event has come (handleEvents completes the flip).
        var eventReady = true
        var presents: [Int64] = []
        /// Presents made while a flip was in flight (a real card's present would block on it).
        var blocked = 0
        var handled = 0
        let clock: FakeClock
        init(_ clock: FakeClock) { self.clock = clock }
        var outputs: [DisplayOutput] { memory.outputs }
        var frameIntervalNanoseconds: Int64 { memory.frameIntervalNanoseconds }
        func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming {
            if pending { blocked += 1 }
            _ = try memory.present(frame, damage: damage)
            presents.append(clock.now)
            pending = true
            return .timer
        }
        var eventDescriptors: [Int32] { [77] }
        func handleEvents(on descriptor: Int32) throws(DisplayError) {
            handled += 1
            if eventReady { pending = false }
        }
        func isFlipPending(output index: Int) -> Bool { pending }
        /// Flips given up (a real card's next present then sets the mode again instead of waiting).
        var abandoned = 0
        func abandonFlip(output index: Int) {
            if pending { abandoned += 1 }
            pending = false
        }
        func close(_ how: CloseBehaviour) {}
    }

    final class Spinner: PacedScene {
        let pixmap = Pixmap(width: 8, height: 4)
        /// The instants frames were drawn for.
        var times: [Int64] = []
        func frame(at nanoseconds: Int64) -> PacedFrame {
            times.append(nanoseconds)
            return PacedFrame(output: "memory", damage: [pixmap.view.bounds], animating: true)
        }
        func pixels(output index: Int) -> ComposedFrame { ComposedFrame(pixmap.view) }
    }

    typealias Rig = FlipRig<FlippingDisplay, Spinner>

    @Test func aDueFrameWaitsForTheFlipEventAndIsDrawnWhenItArrives() throws {
        let rig = try Rig(scene: Spinner(), display: FlippingDisplay.init)
        #expect(rig.poller.interests[77] == .read, "the card's descriptor is watched on the loop")
        let I = Self.interval, t0 = Self.t0
        try rig.loop.runOnce()  // the first frame, at once
        #expect(rig.display.presents == [t0])
        #expect(rig.poller.interests[77] == nil, "paced by timer, the flip's event need not wake the loop")
        // The boundary comes, the flip is still in flight: no present (it would block), and the
        // card is watched for its event.
        let display = rig.display
        display.eventReady = false
        try rig.loop.runOnce()
        #expect(rig.display.presents == [t0])
        #expect(rig.poller.deadlines.last == t0 + I)
        #expect(rig.poller.interests[77] == .read)
        // The flip event 3 ms later: handled, and the waiting frame drawn in that turn.
        rig.poller.events = [.init(at: t0 + I + 3_000_000, ready: [LoopReadiness(descriptor: 77, readable: true)],
                                   action: { display.eventReady = true })]
        try rig.loop.runOnce()
        #expect(rig.display.handled == 2)  // looked for at the boundary, then its event
        #expect(rig.display.presents == [t0, t0 + I + 3_000_000])
        #expect(rig.display.blocked == 0)
        // Drawn for the boundary it was due at, not for the event's instant.
        #expect(rig.scene.times == [t0, t0 + I])
    }

    @Test func flipsThatCompleteAtOnceAreCollectedAtTheNextFrame() throws {
        let rig = try Rig(scene: Spinner(), display: FlippingDisplay.init)
        let I = Self.interval, t0 = Self.t0
        for _ in 0..<6 { try rig.loop.runOnce() }
        // One wait a frame, at its boundary: no wake-up for the flips' events.
        #expect(rig.poller.deadlines == (0..<6).map { Optional(t0 + Int64($0) * I) })
        #expect(rig.display.presents == (0..<6).map { t0 + Int64($0) * I })
        #expect(rig.display.handled == 5)
        #expect(rig.display.blocked == 0)
        #expect(rig.poller.interests[77] == nil)
    }

    @Test func aFlipEventThatNeverComesHoldsTheFrameOnlyForTheFlipWait() throws {
        let rig = try Rig(scene: Spinner(), display: FlippingDisplay.init)
        let I = Self.interval, t0 = Self.t0
        try rig.loop.runOnce()
        rig.display.eventReady = false
        try rig.loop.runOnce()  // due at t0 + I, the flip never completes
        // One wait until the flip wait is over (no spinning), then the frame anyway, logged; the
        // flip that never came is given up first, so present does not wait for it again.
        try rig.loop.runOnce()
        #expect(rig.poller.deadlines.suffix(2) == [t0 + I, t0 + I + rig.frames.flipWaitNanoseconds])
        #expect(rig.display.presents == [t0, t0 + I + rig.frames.flipWaitNanoseconds])
        #expect(rig.display.blocked == 0 && rig.display.abandoned == 1 && rig.frames.flipsAbandoned == 1)
        #expect(rig.log.lines.contains { $0.contains("no page-flip event for 1000 ms") }, "\(rig.log.lines)")
    }
}

/// A card with a real vblank (vkms, a board's KMS driver): each present queues a flip that completes
/// at the next vblank, whose event carries its stamp, and present reports the last stamp. At every
/// refresh the next frame waits for the flip just queued: the loop wakes once a frame, at the flip's
/// event, and draws the frame in that turn, for the boundary the stamps give; no timer turn finds
/// the flip still in flight. A flip whose event never comes is given up after the flip wait.
@Suite struct FrameSchedulerVBlankFlipTests {
    final class VBlankDisplay: Display {
        let memory = MemoryDisplay(width: 8, height: 4)
        var pending = false
        var stamp: Int64
        var presents: [Int64] = []
        var blocked = 0
        var abandoned = 0
        let clock: FakeClock
        init(_ clock: FakeClock) { self.clock = clock; stamp = clock.now }
        var outputs: [DisplayOutput] { memory.outputs }
        var frameIntervalNanoseconds: Int64 { memory.frameIntervalNanoseconds }
        func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming {
            if pending { blocked += 1 }
            _ = try memory.present(frame, damage: damage)
            presents.append(clock.now)
            pending = true
            return .vblank(nanoseconds: stamp)
        }
        var eventDescriptors: [Int32] { [77] }
        func handleEvents(on descriptor: Int32) throws(DisplayError) {
            if pending { pending = false; stamp = clock.now }
        }
        func isFlipPending(output index: Int) -> Bool { pending }
        func abandonFlip(output index: Int) {
            if pending { abandoned += 1 }
            pending = false
        }
        func close(_ how: CloseBehaviour) {}
    }

    @Test func eachFrameIsDrawnInTheTurnOfTheLastFlipsEventOneWakeUpAFrame() throws {
        let rig = try FlipRig(scene: FrameSchedulerFlipTests.Spinner(), display: VBlankDisplay.init)
        let (poller, loop, display, scene, frames) = (rig.poller, rig.loop, rig.display, rig.scene, rig.frames)
        let I = FrameSchedulerFlipTests.interval, t0 = FrameSchedulerFlipTests.t0
        try loop.runOnce()  // the first frame, at once; its flip completes at the next vblank
        #expect(display.presents == [t0])
        #expect(poller.interests[77] == .read, "the flips' events pace the frames")
        // Vblanks 1 ms after each frame's refresh (the event's wake-up), ten frames.
        let vblanks = (1...10).map { t0 + Int64($0) * I + 1_000_000 }
        poller.events = vblanks.map { .init(at: $0, ready: [LoopReadiness(descriptor: 77, readable: true)]) }
        for _ in 0..<10 { try loop.runOnce() }
        #expect(loop.turns == 11, "one turn a frame")
        #expect(display.presents == [t0] + vblanks)
        #expect(display.blocked == 0)
        // Every wait was for the event, its end (a lost flip) one deadline a second or so ahead:
        // the same deadline turn after turn, so the timer is not re-armed every frame.
        let waits = poller.deadlines.dropFirst().compactMap { $0 }
        #expect(waits.count == 10 && waits.allSatisfy { $0 >= t0 + frames.flipWaitNanoseconds && $0 <= vblanks[9] + frames.flipWaitNanoseconds * 5 / 4 })
        #expect(Set(waits).count <= 2)
        // Each frame drawn for the boundary the stamps give: a refresh apart once they come.
        let gaps = zip(scene.times.dropFirst(3), scene.times.dropFirst(2)).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 == I }, "\(gaps)")
        // The next flip never completes: the frame waits for the flip wait, no spinning, then is
        // drawn anyway and the flip given up.
        let last = poller.deadlines.last!!
        try loop.runOnce()
        #expect(display.presents.count == 12 && display.presents.last == last)
        #expect(display.abandoned == 1 && frames.flipsAbandoned == 1)
    }
}

/// A call the display finished off the loop (a legacy modeset on its worker) can fail after
/// present returned: the static frame it belonged to is presented whole again after the retry
/// interval, with nothing changed in the scene, and the failure is logged once.
@Suite struct FrameSchedulerOffLoopFailureTests {
    final class Still: PacedScene {
        let pixmap = Pixmap(width: 8, height: 4)
        var frames = 0
        func frame(at nanoseconds: Int64) -> PacedFrame {
            frames += 1
            return PacedFrame(output: "memory", damage: frames == 1 ? [pixmap.view.bounds] : [], animating: false)
        }
        func pixels(output index: Int) -> ComposedFrame { ComposedFrame(pixmap.view) }
    }

    /// Each present leaves its "modeset" in flight; its end is an event on 77, failing while `fails`.
    final class OffLoopDisplay: Display {
        let memory = MemoryDisplay(width: 8, height: 4)
        var pending = false
        var fails = true
        var presents: [(at: Int64, damage: [IntRect])] = []
        let clock: FakeClock
        init(_ clock: FakeClock) { self.clock = clock }
        var outputs: [DisplayOutput] { memory.outputs }
        var frameIntervalNanoseconds: Int64 { memory.frameIntervalNanoseconds }
        func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming {
            _ = try memory.present(frame, damage: damage)
            presents.append((clock.now, damage))
            pending = true
            return .timer
        }
        var eventDescriptors: [Int32] { [77] }
        func handleEvents(on descriptor: Int32) throws(DisplayError) {
            guard pending else { return }
            pending = false
            if fails { throw .ioctl("drmModeSetCrtc", .invalidArgument, "/dev/dri/card0") }
        }
        func isFlipPending(output index: Int) -> Bool { pending }
        func close(_ how: CloseBehaviour) {}
    }

    @Test func aFailureHeardAfterPresentBringsTheWholeFrameBackSoon() throws {
        let rig = try FlipRig(scene: Still(), display: OffLoopDisplay.init)
        let (poller, loop, display, frames, log) = (rig.poller, rig.loop, rig.display, rig.frames, rig.log)
        let t0 = FrameSchedulerFlipTests.t0, retry = FrameScheduler.masterRetryNanoseconds
        try loop.runOnce()  // the static frame, presented with its call still in flight
        #expect(display.presents.map(\.at) == [t0])
        #expect(poller.interests[77] == .read, "a static frame's call in flight is heard when it ends")
        // It ends 5 ms later, failed: logged, and the same frame presented whole after the retry.
        poller.events = [.init(at: t0 + 5_000_000, ready: [LoopReadiness(descriptor: 77, readable: true)], action: {})]
        try loop.runOnce()
        #expect(log.lines.filter { $0.contains("drmModeSetCrtc") }.count == 1, "\(log.lines)")
        #expect(frames.pendingDeadline == t0 + 5_000_000 + retry)
        try loop.runOnce()
        #expect(display.presents.map(\.at) == [t0, t0 + 5_000_000 + retry])
        #expect(display.presents.last?.damage == [IntRect(x: 0, y: 0, width: 8, height: 4)])
        // Failing again: tried again, not logged again; once it works, the HUD settles.
        poller.events = [.init(at: t0 + 10_000_000 + retry, ready: [LoopReadiness(descriptor: 77, readable: true)], action: {})]
        try loop.runOnce()
        try loop.runOnce()
        #expect(display.presents.count == 3)
        #expect(log.lines.filter { $0.contains("drmModeSetCrtc") }.count == 1, "\(log.lines)")
        display.fails = false
        poller.events = [.init(at: t0 + 15_000_000 + 2 * retry, ready: [LoopReadiness(descriptor: 77, readable: true)], action: {})]
        try loop.runOnce()
        #expect(frames.pendingDeadline == nil, "settled once the call worked")
        #expect(display.presents.count == 3)
    }
}
