// SPDX-License-Identifier: MIT
// What the runtime has done so far, as one value: for the session's last line, the demo, the pacer
// guest's figures and tests, without reaching into the loop or the frame scheduler.
import Display

public struct RuntimeCounters: Equatable, Sendable {
    /// Frames handed to the display (one per output presented).
    public var framesPresented: Int
    /// Refresh boundaries skipped because a frame overran them.
    public var missedFrames: Int
    /// Page flips given up after the flip wait (their events never came).
    public var flipsAbandoned: Int
    /// What the last present reported (`.timer` on QEMU's drivers).
    public var lastTiming: PresentTiming?
    /// Turns of the event loop, and the waits among them that armed a timer.
    public var turns: Int
    public var timedWaits: Int
}
