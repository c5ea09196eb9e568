// SPDX-License-Identifier: MIT
// Stepping back for the rest of the system: the calling thread's nice value (setpriority) and its
// autogroup's (/proc/self/autogroup). systemd starts each service in a session of its own, and with
// the kernel's autogroups (Debian's default, where no cgroup CPU controller is on) each session
// shares the CPU with the others as one, whatever its threads' nice values: only the autogroup's
// nice ranks it against them. Raising a nice value needs no privilege.

public enum Priority {
    /// What was lowered: the thread's nice value and the autogroup's (false where there is no
    /// autogroup: a kernel without them, or the initial one, whose weight cannot change).
    public struct Lowered: Equatable {
        public var thread: Bool
        public var autogroup: Bool
    }

    /// Lowers the calling thread and its autogroup to `nice` (0...19).
    public static func lower(to nice: Int32) -> Lowered {
        let thread = system_setpriority(nice) == 0
        var autogroup = false
        if let fd = try? Files.open("/proc/self/autogroup", flags: OpenFlag.writeOnly) {
            autogroup = (try? Files.writeAll(fd, Array("\(nice)\n".utf8), subject: "/proc/self/autogroup")) != nil
            Files.close(fd)
        }
        return Lowered(thread: thread, autogroup: autogroup)
    }

    /// The calling thread's nice value.
    public static var threadNice: Int32 { system_getpriority() }
}
