// SPDX-License-Identifier: MIT
// poll(2) on one descriptor, for the few waits that are not the event loop's (a DRM flip event a
// present must have, a full FIFO a sender waits on).
import SystemPackage

public enum Poll {
    public enum Interest: Sendable { case read, write }

    /// Waits up to `timeoutMilliseconds` (-1: for ever) for `fd` to become readable or writable;
    /// true when it is (or hung up / in error, which the next read or write reports), false on
    /// timeout. A signal interrupting the wait counts as a timeout: the caller looks again.
    public static func wait(_ fd: FileDescriptor, for interest: Interest, timeoutMilliseconds: Int32, subject: String) throws(SystemError) -> Bool {
        var ready: [(Bool, Bool, Bool)] = []
        let r = system_poll([(fd.rawValue, interest == .write)], timeoutMilliseconds, &ready)
        if r < 0 {
            let e = currentErrno()
            if e == .interrupted { return false }
            throw SystemError("poll", e, subject)
        }
        guard r > 0, let state = ready.first else { return false }
        return (interest == .read ? state.0 : state.1) || state.2
    }
}
