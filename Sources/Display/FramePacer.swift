// The frame pacer (issue 4 part 5): renders only when the scene is dirty and sleeps in between.
// While something animates it wakes once per refresh: at the display's vblank timestamp when
// `present` reports `.vblank` (the frame is on the glass, draw the next one for the following
// vblank), otherwise on a fixed grid of refresh intervals (QEMU's DRM drivers complete flips at
// once, so pacing by flip completion alone would spin). A static
// scene arms a timer only for its next scheduled change (an auto-dismiss); with none, no timer runs
// at all and the loop blocks until a caller wakes it (a command arrived), so a static HUD costs no
// CPU. Boundaries that pass while a frame is still being rendered are skipped and counted.
//
// The scene and the sleeper are protocols so that Display does not depend on HUD and the tests
// drive the loop on a fake clock (FramePacerTests); `TimerfdSleeper` is the real sleeper.
//
// One pacer drives every output of a display: the scene keeps one frame per output (the HUD laid
// out for each resolution) and each is presented with `present(_:damage:output:)`. The display's
// hotplug descriptor is watched beside the timer; when it fires the pacer refreshes the outputs and
// tells the scene, which draws a new output completely at the next frame.

import Raster

/// How the frame loop knows when to draw the next animation frame.
public enum FramePacing: String, CaseIterable, Sendable {
    /// Vblank timestamps when the driver delivers them, else a timer at the refresh rate.
    case auto
    /// Vblank timestamps (flip events, FBIO_WAITFORVSYNC).
    case vblank
    /// A timerfd at the refresh rate.
    case timer
}

/// What one rendered frame of a `PacedScene` says about itself.
public struct PacedFrame: Equatable, Sendable {
    /// Per output (indices of `display.outputs`), the rects of its frame that changed since its
    /// last frame; an empty list means nothing to present on that output.
    public var outputDamage: [[IntRect]]
    /// Whether the next refresh will look different (a spinner, a fade): the pacer keeps waking
    /// every frame interval while true.
    public var animating: Bool
    /// When static, the CLOCK_MONOTONIC instant (ns) of the next scheduled change (an auto-dismiss
    /// timer); nil when nothing is scheduled. Ignored while animating.
    public var nextChange: Int64?

    public init(outputDamage: [[IntRect]], animating: Bool, nextChange: Int64? = nil) {
        self.outputDamage = outputDamage; self.animating = animating; self.nextChange = nextChange
    }

    /// A frame of a single-output scene.
    public init(damage: [IntRect], animating: Bool, nextChange: Int64? = nil) {
        self.init(outputDamage: [damage], animating: animating, nextChange: nextChange)
    }

    /// The first output's damage (single-output scenes).
    public var damage: [IntRect] {
        get { outputDamage.first ?? [] }
        set { if outputDamage.isEmpty { outputDamage = [newValue] } else { outputDamage[0] = newValue } }
    }
}

/// A picture the pacer draws on every output: the HUD's scene renderers behind an adapter (Display
/// cannot see HUD; Runtime's `HUDScene` is the real one).
public protocol PacedScene: AnyObject {
    /// Brings the picture to `nanoseconds` (CLOCK_MONOTONIC) and says what changed on each output.
    func frame(at nanoseconds: Int64) -> PacedFrame
    /// The complete current picture of output `index`, that output's frame size.
    func pixels(output index: Int) -> PixmapView
    /// The display's outputs changed (hotplug): lay out for `outputs` (keep the frames of outputs
    /// that stayed, by name) and report a new output's whole frame as damage at the next `frame`.
    func outputsChanged(_ outputs: [DisplayOutput])
}

extension PacedScene {
    public func outputsChanged(_ outputs: [DisplayOutput]) {}
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
/// timeout until woken or until one of `descriptors` is readable.
public protocol PacerSleeper: AnyObject {
    func wait(until deadline: Int64?, watching descriptors: [Int32]) throws(DisplayError) -> PacerWake
}

extension PacerSleeper {
    public func wait(until deadline: Int64?) throws(DisplayError) -> PacerWake {
        try wait(until: deadline, watching: [])
    }
}

public final class FramePacer {
    public let display: any Display
    public let scene: any PacedScene
    public let sleeper: any PacerSleeper
    private let clock: () -> Int64
    private let log: (String) -> Void

