// SPDX-License-Identifier: MIT
// The event loop's real wait: epoll over the watched descriptors, a CLOCK_MONOTONIC timerfd armed
// at the loop's deadline (absolute, to the nanosecond; disarmed when there is none, so nothing in
// the kernel ticks for a static HUD) and an eventfd that any thread, or a signal handler, writes
// to wake it. The timer's and the eventfd's readiness are consumed here; the loop sees only its
// own descriptors.
import LinuxSystem
import SystemPackage

public final class EpollPoller: LoopPoller {
    /// Wakes the poller: an eventfd write, safe from any thread; `descriptor` is there for signal
    /// handlers that write(2) to it themselves.
    public struct Waker: LoopWaker {
        let event: EventFd
        public var descriptor: Int32 { event.descriptor.rawValue }
        public func wake() { event.signal() }
    }

    private let epoll: Epoll
    private let timer: TimerFd
    private let wakeEvent: EventFd

    public init() throws(SystemError) {
        epoll = try Epoll()
        timer = try TimerFd()
        wakeEvent = try EventFd()
        try epoll.add(timer.descriptor.rawValue, read: true, write: false)
        try epoll.add(wakeEvent.descriptor.rawValue, read: true, write: false)
    }

    public var waker: any LoopWaker { Waker(event: wakeEvent) }

    public func add(_ descriptor: Int32, interest: LoopInterest) throws {
        try epoll.add(descriptor, read: interest.contains(.read), write: interest.contains(.write))
    }

    public func modify(_ descriptor: Int32, interest: LoopInterest) throws {
        try epoll.modify(descriptor, read: interest.contains(.read), write: interest.contains(.write))
    }

    public func remove(_ descriptor: Int32) { epoll.remove(descriptor) }

    public func poll(until deadline: Int64?, into ready: inout [LoopReadiness]) throws {
        if !ready.isEmpty { ready.removeAll(keepingCapacity: true) }
        let due = deadline.map { $0 <= MonotonicClock.nanoseconds() } ?? false
        // A deadline already due polls without arming anything; one ahead is the timer's.
        try timer.arm(at: due ? nil : deadline)
        // Read where the kernel left them: no array of its own a turn.
        for i in 0..<(try epoll.poll(timeoutMilliseconds: due ? 0 : -1)) {
            let e = epoll.readyEvent(i)
            switch e.descriptor {
            case timer.descriptor.rawValue: timer.expired()  // the next arm, before any wait, resets it
            case wakeEvent.descriptor.rawValue: try wakeEvent.drain()
            default:
                ready.append(LoopReadiness(descriptor: e.descriptor, readable: e.readable, writable: e.writable, hangup: e.hangup, error: e.error))
            }
        }
    }
}
