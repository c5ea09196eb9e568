// SPDX-License-Identifier: MIT
// What the event loop waits on. The real poller is epoll plus a timerfd for the deadline and an
// eventfd for wake-ups (EpollPoller.swift); tests give the loop a poller on virtual time that jumps
// a fake clock to each deadline, so every wait the loop makes can be checked exactly.

/// What a source wants to hear about.
public struct LoopInterest: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Data (or end of file, or a connection) is waiting to be read.
    public static let read = LoopInterest(rawValue: 1)
    /// There is room to write without blocking.
    public static let write = LoopInterest(rawValue: 2)
}

/// What happened on one descriptor during a wait.
public struct LoopReadiness: Equatable, Sendable {
    public var descriptor: Int32
    public var readable: Bool
    public var writable: Bool
    /// The other end hung up (a FIFO's last writer, a socket's peer).
    public var hangup: Bool
    /// An error is pending on the descriptor (the next read or write reports it).
    public var error: Bool

    public init(descriptor: Int32, readable: Bool = false, writable: Bool = false, hangup: Bool = false, error: Bool = false) {
        self.descriptor = descriptor; self.readable = readable; self.writable = writable
        self.hangup = hangup; self.error = error
    }
}

/// Wakes a waiting poller from any thread, or from a signal handler.
public protocol LoopWaker: Sendable {
    func wake()
}

/// The event loop's wait: descriptors with read and write interest, one deadline, and a waker.
public protocol LoopPoller: AnyObject {
    /// Starts watching `descriptor` for `interest` (which may be empty: registered, not watched).
    func add(_ descriptor: Int32, interest: LoopInterest) throws
    /// Changes what `descriptor` is watched for.
    func modify(_ descriptor: Int32, interest: LoopInterest) throws
    /// Stops watching `descriptor` (before it is closed).
    func remove(_ descriptor: Int32)
    /// Blocks until a watched descriptor is ready, `deadline` (CLOCK_MONOTONIC ns) has passed, or
    /// the waker was called; nil waits without a timeout. Replaces the contents of `ready` with
    /// the ready descriptors (none after a deadline or a wake-up; none when a signal interrupted
    /// the wait), keeping its storage: the loop polls with the same array every turn.
    func poll(until deadline: Int64?, into ready: inout [LoopReadiness]) throws
    /// Wakes `poll` from another thread; a wake-up before the wait ends the next wait at once.
    var waker: any LoopWaker { get }
}

extension LoopPoller {
    /// One poll into a new array.
    public func poll(until deadline: Int64?) throws -> [LoopReadiness] {
        var ready: [LoopReadiness] = []
        try poll(until: deadline, into: &ready)
        return ready
    }
}