    /// Frames handed to `display.present` (one per output presented; outputs without damage are not).
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
    /// Hotplug notifications that changed the outputs.
    public private(set) var outputChanges = 0
    /// Called with the descriptor when a watched descriptor woke the loop (read it there).
    public var onReadable: ((Int32) -> Void)?
    /// Descriptors whose readability also ends a wait (a command FIFO, a socket); `onReadable` reads
    /// them. May change between turns.
    public var watchedDescriptors: [Int32] = []
    /// How animation frames are timed: `.auto` follows vblank stamps when `present` gives them and a
    /// timer grid otherwise; `.timer` always uses the grid; `.vblank` is `.auto` that says once in
    /// the log when the display gives no stamps.
    public var pacing: FramePacing = .auto
    /// The refresh interval in ns to pace at instead of the display's (a profile's `refresh`).
    public var frameIntervalOverride: Int64?
    /// While true nothing is rendered or presented and no timer runs (the VT was switched away);
    /// the loop still waits for wake-ups and watched descriptors. Set false and `markDirty` to go on.
    public var isPaused = false {
        didSet { if isPaused { deadline = nil; boundary = nil; animating = false } }
    }

    private var dirty = true
    private var animating = false
    /// The refresh boundary the current animation frame was paced to; nil when not animating, so
    /// the next animation starts a new grid at its first frame.
    private var boundary: Int64?
    private var deadline: Int64?
    private var missedSinceLog = 0
    private var lastMissLog: Int64?
    private var saidNoVBlank = false
    private var hotplugFailed = false
    /// Outputs whose last present failed (logged once) and that get a whole frame next time.
    private var failingOutputs: Set<String> = []
    private var owedFullFrame: Set<String> = []

    /// How soon presenting is tried again while DRM master is held by another process.
    public static let masterRetryNanoseconds: Int64 = 250_000_000
    /// The last vblank stamp of the current animation (missed-frame counting).
    private var lastStamp: Int64?

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

    /// The interval animation frames are paced at.
    public var frameIntervalNanoseconds: Int64 { max(frameIntervalOverride ?? display.frameIntervalNanoseconds, 1) }

    /// Makes the next `runOnce` render at once (the caller changed the scene).
    public func markDirty() { dirty = true }

    /// One turn of the loop: renders and presents if dirty, then waits for the next reason to draw.
    public func runOnce() throws(DisplayError) {
        if dirty && !isPaused { try renderAndPresent() }
        waits += 1
        if deadline != nil { timersArmed += 1 }
        let hotplug = hotplugFailed ? nil : display.hotplugDescriptor
        switch try sleeper.wait(until: deadline, watching: watchedDescriptors + (hotplug.map { [$0] } ?? [])) {
        case .deadline:
            dirty = true
        case .woken:
            // While animating, the pending boundary's frame picks the change up: no extra frame.
            if !animating { dirty = true }
        case .readable(let fd) where fd == hotplug:
            do { try refreshOutputs() } catch {
                // The HUD stays up on the outputs it has; a descriptor that keeps failing must not
                // make the loop spin, so it is no longer watched.
                hotplugFailed = true
                log("hotplug: \(error); outputs are no longer followed")
            }
        case .readable(let fd):
            onReadable?(fd)
            if !animating { dirty = true }
        }
    }

    /// Runs `runOnce` until `stop` (checked after every wake-up) returns true.
    public func run(until stop: () -> Bool) throws(DisplayError) {
        repeat { try runOnce() } while !stop()
    }

    /// Re-reads the display's outputs (after a hotplug notification); on a change the scene lays
    /// out for the new set and the next frame is drawn at once (a new output must show the HUD
    /// within a second, and may be waiting for its first picture).
    public func refreshOutputs() throws(DisplayError) {
        guard try display.refreshOutputs() else { return }
        outputChanges += 1
        let outputs = display.outputs
        log("outputs changed: " + (outputs.isEmpty ? "none" : outputs.map { "\($0.name) \($0.frameWidth)x\($0.frameHeight)" }.joined(separator: ", ")))
        scene.outputsChanged(outputs)
        dirty = true
    }

