// SPDX-License-Identifier: MIT
// Surviving systemd-shutdown's final kill. At the very end of a shutdown, PID 1 (now
// systemd-shutdown) sends SIGTERM then SIGKILL to every process but the kernel's threads and root's
// processes whose command line begins with '@' (systemd's "root storage daemons", src/shared/
// killall.c): Plymouth keeps its frame on the screen that way. Only the first byte of the command
// line counts, and it is the kernel's copy of argv that it reads (/proc/PID/cmdline), so the byte
// is written in place: prctl(PR_SET_NAME) changes `comm`, which systemd does not look at.

public enum FinalKill {
    public enum Outcome: Equatable {
        case spared
        /// Not root: systemd spares only uid 0's processes.
        case notRoot(uid: UInt32)
        case noCommandLine
    }

    /// Marks this process to be spared; `.spared` when /proc/self/cmdline now begins with '@'.
    public static func spare() -> Outcome {
        let uid = system_geteuid()
        guard uid == 0 else { return .notRoot(uid: uid) }
        guard let first = CommandLine.unsafeArgv[0], first[0] != 0 else { return .noCommandLine }
        first[0] = CChar(bitPattern: UInt8(ascii: "@"))
        return .spared
    }
}
