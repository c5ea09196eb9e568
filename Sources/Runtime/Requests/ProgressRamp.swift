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

/// What a running ramp applies its values to (the runtime).
protocol ProgressRampTarget: AnyObject {
    /// Shows `fraction` as the progress, keeping the text; why not, if it is refused.
    func rampProgress(to fraction: Double) -> String?
    /// The refresh interval: a ramp never steps more often.
    var frameIntervalNanoseconds: Int64 { get }
}

/// The ramp running now, if any, and the loop timer of its next step.
final class ProgressRampRunner {
    private var ramp: ProgressRamp?
    private var timer: LoopTimer?
    private unowned let loop: EventLoop
    weak var target: (any ProgressRampTarget)?

    init(loop: EventLoop) { self.loop = loop }

    /// Starts `ramp` (replacing one that runs) and applies its first value now.
    func start(_ ramp: ProgressRamp) -> RequestOutcome {
        stop()
        self.ramp = ramp
        return step()
    }

    /// Applies the ramp's value now and schedules the next step until it is done.
    private func step() -> RequestOutcome {
        guard let ramp, let target else { return .applied }
        let now = loop.clock()
        if let refusal = target.rampProgress(to: ramp.value(at: now)) {
            stop()
            return .refused(refusal)
        }
        if ramp.isFinished(at: now) {
            self.ramp = nil
        } else {
            timer = loop.schedule(at: now + ramp.step(frameInterval: target.frameIntervalNanoseconds)) { [unowned self] in
                timer = nil
                _ = step()
            }
        }
        return .applied
    }

    /// Stops the ramp where it is.
    func stop() {
        ramp = nil
        if let t = timer { _ = loop.cancel(t) }
        timer = nil
    }
}
