// SPDX-License-Identifier: MIT
// Where time comes from. Everything in the HUD reads time from a `Clock`: the daemon's is
// monotonic, tests and `splashhud render` use a `ManualClock` they advance by hand.
import HUDProtocol

/// Where time comes from.
public protocol Clock: AnyObject {
    var now: Instant { get }
}

/// A clock that moves only when told to: tests and headless rendering.
public final class ManualClock: Clock {
    public private(set) var now: Instant
    public init(_ start: Instant = .zero) { now = start }
    public func advance(by interval: Interval) { now = now + interval }
    /// Moves to `instant` (never backwards).
    public func advance(to instant: Instant) {
        precondition(instant >= now, "a clock never goes backwards (\(now) → \(instant))")
        now = instant
    }
}
