// SPDX-License-Identifier: MIT
// epoll(7): the event loop's wait. Each descriptor is registered once with read and/or write
// interest (level-triggered, so whatever is left unread is reported again next wait); a wait
// returns which are ready. The descriptor number is the event's key.
import SystemPackage

public final class Epoll {
    /// One ready descriptor.
    public struct Event: Equatable, Sendable {
        public var descriptor: Int32
        public var readable: Bool
        public var writable: Bool
        /// The peer hung up (EPOLLHUP, EPOLLRDHUP).
        public var hangup: Bool
        public var error: Bool
    }

    public let descriptor: FileDescriptor
    /// What the kernel fills in at each wait; one wait at a time (the loop's thread).
    private let events = system_EpollEvents(capacity: 64)

    /// `epoll_create1(EPOLL_CLOEXEC)`.
    public init() throws(SystemError) {
        descriptor = FileDescriptor(rawValue: try retrying { system_epoll_create() }.get("epoll_create1", "epoll"))
    }

    deinit { Files.close(descriptor) }

    /// Starts watching `fd` (`epoll_ctl(EPOLL_CTL_ADD)`); both interests may be false.
    public func add(_ fd: Int32, read: Bool, write: Bool) throws(SystemError) {
        _ = try retrying { system_epoll_ctl(descriptor.rawValue, system_EPOLL_CTL_ADD, fd, system_epollEvents(read: read, write: write)) }
            .get("epoll_ctl ADD", "descriptor \(fd)")
    }

    /// Changes what `fd` is watched for (`EPOLL_CTL_MOD`).
    public func modify(_ fd: Int32, read: Bool, write: Bool) throws(SystemError) {
        _ = try retrying { system_epoll_ctl(descriptor.rawValue, system_EPOLL_CTL_MOD, fd, system_epollEvents(read: read, write: write)) }
            .get("epoll_ctl MOD", "descriptor \(fd)")
    }

    /// Stops watching `fd` (`EPOLL_CTL_DEL`); one already closed is gone from the set anyway.
    public func remove(_ fd: Int32) {
        _ = system_epoll_ctl(descriptor.rawValue, system_EPOLL_CTL_DEL, fd, 0)
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever, 0: not at all) for at most 64 ready
    /// descriptors. A signal interrupting the wait returns none: the caller looks again.
    public func wait(timeoutMilliseconds: Int32) throws(SystemError) -> [Event] {
        var ready: [Event] = []
        try wait(timeoutMilliseconds: timeoutMilliseconds, into: &ready)
        return ready
    }

    /// The same wait, replacing the contents of `ready` and keeping its storage: a loop that
    /// waits with the same array each time allocates nothing.
    public func wait(timeoutMilliseconds: Int32, into ready: inout [Event]) throws(SystemError) {
        ready.removeAll(keepingCapacity: true)
        for i in 0..<(try poll(timeoutMilliseconds: timeoutMilliseconds)) { ready.append(readyEvent(i)) }
    }

    /// The same wait with no array at all: how many descriptors are ready, each then read with
    /// `readyEvent` until the next wait (the event loop's, once a frame).
    public func poll(timeoutMilliseconds: Int32) throws(SystemError) -> Int {
        let n = events.wait(descriptor.rawValue, timeoutMilliseconds)
        if n < 0 {
            let e = currentErrno()
            if e == .interrupted { return 0 }
            throw SystemError("epoll_wait", e, "epoll")
        }
        return Int(n)
    }

    /// The `index`-th ready descriptor of the last `poll`.
    public func readyEvent(_ index: Int) -> Event {
        let (fd, readable, writable, hangup, error) = events[index]
        return Event(descriptor: fd, readable: readable, writable: writable, hangup: hangup, error: error)
    }
}
