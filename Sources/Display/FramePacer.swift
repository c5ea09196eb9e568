// The frame pacer (issue 4 part 5): renders only when the scene is dirty and sleeps in between.
// While something animates it wakes once per refresh: at the display's vblank timestamp plus one
// interval when `present` reports `.vblank`, otherwise on a fixed grid of refresh intervals (QEMU's
// DRM drivers complete flips at once, so pacing by flip completion alone would spin). A static
// scene arms a timer only for its next scheduled change (an auto-dismiss); with none, no timer runs
// at all and the loop blocks until a caller wakes it (a command arrived), so a static HUD costs no
// CPU. Boundaries that pass while a frame is still being rendered are skipped and counted.
//
// The scene and the sleeper are protocols so that Display does not depend on HUD and the tests
// drive the loop on a fake clock (FramePacerTests); `TimerfdSleeper` is the real sleeper.

import Raster

/// What one rendered frame of a `PacedScene` says about itself.
public struct PacedFrame: Equatable, Sendable {
    /// The rects of `pixels` that changed since the last frame; empty means nothing to present.
    public var damage: [IntRect]
    /// Whether the next refresh will look different (a spinner, a fade): the pacer keeps waking
    /// every frame interval while true.
    public var animating: Bool
    /// When static, the CLOCK_MONOTONIC instant (ns) of the next scheduled change (an auto-dismiss
    /// timer); nil when nothing is scheduled. Ignored while animating.
    public var nextChange: Int64?

    public init(damage: [IntRect], animating: Bool, nextChange: Int64? = nil) {
        self.damage = damage; self.animating = animating; self.nextChange = nextChange
    }
}

/// A picture the pacer draws: the HUD's scene renderer behind an adapter (Display cannot see HUD).
public protocol PacedScene: AnyObject {
    /// Brings the picture to `nanoseconds` (CLOCK_MONOTONIC) and says what changed.
    func frame(at nanoseconds: Int64) -> PacedFrame
    /// The complete current picture, the output's frame size.
    var pixels: PixmapView { get }
}

/// Why a `PacerSleeper.wait` returned.
public enum PacerWake: Equatable, Sendable {
    /// The deadline passed (the timer expired).
    case deadline
    /// Someone called the sleeper's waker (a command changed the scene).
    case woken
    /// A descriptor the caller asked to watch is readable (e.g. a control socket).
    case readable(Int32)
}

/// Blocks the pacer's thread: until `deadline` (CLOCK_MONOTONIC ns) or, when nil, without any
/// timeout until woken.
public protocol PacerSleeper: AnyObject {
    func wait(until deadline: Int64?) throws(DisplayError) -> PacerWake
}

public final class FramePacer {
    public let display: any Display
    public let scene: any PacedScene
    public let sleeper: any PacerSleeper
    private let clock: () -> Int64
    private let log: (String) -> Void

    /// Frames handed to `display.present` (frames without damage are not presented).
    public private(set) var framesPresented = 0
    /// Refresh boundaries skipped because rendering and presenting the previous frame overran them.
    public private(set) var missedFrames = 0
    /// Waits that had a deadline, i.e. how often a timer was armed (0 for a static scene with
    /// nothing scheduled: the CPU-cost guarantee).
    public private(set) var timersArmed = 0
    /// What the last `present` reported (diagnostics: `.timer` on QEMU's drivers).
    public private(set) var lastTiming: PresentTiming?
    /// Every wait, with or without a deadline.
    public private(set) var waits = 0
    /// Called with the descriptor when a watched descriptor woke the loop (read it there).
    public var onReadable: ((Int32) -> Void)?

    private var dirty = true
    private var animating = false
    /// The refresh boundary the current animation frame was paced to; nil when not animating, so
    /// the next animation starts a new grid at its first frame.
    private var boundary: Int64?
    private var deadline: Int64?
    private var missedSinceLog = 0
    private var lastMissLog: Int64?

    /// Missed-frame messages are logged at most this often (one line sums up the interval).
    public static let missLogIntervalNanoseconds: Int64 = 1_000_000_000

    public init(
        display: any Display, scene: any PacedScene, sleeper: any PacerSleeper,
        clock: @escaping () -> Int64 = FramePacer.monotonicNanoseconds, log: @escaping (String) -> Void
    ) {
        self.display = display; self.scene = scene; self.sleeper = sleeper; self.clock = clock; self.log = log
    }

    /// CLOCK_MONOTONIC in nanoseconds, the time base of vblank stamps and of `PacedScene.frame`.
    public static func monotonicNanoseconds() -> Int64 { Syscalls.monotonicNanoseconds() }

    /// The next wait's deadline: the next frame boundary, the next scheduled change, or nil.
    public var pendingDeadline: Int64? { deadline }

    /// Makes the next `runOnce` render at once (the caller changed the scene).
    public func markDirty() { dirty = true }

    /// One turn of the loop: renders and presents if dirty, then waits for the next reason to draw.
    public func runOnce() throws(DisplayError) {
        if dirty { try renderAndPresent() }
        waits += 1
        if deadline != nil { timersArmed += 1 }
        switch try sleeper.wait(until: deadline) {
        case .deadline:
            dirty = true
        case .woken:
            // While animating, the pending boundary's frame picks the change up: no extra frame.
            if !animating { dirty = true }
        case .readable(let fd):
            onReadable?(fd)
            if !animating { dirty = true }
        }
    }

    /// Runs `runOnce` until `stop` (checked after every wake-up) returns true.
    public func run(until stop: () -> Bool) throws(DisplayError) {
        repeat { try runOnce() } while !stop()
    }

    private func renderAndPresent() throws(DisplayError) {
        dirty = false
        let start = clock()
        let frame = scene.frame(at: start)
        var timing: PresentTiming?
        if !frame.damage.isEmpty {
            timing = try display.present(scene.pixels, damage: frame.damage)
            lastTiming = timing
            framesPresented += 1
        }
        let end = clock()
        animating = frame.animating
        if frame.animating {
            deadline = nextBoundary(timing: timing, renderedAt: start, finishedAt: end)
        } else {
            boundary = nil
            deadline = frame.nextChange
        }
    }

    /// The first refresh boundary after `finishedAt`: from the vblank stamp when the display gave
    /// one, else on the grid that started at the animation's first frame; boundaries already passed
    /// are missed frames.
    private func nextBoundary(timing: PresentTiming?, renderedAt start: Int64, finishedAt end: Int64) -> Int64 {
        let interval = max(display.frameIntervalNanoseconds, 1)
        let base: Int64
        if case .vblank(let stamp)? = timing { base = stamp } else { base = boundary ?? start }
        var next = base + interval
        if end >= next {
            let skipped = Int((end - base) / interval)
            next = base + Int64(skipped + 1) * interval
            noteMissed(skipped, at: end, took: end - start)
        }
        boundary = next
        return next
    }

    private func noteMissed(_ count: Int, at now: Int64, took: Int64) {
        missedFrames += count
        missedSinceLog += count
        if let last = lastMissLog, now - last < Self.missLogIntervalNanoseconds { return }
        let since = lastMissLog.map { " in the last \((now - $0) / 1_000_000) ms" } ?? ""
        log("frame pacer: missed \(missedSinceLog) frame(s)\(since) (\(missedFrames) in all); "
            + "the last frame took \(took / 1_000_000) ms, refresh interval \(display.frameIntervalNanoseconds / 1_000) us")
        missedSinceLog = 0
        lastMissLog = now
    }
}
