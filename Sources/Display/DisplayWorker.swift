// SPDX-License-Identifier: MIT
// The display calls that block run here, on one thread per display, so the frame loop never waits
// in them: a legacy drmModeSetCrtc (no non-blocking form; a real panel's link training can take
// hundreds of milliseconds), turning an unplugged output's CRTC off, FBIO_WAITFORVSYNC and a pan
// on DRM's fbdev emulation (an atomic commit that returns at the vblank). The loop hears of each
// call's end on `descriptor`, as it hears of a page flip's on the card, and collects the outcomes
// in the display's `handleEvents`. Calls run one at a time, in the order given; the display does
// not touch what a call uses until its outcome is collected.
import LinuxSystem

final class DisplayWorker<Outcome: Sendable> {
    /// One call's outcome, with the number `run` gave it.
    struct Finished: Sendable {
        let id: UInt64
        let outcome: Outcome
    }

    private struct Job: Sendable {
        let id: UInt64
        let body: @Sendable () -> Outcome
    }

    /// Calls waiting at most: a display has one or two in flight per output; more means the
    /// thread is stuck, and later calls then run on the caller's thread.
    static var capacity: Int { 64 }

    private let jobs: Mailbox<Job>
    private let done: Mailbox<Finished>
    private var started = false
    private var lastID: UInt64 = 0
    /// Calls given and whose outcome is not collected yet.
    private(set) var outstanding: Set<UInt64> = []

    init() throws(DisplayError) {
        jobs = try Syscalls.mapped { () throws(SystemError) in try Mailbox(capacity: Self.capacity) }
        done = try Syscalls.mapped { () throws(SystemError) in try Mailbox(capacity: Self.capacity * 2) }
    }

    /// The thread ends once the calls it has are done.
    deinit { jobs.close() }

    /// Readable when an outcome waits to be collected.
    var descriptor: Int32 { done.wakeup.descriptor.rawValue }

    /// Runs `body` on the worker thread and returns its number; its outcome comes through
    /// `collect`. Where no thread can be started (or it is stuck with `capacity` calls), `body`
    /// runs here, at once: slower, never lost.
    @discardableResult
    func run(_ body: @escaping @Sendable () -> Outcome) -> UInt64 {
        lastID &+= 1
        let id = lastID
        outstanding.insert(id)
        if !started {
            let jobs = self.jobs, done = self.done
            started = Threads.detach { Self.work(jobs, done) }
        }
        if !started || !jobs.post(Job(id: id, body: body)) {
            done.post(Finished(id: id, outcome: body()))
        }
        return id
    }

    /// The outcomes that have come, oldest first, without waiting.
    func collect() -> [Finished] {
        let finished = done.takeAll()
        for f in finished { outstanding.remove(f.id) }
        return finished
    }

    /// Waits until every call given so far is done, at most `timeoutMilliseconds` (for callers
    /// outside a frame loop and for close); returns what came, oldest first.
    func finish(timeoutMilliseconds: Int32) -> [Finished] {
        var finished = collect()
        let deadline = MonotonicClock.nanoseconds() + Int64(timeoutMilliseconds) * 1_000_000
        while !outstanding.isEmpty {
            let left = (deadline - MonotonicClock.nanoseconds()) / 1_000_000
            guard left > 0, let f = done.take(timeoutMilliseconds: Int32(clamping: left)) else {
                // take() drained the wakeup: what else came meanwhile is collected below.
                break
            }
            outstanding.remove(f.id)
            finished.append(f)
        }
        finished += collect()
        return finished
    }

    /// The worker thread: one call at a time, until the mailbox closes.
    private static func work(_ jobs: Mailbox<Job>, _ done: Mailbox<Finished>) {
        while true {
            guard let job = jobs.take(timeoutMilliseconds: -1) else {
                if jobs.isClosed { return }
                continue
            }
            done.post(Finished(id: job.id, outcome: job.body()))
        }
    }
}
