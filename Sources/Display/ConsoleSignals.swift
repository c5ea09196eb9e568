// SPDX-License-Identifier: MIT
// The signals a console program lives by: the VT's release/acquire requests and the ones that end
// it (Signal.terminate, Signal.interrupt, Signal.hangup). Handlers only write the signal number to a self-pipe; everything
// that matters - acknowledging a VT switch, restoring text mode - happens on the main path when it
// reads the pipe, where any call is safe. (signalfd would do the same, but Glibc's Swift module
// does not export it.)

import LinuxSystem
import SystemPackage

/// One signal, as the console program sees it.
public enum ConsoleSignal: Equatable, Sendable {
    /// The kernel asks us to give up the VT (another VT is being switched to).
    case release
    /// The VT is ours again.
    case acquire
    /// Time to go (Signal.terminate, Signal.interrupt, Signal.hangup): restore the console, then `ConsoleSignals.die(of:)`.
    case terminate(Int32)
}

/// The self-pipe and its handlers; one per process (a second one is a programming error).
public final class ConsoleSignals {
    public let releaseSignal: Int32
    public let acquireSignal: Int32
    public let terminationSignals: [Int32]
    /// The read end: poll it together with other inputs; `wait` reads it.
    public let descriptor: FileDescriptor
    private var queued: [ConsoleSignal] = []

    /// Installs the handlers. Signal.user1/Signal.user2 are the usual VT pair; they must be caught before a VT
    /// is put into VT_PROCESS mode (their default action kills the process).
    public init(releaseSignal: Int32 = Signal.user1, acquireSignal: Int32 = Signal.user2,
                terminationSignals: [Int32] = [Signal.terminate, Signal.interrupt, Signal.hangup]) throws(DisplayError) {
        self.releaseSignal = releaseSignal
        self.acquireSignal = acquireSignal
        self.terminationSignals = terminationSignals
        descriptor = try Syscalls.signalPipe()
        for s in [releaseSignal, acquireSignal] + terminationSignals { try Syscalls.catchSignal(s) }
    }

    /// Puts the default actions back and closes the pipe.
    deinit {
        for s in [releaseSignal, acquireSignal] + terminationSignals { Syscalls.defaultSignal(s) }
        Syscalls.closeSignalPipe(descriptor)
    }

    /// The next signal, waiting up to `timeoutMilliseconds` (-1: forever; 0: only look); nil on timeout.
    public func wait(timeoutMilliseconds: Int32) throws(DisplayError) -> ConsoleSignal? {
        if queued.isEmpty {
            for number in try Syscalls.readSignals(descriptor, timeoutMilliseconds: timeoutMilliseconds) {
                if let s = classify(number) { queued.append(s) }
            }
        }
        return queued.isEmpty ? nil : queued.removeFirst()
    }

    /// What signal `number` means here; nil for one we did not ask for.
    public func classify(_ number: Int32) -> ConsoleSignal? {
        if number == releaseSignal { return .release }
        if number == acquireSignal { return .acquire }
        if terminationSignals.contains(number) { return .terminate(number) }
        return nil
    }

    /// Ends the process as `signal` would have (default action, raised again), after the caller
    /// restored the console: the parent (systemd, a shell) sees "killed by Signal.terminate", status 143.
    public static func die(of signal: Int32) -> Never {
        Syscalls.die(of: signal)
    }
}
