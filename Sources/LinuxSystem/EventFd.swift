// SPDX-License-Identifier: MIT
// eventfd(2), non-blocking and close-on-exec: another thread (or a signal handler: a write(2) is
// async-signal-safe) makes it readable to wake a wait.
import SystemPackage

public final class EventFd: Sendable {
    public let descriptor: FileDescriptor

    public init() throws(SystemError) {
        descriptor = FileDescriptor(rawValue: try retrying { system_eventfd() }.get("eventfd", "eventfd"))
    }

    deinit { Files.close(descriptor) }

    /// Adds 1 to the counter; safe from any thread. A full counter (EAGAIN) is ignored: the
    /// descriptor is readable anyway.
    public func signal() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { system_write(descriptor.rawValue, $0.baseAddress, 8) }
    }

    /// Reads and resets the counter: how many signals since the last drain (0: none).
    @discardableResult
    public func drain() throws(SystemError) -> UInt64 { try Counter.read(descriptor, subject: "eventfd") }
}
