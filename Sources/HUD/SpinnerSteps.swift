// SPDX-License-Identifier: MIT
// How the spinner is rounded so that its frames come round again and are drawn once: one step per
// animation frame, as many steps a turn as frames fit in the 1 s loop. The step is the frame's
// index on its grid (elapsed / interval), not the phase rounded to a fraction of a second: at a
// refresh rate that is not a whole number of hertz (75.7 Hz on vesafb, 59.94 Hz) the phase
// rounded to 76 or 60 steps would skip one every few hundred frames; this way every frame is the
// next step and a turn takes count × interval, within half a frame of the loop.
import HUDProtocol

public struct SpinnerSteps: Equatable, Sendable {
    /// Steps a turn.
    public let count: Int32
    /// Elapsed time a step (one animation frame), in ns.
    public let interval: Int64

    /// One step per frame of `frameInterval` ns.
    public init(frameInterval: Int64) {
        precondition(frameInterval > 0, "frame interval \(frameInterval)")
        interval = frameInterval
        count = Int32(clamping: max(1, (SpinnerIndicator.loop + frameInterval / 2) / frameInterval))
    }

    /// One step per frame at `framesPerSecond`.
    public init(framesPerSecond: Int32) {
        precondition(framesPerSecond > 0, "frames per second \(framesPerSecond)")
        let n = Int64(framesPerSecond)
        self.init(frameInterval: (SpinnerIndicator.loop + n / 2) / n)
    }

    /// The step (0..<count) that `elapsed` falls in.
    func index(_ elapsed: Interval) -> Int32 {
        let frame = Self.floorDivide(elapsed.nanoseconds, interval)
        return Int32(frame - Self.floorDivide(frame, Int64(count)) * Int64(count))
    }

    /// The elapsed time drawn for `elapsed`'s step: k/count of a turn past the loop's turns (each
    /// step the same instant of every turn, so the same picture).
    func rounded(_ elapsed: Interval) -> Interval {
        let n = Int64(count)
        let frame = Self.floorDivide(elapsed.nanoseconds, interval)
        let turn = Self.floorDivide(frame, n)
        let k = frame - turn * n
        return Interval(nanoseconds: turn * SpinnerIndicator.loop + (k * SpinnerIndicator.loop + n - 1) / n)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
