// SPDX-License-Identifier: MIT
// The one error of the system layer: which call failed, its errno, and on what (a path, a device,
// "timerfd"), so the message alone says what went wrong. Every call goes through `retrying`, the
// one place EINTR is handled; EBADF and EFAULT are our own bugs (a closed descriptor, a bad
// pointer) and trap there.
import SystemPackage

public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C call ("open", "ioctl FBIOGET_VSCREENINFO").
    public var call: String
    public var errno: Errno
    /// The path, device or object the call was about.
    public var subject: String

    public init(_ call: String, _ errno: Errno, _ subject: String) {
        self.call = call; self.errno = errno; self.subject = subject
    }

    public var description: String { "\(call) \(subject) failed: \(errno) (errno \(errno.rawValue))" }
}

/// Runs `call` (a C call returning -1 and setting errno on failure) until it is not interrupted by
/// a signal; returns its result or its errno (swift-system's `valueOrErrno(retryOnInterrupt:)`).
@inline(__always)
func retrying<T: FixedWidthInteger>(_ call: () -> T) -> Result<T, Errno> {
    while true {
        let result = call()
        if result != -1 { return .success(result) }
        let e = Errno(rawValue: system_errno())
        if e == .interrupted { continue }
        precondition(e != .badFileDescriptor && e != .badAddress, "system call misuse: \(e)")
        return .failure(e)
    }
}

extension Result where Failure == Errno {
    /// The value, or a `SystemError` naming `call` and `subject`.
    @inline(__always)
    func get(_ call: String, _ subject: String) throws(SystemError) -> Success {
        switch self {
        case .success(let v): return v
        case .failure(let e): throw SystemError(call, e, subject)
        }
    }
}

/// errno as the last call left it (for libdrm's calls, which return -1 and set it).
public func currentErrno() -> Errno { Errno(rawValue: system_errno()) }
