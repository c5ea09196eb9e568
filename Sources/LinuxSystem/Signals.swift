// SPDX-License-Identifier: MIT
// Signals as bytes on a pipe (the self-pipe trick): the handler writes the signal number, and the
// event loop reads it like any other descriptor. One per process. Handlers use SA_RESTART so other
// blocking calls carry on.
import SystemPackage

public enum Signal {
    public static let terminate = system_SIGTERM, interrupt = system_SIGINT, hangup = system_SIGHUP
    public static let user1 = system_SIGUSR1, user2 = system_SIGUSR2
}

public enum SignalPipe {
    /// Makes the process's self-pipe (non-blocking, close-on-exec) and returns its read end.
    public static func open() throws(SystemError) -> FileDescriptor {
        precondition(system_signalPipeWrite < 0, "the signal pipe exists already")
        var fds: [CInt] = [-1, -1]
        _ = try retrying { system_pipe(&fds) }.get("pipe", "signal pipe")
        system_signalPipeWrite = fds[1]
        return FileDescriptor(rawValue: fds[0])
    }

    /// Closes both ends (after the handlers are gone).
    public static func close(_ readEnd: FileDescriptor) {
        Files.close(readEnd)
        if system_signalPipeWrite >= 0 { _ = system_close(system_signalPipeWrite) }
        system_signalPipeWrite = -1
    }

    /// Installs the pipe-writing handler for `signal` (`sigaction(2)`) and unblocks it in the
    /// calling thread (a signal blocked there would stay pending and never reach the pipe).
    public static func `catch`(_ signal: CInt) throws(SystemError) {
        _ = try retrying { system_sigaction(signal, handler: system_signalToPipe, restart: true) }.get("sigaction", "signal \(signal)")
        system_unblock(signal)
    }

    /// Puts the default action back for `signal`.
    public static func reset(_ signal: CInt) {
        _ = system_sigaction(signal, handler: nil, restart: false)
    }

    /// The signal numbers written to the pipe so far, waiting up to `timeoutMilliseconds` (-1: for
    /// ever) for the first; empty on timeout.
    public static func read(_ fd: FileDescriptor, timeoutMilliseconds: Int32) throws(SystemError) -> [CInt] {
        _ = try Poll.wait(fd, for: .read, timeoutMilliseconds: timeoutMilliseconds, subject: "signal pipe")
        var bytes = [UInt8](repeating: 0, count: 64)
        let r = bytes.withUnsafeMutableBytes { b in Result { () throws(SystemError) in try Files.read(fd, into: b, subject: "signal pipe") } }
        return bytes[..<(try r.get() ?? 0)].map { CInt($0) }
    }

    /// Dies of `signal` the conventional way (default action, then `raise(3)`), so the parent sees
    /// "killed by SIGTERM"; `_exit(128 + signal)` if the default action does not end the process.
    public static func die(of signal: CInt) -> Never {
        reset(signal)
        system_unblock(signal)
        _ = system_raise(signal)
        system_exit(128 + signal)
    }
}
