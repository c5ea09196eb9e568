// SPDX-License-Identifier: MIT
// The loop's turn on virtual time: deadlines from timers and the frame source, descriptor
// callbacks with their interest, steps in order, and at most one frame per turn.
import Runtime
import Testing

@Suite struct EventLoopTests {
    static let t0: Int64 = 1_000_000_000

    final class Frames: LoopFrameSource {
        var nextFrameDeadline: Int64?
        var due: (Int64) -> Bool = { _ in false }
        var drawn: [Int64] = []
        func frameIfDue(at now: Int64) throws { if due(now) { drawn.append(now) } }
    }

    struct Rig {
        let clock = FakeClock(EventLoopTests.t0)
        let poller: VirtualPoller
        let loop: EventLoop
        init() {
            poller = VirtualPoller(clock)
            let clock = self.clock
            loop = EventLoop(poller: poller, clock: { clock.now })
        }
    }

    @Test func timersFireInDeadlineOrderAndTheWaitEndsAtTheEarliest() throws {
        let rig = Rig()
        var fired: [String] = []
        rig.loop.schedule(at: Self.t0 + 300) { fired.append("c") }
        rig.loop.schedule(at: Self.t0 + 100) { fired.append("a") }
        rig.loop.schedule(at: Self.t0 + 100) { fired.append("b") }
        try rig.loop.runOnce()
        #expect(fired == ["a", "b"])
        try rig.loop.runOnce()
        #expect(fired == ["a", "b", "c"])
        #expect(rig.poller.deadlines == [Self.t0 + 100, Self.t0 + 300])
        #expect(rig.loop.pendingTimers == 0)
        #expect(rig.loop.timedWaits == 2)
    }

    @Test func aCancelledTimerNeitherFiresNorWakesTheLoop() throws {
        let rig = Rig()
        var fired = 0
        let timer = rig.loop.schedule(at: Self.t0 + 100) { fired += 1 }
        #expect(rig.loop.cancel(timer))
        #expect(!rig.loop.cancel(timer))
        rig.poller.events = [.init(at: Self.t0 + 5_000)]
        try rig.loop.runOnce()
        #expect(rig.poller.deadlines == [nil])
        #expect(fired == 0)
        #expect(rig.loop.timedWaits == 0)
    }

    @Test func aSpentTimerCannotCancelTheOneMadeAfterIt() throws {
        let rig = Rig()
        var fired: [String] = []
        let old = rig.loop.schedule(at: Self.t0 + 100) { fired.append("old") }
        #expect(rig.loop.cancel(old))
        rig.loop.schedule(at: Self.t0 + 200) { fired.append("new") }
        #expect(!rig.loop.cancel(old))
        #expect(rig.loop.pendingTimers == 1)
        try rig.loop.runOnce()
        #expect(fired == ["new"])
        #expect(rig.poller.deadlines == [Self.t0 + 200])
    }

    @Test func thousandsOfTimersCostLogarithmicBookkeepingAndStayCancelled() throws {
        let rig = Rig()
        var timers: [LoopTimer] = []
        for i in 0..<10_000 { timers.append(rig.loop.schedule(at: Self.t0 + Int64(10_000 - i)) {}) }
        for t in timers.dropLast() { rig.loop.cancel(t) }
        #expect(rig.loop.pendingTimers == 1)
        #expect(rig.loop.nextDeadline() == Self.t0 + 1)
    }

    @Test func theFrameSourceSetsTheDeadlineAndDrawsAtMostOnceAfterTheSteps() throws {
        let rig = Rig()
        let frames = Frames()
        var order: [String] = []
        rig.loop.frames = frames
        frames.nextFrameDeadline = Self.t0 + 16
        frames.due = { now in order.append("frame"); return now >= Self.t0 + 16 }
        rig.loop.addTurnStep { order.append("step") }
        rig.loop.addTurnEndStep { order.append("end") }
        try rig.loop.runOnce()
        #expect(rig.poller.deadlines == [Self.t0 + 16])
        #expect(frames.drawn == [Self.t0 + 16])
        #expect(order == ["step", "frame", "end"])
    }

    @Test func readyDescriptorsReachTheirHandlersWithTheirInterest() throws {
        let rig = Rig()
        var seen: [LoopReadiness] = []
        try rig.loop.watch(7, interest: .read) { seen.append($0) }
        try rig.loop.watch(9, interest: [.read, .write]) { r in
            seen.append(r)
            rig.loop.unwatch(7)  // later in the same batch: no longer called
        }
        #expect(rig.poller.interests == [7: .read, 9: [.read, .write]])
        rig.poller.events = [.init(at: Self.t0 + 1, ready: [LoopReadiness(descriptor: 9, writable: true), LoopReadiness(descriptor: 7, readable: true)])]
        try rig.loop.runOnce()
        #expect(seen == [LoopReadiness(descriptor: 9, writable: true)])
        try rig.loop.setInterest(9, .read)
        #expect(rig.poller.interests == [9: .read])
        #expect(rig.loop.watchedDescriptors == [9])
        rig.loop.unwatch(9)  // its handler holds the rig: a cycle until it is gone
    }

    @Test func postedMessagesAreTakenInOrderInOneTurn() throws {
        let rig = Rig()
        let queue = rig.loop.makeQueue(of: Int.self)
        var applied: [[Int]] = []
        rig.loop.addTurnStep { let m = queue.takeAll(); if !m.isEmpty { applied.append(m) } }
        rig.poller.events = [.init(at: Self.t0 + 10, action: { for i in 1...5 { queue.post(i) } })]
        try rig.loop.runOnce()
        #expect(applied == [[1, 2, 3, 4, 5]])
        #expect(rig.poller.wakeCounter.wakes == 5)
        #expect(queue.isEmpty)
    }
}
