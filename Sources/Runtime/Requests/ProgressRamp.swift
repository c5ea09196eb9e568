// SPDX-License-Identifier: MIT
// `progress-over FRACTION SECONDS`: the progress moving on its own from where it was by FRACTION
// over SECONDS, as Android recovery's updater fills a span of its bar while a step of known length
// runs. The runtime samples it on a loop timer (a few hundred steps over the span, never more
// often than the display refreshes) and applies each value as a progress update keeping the text.
struct ProgressRamp {
    let start: Int64
    let duration: Int64
    let from: Double
    let to: Double

    /// The value at `now` (monotonic ns): linear, never past `to`.
    func value(at now: Int64) -> Double {
        guard duration > 0, now < start + duration else { return to }
        let t = Double(max(now - start, 0)) / Double(duration)
        return from + (to - from) * t
    }

    func isFinished(at now: Int64) -> Bool { now >= start + duration }

    /// How often to sample: 1/400 of the span, at least one frame interval, at most 1 s.
    func step(frameInterval: Int64) -> Int64 {
        min(max(duration / 400, frameInterval, 1), 1_000_000_000)
    }
}
