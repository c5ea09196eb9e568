// SPDX-License-Identifier: MIT
// How long to wait before the next connect attempt, to the daemon or to what a client bridges it
// to (an MQTT broker, an update framework's socket): "decorrelated jitter" (the next delay drawn
// between the base and three times the last one, capped), the scheme Mosquitto's own bridge uses,
// so that 5,000 kiosks that lost one broker do not all come back in the same second. A success
// resets it.
import HUDProtocol

/// The delays between reconnect attempts: decorrelated jitter between `base` and `cap`.
///
/// Each delay is drawn between `base` and three times the last one, at most `cap`; ``reset()``
/// after a success starts again from `base`.
public struct Backoff: Sendable {
    /// The shortest delay, and the first.
    public let base: Interval
    /// The longest delay.
    public let cap: Interval
    private var last: Interval

    /// Delays from `base` up to `cap` (0 < base <= cap).
    public init(base: Interval, cap: Interval) {
        precondition(base.nanoseconds > 0 && cap >= base, "a back-off needs 0 < base <= cap")
        self.base = base; self.cap = cap; last = base
    }

    /// The next delay; `unit` is a random number in 0..<1 (injected so tests can fix it).
    public mutating func next(unit: Double = Double.random(in: 0..<1)) -> Interval {
        let high = min(cap.nanoseconds, last.nanoseconds.multipliedReportingOverflow(by: 3).partialValue)
        let span = Double(max(0, high - base.nanoseconds))
        last = Interval(nanoseconds: base.nanoseconds + Int64(span * min(max(unit, 0), 0.999_999)))
        return last
    }

    /// Starts again from `base` (after a successful connect).
    public mutating func reset() { last = base }
}
