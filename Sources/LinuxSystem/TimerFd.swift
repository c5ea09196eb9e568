// SPDX-License-Identifier: MIT
// timerfd(2) on CLOCK_MONOTONIC, armed at absolute instants (a late wake-up never drifts a frame
// grid), non-blocking and close-on-exec: a descriptor that becomes readable when it expires.
import SystemPackage

public final class TimerFd {
    public let descriptor: FileDescriptor
    /// The armed deadline (ns), nil when disarmed.
    public private(set) var deadline: Int64?
    /// It fired and its expiry count was left unread (`expired`): readable until the next `arm`.
    private var unread = false

    public init() throws(SystemError) {
        descriptor = FileDescriptor(rawValue: try retrying { system_timerfd_create() }.get("timerfd_create", "timerfd"))
    }

    deinit { Files.close(descriptor) }

    /// Arms the timer to expire once at `deadline` (CLOCK_MONOTONIC ns), or disarms it when nil.
    /// A deadline in the past expires at once. Re-arming at the same deadline does nothing.
    /// timerfd_settime resets the expiry count, so an `expired` timer is never read.
    public func arm(at deadline: Int64?) throws(SystemError) {
        guard deadline != self.deadline || unread else { return }
        _ = try retrying { system_timerfd_arm(descriptor.rawValue, deadline) }.get("timerfd_settime", "timerfd")
        self.deadline = deadline
        unread = false
    }

    /// The timer fired (a wait said it is readable) and its count is left unread: the next `arm`,
    /// which every wait makes first, resets it, so a frame loop pays one syscall a frame less.
    public func expired() {
        deadline = nil
        unread = true
    }

    /// Reads and clears the expiry count (0 when it has not expired); an expired timer is disarmed.
    @discardableResult
    public func acknowledge() throws(SystemError) -> UInt64 {
        let n = try Counter.read(descriptor, subject: "timerfd")
        if n > 0 { deadline = nil }
        return n
    }
}

/// The 8-byte counter that timerfds and eventfds are read as.
enum Counter {
    static func read(_ fd: FileDescriptor, subject: String) throws(SystemError) -> UInt64 {
        var value: UInt64 = 0
        let r = withUnsafeMutableBytes(of: &value) { b in Result { () throws(SystemError) in try Files.read(fd, into: b, subject: subject) } }
        return try r.get() == nil ? 0 : value
    }
}