    private func renderAndPresent() throws(DisplayError) {
        dirty = false
        let start = clock()
        let frame = scene.frame(at: start)
        var timing: PresentTiming?
        var failure: DisplayError?
        var presented = 0
        let outputs = display.outputs
        let count = min(frame.outputDamage.count, outputs.count)
        for i in 0..<count {
            let name = outputs[i].name
            // An output whose last present failed gets its whole frame: what it shows is unknown.
            let damage = owedFullFrame.contains(name) ? [scene.pixels(output: i).bounds] : frame.outputDamage[i]
            if damage.isEmpty { continue }
            // One output failing (unplugged under us, master lost) must not stop the others.
            do {
                let t = try display.present(scene.pixels(output: i), damage: damage, output: i)
                // Outputs share one grid: the first vblank stamp paces it (else the first timing).
                if timing == nil || (Self.isVBlank(t) && !Self.isVBlank(timing!)) { timing = t }
                presented += 1
                framesPresented += 1
                owedFullFrame.remove(name)
                if failingOutputs.remove(name) != nil { log("output \(i) (\(name)): presenting again") }
            } catch {
                // Logged once until it works again, not at every frame.
                if failingOutputs.insert(name).inserted { log("output \(i) (\(name)): present failed: \(error)") }
                owedFullFrame.insert(name)
                if failure == nil { failure = error }
            }
        }
        if let failure, presented == 0 {
            // Another process holds DRM master: not fatal, present takes it back; try again soon
            // even while nothing changes.
            guard case .masterLost = failure else { throw failure }
            dirty = false
            animating = false
            boundary = nil
            lastStamp = nil
            deadline = clock() + Self.masterRetryNanoseconds
            return
        }
        if let timing { lastTiming = timing }
        let end = clock()
        animating = frame.animating
        if frame.animating {
            deadline = nextBoundary(timing: timing, renderedAt: start, finishedAt: end)
        } else {
            boundary = nil
            lastStamp = nil
            deadline = frame.nextChange
            if case .masterLost? = failure {
                // Some outputs lost DRM master while others presented: a static scene must still
                // come back on them once master is free.
                let retry = end + Self.masterRetryNanoseconds
                deadline = min(deadline ?? retry, retry)
            }
        }
    }

    private static func isVBlank(_ t: PresentTiming) -> Bool {
        if case .vblank = t { return true }
        return false
    }

    /// When the next animation frame is rendered. With vblank stamps (and pacing allows them): at
    /// the stamp, the moment a buffer became free - present returns right after a vblank (fbdev's
    /// FBIO_WAITFORVSYNC waits for this frame's, DRM waits for the previous flip's event before
    /// committing this frame), so the next frame is drawn at once and makes the following vblank
    /// (waiting a further interval would show every other vblank only); never sooner than 3/4 of an interval after this frame began, so a display
    /// whose stamps come back at once cannot make the loop spin. Flips more than one interval
    /// apart are missed frames. Without stamps: the first boundary after `finishedAt` on the grid
    /// that started at the animation's first frame; boundaries already passed are missed frames.
    private func nextBoundary(timing: PresentTiming?, renderedAt start: Int64, finishedAt end: Int64) -> Int64 {
        let interval = frameIntervalNanoseconds
        // An extra frame between boundaries (after a hotplug) that presented nothing keeps the
        // pending boundary.
        if timing == nil, let pending = boundary, pending > end { return pending }
        if case .vblank(let stamp)? = timing, pacing != .timer {
            if let last = lastStamp, boundary != nil {
                let skipped = Int((stamp - last + interval / 2) / interval) - 1
                if skipped > 0 { noteMissed(skipped, at: end, took: end - start) }
            }
            lastStamp = stamp
            let next = max(stamp, start + interval - interval / 4)
            boundary = next
            return next
        }
        if pacing == .vblank && timing != nil && !saidNoVBlank {
            saidNoVBlank = true
            log("frame pacer: vblank pacing asked for, but the display gives no vblank timestamps; pacing by timer")
        }
        let base = boundary ?? start
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
            + "the last frame took \(took / 1_000_000) ms, refresh interval \(frameIntervalNanoseconds / 1_000) us")
        missedSinceLog = 0
        lastMissLog = now
    }
}
