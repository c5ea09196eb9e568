// SPDX-License-Identifier: MIT
// CLOCK_MONOTONIC, the time base of the event loop, vblank timestamps and HUD time.

public enum MonotonicClock {
    /// Nanoseconds since an unspecified start (`clock_gettime(CLOCK_MONOTONIC)`).
    public static func nanoseconds() -> Int64 { system_monotonic() }
}

/// The CPU this process has used (`clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`), user and system
/// together. Read first thing in `main`, it is what loading and starting the program cost.
public enum ProcessCPUClock {
    public static func nanoseconds() -> Int64 { system_processCPUTime() }
}

/// The wall clock (`clock_gettime(CLOCK_REALTIME)`): for timestamps others read, never for
/// intervals (it jumps when the time is set).
public enum WallClock {
    public static func nanosecondsSinceEpoch() -> Int64 { system_realtime() }
}
