// CLOCK_MONOTONIC, the time base of the event loop, vblank timestamps and HUD time.

public enum MonotonicClock {
    /// Nanoseconds since an unspecified start (`clock_gettime(CLOCK_MONOTONIC)`).
    public static func nanoseconds() -> Int64 { system_monotonic() }
}
