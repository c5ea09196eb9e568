// SPDX-License-Identifier: MIT
// Instants and intervals: whole nanoseconds in 64-bit integers, so timelines are exact and the same
// on every machine. Commands (delays) and events (when they happened) carry them, so they live with
// the protocol; the `Clock` that produces them is the HUD's.

/// A point in time: nanoseconds since the clock's origin.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64
    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    public static let zero = Instant(nanoseconds: 0)
    /// `seconds` after the origin, rounded to the nearest nanosecond.
    public static func seconds(_ seconds: Double) -> Instant { Instant(nanoseconds: Interval.seconds(seconds).nanoseconds) }
    @inlinable public static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }
    @inlinable public static func + (a: Instant, b: Interval) -> Instant {
        Instant(nanoseconds: b == .forever ? .max : a.nanoseconds.addingReportingOverflow(b.nanoseconds).overflow ? .max : a.nanoseconds + b.nanoseconds)
    }
    @inlinable public static func - (a: Instant, b: Instant) -> Interval { Interval(nanoseconds: a.nanoseconds - b.nanoseconds) }
    @inlinable public static func - (a: Instant, b: Interval) -> Instant { Instant(nanoseconds: a.nanoseconds - b.nanoseconds) }
    /// Seconds since the origin (for printing event logs).
    public var seconds: Double { Double(nanoseconds) / 1e9 }
    public var description: String { String(format3(seconds)) + "s" }
}

/// A span of time in nanoseconds (negative allowed); `.forever` stands for "never".
public struct Interval: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64
    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    public static let zero = Interval(nanoseconds: 0)
    /// Longer than any timeline: SVProgressHUD's CGFLOAT_MAX maximum dismiss interval.
    public static let forever = Interval(nanoseconds: .max)
    /// `seconds`, rounded to the nearest nanosecond (clamped to `.forever`).
    public static func seconds(_ seconds: Double) -> Interval {
        let ns = (seconds * 1e9).rounded()
        if !(ns < 9.2e18) { return .forever }
        return Interval(nanoseconds: Int64(max(-9.2e18, ns)))
    }
    public static func milliseconds(_ ms: Int64) -> Interval { Interval(nanoseconds: ms * 1_000_000) }
    @inlinable public static func < (a: Interval, b: Interval) -> Bool { a.nanoseconds < b.nanoseconds }
    @inlinable public static func + (a: Interval, b: Interval) -> Interval {
        if a == .forever || b == .forever { return .forever }
        return Interval(nanoseconds: a.nanoseconds + b.nanoseconds)
    }
    public var seconds: Double { Double(nanoseconds) / 1e9 }
    public var description: String { self == .forever ? "forever" : String(format3(seconds)) + "s" }
}

/// `x` with three decimals, without Foundation.
package func format3(_ x: Double) -> String {
    let ms = Int64((x * 1000).rounded())
    let sign = ms < 0 ? "-" : ""
    let a = ms.magnitude
    let frac = String(a % 1000)
    return "\(sign)\(a / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
}
