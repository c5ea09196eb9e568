// SPDX-License-Identifier: MIT
// How a board wants its animation frames timed (a profile's [pacing] method); the frame scheduler
// in Runtime follows it.

/// How the frame loop knows when to draw the next animation frame.
public enum FramePacing: String, CaseIterable, Sendable {
    /// Vblank timestamps when the driver delivers them, else a timer at the refresh rate.
    case auto
    /// Vblank timestamps (flip events, FBIO_WAITFORVSYNC).
    case vblank
    /// A timerfd at the refresh rate.
    case timer
}
