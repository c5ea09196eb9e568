// SPDX-License-Identifier: MIT
// Where the bridge's time comes from: the monotonic clock in production, a hand-moved one in the
// tests of the back-off and the rate bound (the HUD's own `Clock` lives in the HUD module, which
// the bridge does not link).
import HUDProtocol
import LinuxSystem

protocol BridgeClock: AnyObject, Sendable {
    var now: Instant { get }
    /// The kiosk's wall-clock time, nanoseconds since the Unix epoch: the states' `time`.
    var wallNanoseconds: Int64 { get }
}

final class MonotonicBridgeClock: BridgeClock {
    var now: Instant { Instant(nanoseconds: MonotonicClock.nanoseconds()) }
    var wallNanoseconds: Int64 { WallClock.nanosecondsSinceEpoch() }
}
