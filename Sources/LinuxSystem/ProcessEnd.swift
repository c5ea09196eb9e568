// SPDX-License-Identifier: MIT
// Waiting for another process, not a child, to end: the client waits for the daemon it told to
// quit (`splashhud quit --wait`), so an initramfs hands the screen over the moment it is free
// instead of polling for the process. pidfd_open (Linux 5.3) polls readable when the process
// ends; older kernels get /proc/PID/stat read every 10 ms. A process that has ended and not yet
// been reaped (a zombie) has ended: it holds no descriptor, no DRM master, no VT.
import SystemPackage

public enum ProcessEnd {
    /// Waits up to `timeoutMilliseconds` for process `pid` to end; true when it has (or never
    /// existed), false when it still runs.
    public static func wait(_ pid: Int32, timeoutMilliseconds: Int32) throws(SystemError) -> Bool {
        let subject = "process \(pid)"
        let deadline = MonotonicClock.nanoseconds() + Int64(timeoutMilliseconds) * 1_000_000
        let fd = system_pidfdOpen(pid)
        if fd >= 0 {
            let descriptor = FileDescriptor(rawValue: fd)
            defer { Files.close(descriptor) }
            while true {
                let left = Int32(clamping: (deadline - MonotonicClock.nanoseconds() + 999_999) / 1_000_000)
                // A signal ends a wait early (false): look again until the deadline.
                if try Poll.wait(descriptor, for: .read, timeoutMilliseconds: max(left, 0), subject: subject) { return true }
                if left <= 0 { return false }
            }
        }
        let e = currentErrno()
        if e == .noSuchProcess { return true }
        guard e == .noFunction || e == .permissionDenied || e == .notPermitted else {
            throw SystemError("pidfd_open", e, subject)
        }
        // No pidfd (an old kernel, or a seccomp filter that refuses it): look at /proc.
        while true {
            if hasEnded(pid) { return true }
            if MonotonicClock.nanoseconds() >= deadline { return false }
            var none: [(Bool, Bool, Bool)] = []
            _ = system_poll([], 10, &none)
        }
    }

    /// True when /proc/PID is gone or the process is a zombie (state Z or X after "(comm) ").
    static func hasEnded(_ pid: Int32) -> Bool {
        guard let stat = try? Files.readFile("/proc/\(pid)/stat", limit: 4096),
              let close = stat.lastIndex(of: UInt8(ascii: ")")), close + 2 < stat.count else { return true }
        let state = stat[close + 2]
        return state == UInt8(ascii: "Z") || state == UInt8(ascii: "X")
    }
}
