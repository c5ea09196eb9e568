// SPDX-License-Identifier: MIT
// Running another program and waiting for it, optionally with bytes on its standard input
// through a pipe: `plymouth ask-for-password --command` hands a passphrase to cryptsetup this
// way (never on its command line, where ps would show it).
import SystemPackage

public enum ChildProcess {
    /// How a child ended.
    public enum Termination: Equatable, Sendable {
        case exited(CInt)
        case signaled(CInt)
    }

    /// Runs `arguments` (argv[0] looked up in PATH), writes `input` to its standard input and
    /// closes it (nil: the child shares ours), then waits for it to end. A program that cannot
    /// be run (not found, not executable, ETXTBSY) ends as `.exited(127)`, as a shell reports it.
    /// `delivered` is false when the child went away before taking all of `input` (EPIPE:
    /// SIGPIPE must be ignored).
    public static func run(_ arguments: [String], input: [UInt8]?) throws(SystemError) -> (termination: Termination, delivered: Bool) {
        precondition(!arguments.isEmpty, "no program to run")
        var fds: [CInt] = [-1, -1]
        if input != nil { _ = try retrying { system_pipe_blocking(&fds) }.get("pipe", arguments[0]) }
        let pid = system_spawn(arguments, descriptors: input == nil ? [] : [(fds[0], CInt(0))])
        if input != nil { _ = system_close(fds[0]) }
        guard pid > 0 else {
            if input != nil { _ = system_close(fds[1]) }
            let e = currentErrno()
            // execvp's failure in a forked child is its exit status 127 (the parent's write to the
            // pipe usually lands first); posix_spawnp reports it here instead.
            // Only a failure to make the process at all is an error.
            if e == .resourceTemporarilyUnavailable || e == .noMemory { throw SystemError("posix_spawnp", e, arguments[0]) }
            return (.exited(127), true)
        }
        var delivered = true
        if let input {
            let writer = FileDescriptor(rawValue: fds[1])
            do { try Files.writeAll(writer, input, subject: arguments[0]) } catch { delivered = false }
            Files.close(writer)
        }
        return (try wait(pid, program: arguments[0]), delivered)
    }

    /// Starts `arguments` (argv[0] looked up in PATH) with each of `descriptors` (ours, its
    /// number) as that descriptor of the child, and returns its pid without waiting: `wait` ends
    /// it. Throws when it cannot be run (not found, not executable).
    public static func start(_ arguments: [String], descriptors: [(FileDescriptor, CInt)]) throws(SystemError) -> Int32 {
        precondition(!arguments.isEmpty, "no program to run")
        let pid = system_spawn(arguments, descriptors: descriptors.map { ($0.0.rawValue, $0.1) })
        guard pid > 0 else { throw SystemError("posix_spawnp", currentErrno(), arguments[0]) }
        return pid
    }

    /// Waits for the child `pid` to end.
    public static func wait(_ pid: Int32, program: String) throws(SystemError) -> Termination {
        var status: CInt = 0
        _ = try retrying { system_waitpid(pid, &status) }.get("waitpid", program)
        if let signal = system_termSignal(status) { return .signaled(signal) }
        return .exited(system_exitCode(status) ?? 127)
    }

    /// A pipe for a child to write into: (the end we read, after poll says so; the end it gets),
    /// both close-on-exec here (`start` gives the child its end under its number). Blocking: the
    /// child's end must be, and each end has its own flags.
    public static func outputPipe(subject: String) throws(SystemError) -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [CInt] = [-1, -1]
        _ = try retrying { system_pipe_blocking(&fds) }.get("pipe", subject)
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }
}
