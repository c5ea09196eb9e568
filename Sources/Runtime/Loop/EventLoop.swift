// SPDX-License-Identifier: MIT
// The process's one loop, on one thread. It owns every descriptor the runtime watches (the
// display's hotplug and page-flip events, signals, FIFOs, sockets, input devices), each with read
// and/or write interest and one callback; one-shot timers on its clock; and the frame source that
// says when the next frame is due. Other threads reach it only through a `MessageQueue`, whose
// post wakes the poller.
//
// One turn, always in this order:
//   1. wait: until a descriptor is ready, the earliest timer or frame deadline, or a wake-up
//      (no deadline at all while nothing is scheduled: a static HUD costs no CPU);
//   2. the callbacks of the ready descriptors, in the order the poller reported them;
//   3. the timers that are due, earliest first;
//   4. the turn steps (the runtime applies every queued message in order here);
//   5. at most one frame, if the frame source says one is due (a command that arrives during an
//      animation waits for the next refresh boundary: it adds no frame off the grid);
//   6. the turn-end steps (events handed out to whoever listens).
// Nothing in a callback may block: descriptors are non-blocking and long work is not done here.

/// What the loop draws frames for (the frame scheduler): when the next frame is due, and the frame.
public protocol LoopFrameSource: AnyObject {
    /// The instant (CLOCK_MONOTONIC ns) the loop must wake for the next frame; `Int64.min` when
    /// one is due at once (a change to draw); nil when no frame is scheduled (static, or only a
    /// change the loop will hear about).
    var nextFrameDeadline: Int64? { get }
    /// Renders and presents one frame if one is due at `now`; does nothing otherwise.
    func frameIfDue(at now: Int64) throws
}

public final class EventLoop {
    public let poller: any LoopPoller
    /// CLOCK_MONOTONIC in nanoseconds (a fake clock in tests).
    public let clock: () -> Int64
    /// Draws a frame at step 5 of a turn when it says one is due.
    public var frames: (any LoopFrameSource)?

    /// Turns run so far.
    public private(set) var turns = 0
    /// Waits for a deadline: a timer's or a frame boundary's, armed or (when already passed)
    /// polled at once; a frame due at once because something changed is none. 0 for a static HUD
    /// with nothing scheduled: the CPU-cost guarantee.
    public private(set) var timedWaits = 0

    private struct Source {
        var descriptor: Int32
        var interest: LoopInterest
        var handler: (LoopReadiness) -> Void
    }
    /// Searched by descriptor: it holds a handful (display, signals, listener, a few clients and
    /// input devices). A `[Int32: Source]` cost the runtime a generic type lookup on first insert
    /// (159 k instructions, under TCG before the first frame); the array's costs 12 k.
    private var sources: [Source] = []
    /// The poll's storage between turns (see `runOnce`).
    private var ready: [LoopReadiness] = []
    private var timers = LoopTimers()
    /// A step's closure in a struct: in a `[() -> Void]` each closure would be stored behind a
    /// reabstraction thunk, and every turn would call each step through two thunks.
    private struct Step { let run: () -> Void }
    private var turnSteps: [Step] = []
    private var turnEndSteps: [Step] = []

    public init(poller: any LoopPoller, clock: @escaping () -> Int64) {
        self.poller = poller; self.clock = clock
    }

    /// Wakes the loop from any thread (what a `MessageQueue` posting to this loop uses).
    public var waker: any LoopWaker { poller.waker }

    /// A queue whose posts wake this loop; take its messages in a turn step.
    public func makeQueue<Message: Sendable>(of type: Message.Type = Message.self) -> MessageQueue<Message> {
        MessageQueue(waker: poller.waker)
    }

    // MARK: Descriptors

    /// Watches `descriptor` for `interest`, calling `handler` on the loop's thread when it is ready
    /// (hang-ups and errors are reported whatever the interest). One handler per descriptor: a
    /// second `watch` replaces the first.
    public func watch(_ descriptor: Int32, interest: LoopInterest = .read, handler: @escaping (LoopReadiness) -> Void) throws {
        let source = Source(descriptor: descriptor, interest: interest, handler: handler)
        if let i = index(of: descriptor) {
            if sources[i].interest != interest { try poller.modify(descriptor, interest: interest) }
            sources[i] = source
        } else {
            try poller.add(descriptor, interest: interest)
            sources.append(source)
        }
    }

    /// Changes what a watched descriptor is watched for (write interest while output is queued).
    public func setInterest(_ descriptor: Int32, _ interest: LoopInterest) throws {
        guard let i = index(of: descriptor), sources[i].interest != interest else { return }
        try poller.modify(descriptor, interest: interest)
        sources[i].interest = interest
    }

    /// Stops watching `descriptor`; call it before closing the descriptor.
    public func unwatch(_ descriptor: Int32) {
        guard let i = index(of: descriptor) else { return }
        sources.remove(at: i)
        poller.remove(descriptor)
    }

    /// The descriptors watched now.
    public var watchedDescriptors: [Int32] { sources.map(\.descriptor).sorted() }

    private func index(of descriptor: Int32) -> Int? {
        sources.firstIndex { $0.descriptor == descriptor }
    }

    // MARK: Timers and steps

    /// Runs `action` once, in the first turn at or after `deadline` (CLOCK_MONOTONIC ns).
    @discardableResult
    public func schedule(at deadline: Int64, _ action: @escaping () -> Void) -> LoopTimer {
        timers.schedule(at: deadline, action)
    }

    /// Forgets a timer that has not fired; true when it was pending.
    @discardableResult
    public func cancel(_ timer: LoopTimer) -> Bool { timers.cancel(timer) }

    /// Timers pending.
    public var pendingTimers: Int { timers.count }

    /// Runs `step` in every turn after the callbacks and timers, before the frame.
    public func addTurnStep(_ step: @escaping () -> Void) { turnSteps.append(Step(run: step)) }

    /// Runs `step` at the end of every turn, after the frame.
    public func addTurnEndStep(_ step: @escaping () -> Void) { turnEndSteps.append(Step(run: step)) }

    // MARK: Running

    /// The next instant the loop must wake at by itself, nil when it may sleep until woken.
    public func nextDeadline() -> Int64? {
        let timer = timers.nextDeadline()
        guard let frame = frames?.nextFrameDeadline else { return timer }
        return min(timer ?? frame, frame)
    }

    /// One turn (see the header).
    public func runOnce() throws {
        turns += 1
        // A deadline already passed (a frame due now) is a poll that does not block.
        let now = clock()
        let wanted = nextDeadline()
        let deadline = wanted.map { max($0, now) }
        if let wanted, wanted != .min { timedWaits += 1 }
        // The batch is taken out of `ready` while the handlers run (one may run a turn itself)
        // and put back after, so the array's storage serves every turn.
        var batch: [LoopReadiness] = []
        swap(&batch, &ready)
        try poller.poll(until: deadline, into: &batch)
        for readiness in batch {
            // A callback earlier in this batch may have unwatched it (or watched it anew).
            guard let i = index(of: readiness.descriptor) else { continue }
            let handler = sources[i].handler
            handler(readiness)
        }
        swap(&batch, &ready)
        while let action = timers.popDue(at: clock()) { action() }
        for step in turnSteps { step.run() }
        try frames?.frameIfDue(at: clock())
        for step in turnEndSteps { step.run() }
    }

    /// Runs turns until `stop` (checked after every turn) returns true.
    public func run(until stop: () -> Bool) throws {
        repeat { try runOnce() } while !stop()
    }
}
