// A one-shot timer the service's loop watches beside the FIFO (HUDRuntime.watch): it wakes the
// loop at the next command of a `--script`, at the end of `--duration`, or when a QUIT's fade-out
// must be over. The frame pacer's own timer only knows the scene's deadlines, and a sleeping
// helper thread would be the only thread in the process.
import SystemPackage

public final class ServiceTimer {
    /// Readable once the deadline has passed; watch it, then call `acknowledge()`.
    public let descriptor: Int32
    /// The armed deadline (CLOCK_MONOTONIC ns), nil when disarmed.
    public private(set) var deadline: Int64?

    public init() throws(CommandFIFOError) {
        switch RuntimeSyscalls.timerCreate() {
        case .success(let fd): descriptor = fd.rawValue
        case .failure(let e): throw .syscall("timerfd_create", e, "the service timer")
        }
    }

    deinit { RuntimeSyscalls.close(FileDescriptor(rawValue: descriptor)) }

    /// Arms the timer at `deadline` (an earlier one replaces it; nil disarms).
    public func arm(at deadline: Int64?) throws(CommandFIFOError) {
        guard deadline != self.deadline else { return }
        if case .failure(let e) = RuntimeSyscalls.timerArm(FileDescriptor(rawValue: descriptor), at: deadline) {
            throw .syscall("timerfd_settime", e, "the service timer")
        }
        self.deadline = deadline
    }

    /// Clears the expiry (so the descriptor stops being readable); true when it had expired.
    @discardableResult
    public func acknowledge() throws(CommandFIFOError) -> Bool {
        switch RuntimeSyscalls.timerRead(FileDescriptor(rawValue: descriptor)) {
        case .success(let n):
            if n > 0 { deadline = nil }
            return n > 0
        case .failure(let e): throw .syscall("read", e, "the service timer")
        }
    }
}
