// The frame pacer's real sleeper: one poll(2) without timeout over a CLOCK_MONOTONIC timerfd (armed
// at absolute deadlines, disarmed when there is none), an eventfd that `PacerWaker.wake` signals,
// and any descriptors the caller watches. With no deadline nothing in the kernel ticks for us.
import SystemPackage

/// Wakes a `TimerfdSleeper` from another thread or a signal handler (an eventfd write, which is
/// async-signal-safe; `descriptor` is there for handlers that call write(2) themselves).
public struct PacerWaker: Sendable {
    public let descriptor: Int32
    public func wake() { Syscalls.eventfdSignal(FileDescriptor(rawValue: descriptor)) }
}

public final class TimerfdSleeper: PacerSleeper {
    private let timer: FileDescriptor
    private let wakeEvent: FileDescriptor
    private let watched: [FileDescriptor]
    /// The deadline the timerfd is armed at (nil: disarmed), so repeated waits for the same
    /// boundary (after a wake-up) do not re-arm it.
    private var armed: Int64?

    /// `watching`: descriptors (e.g. a control socket) whose readability also ends every wait (each
    /// `wait` may add more); the caller keeps them open and reads them.
    public init(watching: [Int32] = []) throws(DisplayError) {
        timer = try Syscalls.timerfdCreate()
        do { wakeEvent = try Syscalls.eventfdCreate() } catch { Syscalls.close(timer); throw error }
        watched = watching.map { FileDescriptor(rawValue: $0) }
    }

    deinit {
        Syscalls.close(timer)
        Syscalls.close(wakeEvent)
    }

    public var waker: PacerWaker { PacerWaker(descriptor: wakeEvent.rawValue) }

    public func wait(until deadline: Int64?, watching descriptors: [Int32]) throws(DisplayError) -> PacerWake {
        let watched = self.watched + descriptors.map { FileDescriptor(rawValue: $0) }
        if deadline != armed {
            try Syscalls.timerfdArm(timer, at: deadline)
            armed = deadline
        }
        while true {
            // EINTR comes back as nothing ready: poll again (a signal that matters also wakes us).
            let ready = try Syscalls.pollReadable([wakeEvent, timer] + watched)
            if ready[0] {
                _ = try Syscalls.readCounter(wakeEvent, name: "eventfd")
                return .woken
            }
            if ready[1], try Syscalls.readCounter(timer, name: "timerfd") > 0 {
                armed = nil  // one-shot: expired means disarmed
                return .deadline
            }
            if let i = watched.indices.first(where: { ready[$0 + 2] }) { return .readable(watched[i].rawValue) }
        }
    }
}
