// The loop's poller over the display layer's timerfd sleeper: poll(2) on a timerfd armed at the
// deadline, an eventfd for wake-ups and the watched descriptors. It watches readability only;
// asking for write interest is refused (no source of the runtime needs it yet).
import Display

extension PacerWaker: LoopWaker {}

/// Why a poller refused a request.
public struct LoopPollerError: Error, CustomStringConvertible {
    public var description: String
}

public final class SleeperPoller: LoopPoller {
    private let sleeper: TimerfdSleeper
    private var watched: [Int32] = []

    public init() throws(DisplayError) { sleeper = try TimerfdSleeper() }

    public var waker: any LoopWaker { sleeper.waker }

    public func add(_ descriptor: Int32, interest: LoopInterest) throws {
        guard !interest.contains(.write) else { throw LoopPollerError(description: "write interest on descriptor \(descriptor) is not supported") }
        watched.append(descriptor)
    }

    public func modify(_ descriptor: Int32, interest: LoopInterest) throws {
        guard !interest.contains(.write) else { throw LoopPollerError(description: "write interest on descriptor \(descriptor) is not supported") }
    }

    public func remove(_ descriptor: Int32) { watched.removeAll { $0 == descriptor } }

    public func poll(until deadline: Int64?) throws -> [LoopReadiness] {
        switch try sleeper.wait(until: deadline, watching: watched) {
        case .deadline, .woken: return []
        case .readable(let fd): return [LoopReadiness(descriptor: fd, readable: true)]
        }
    }
}
