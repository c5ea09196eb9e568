// SPDX-License-Identifier: MIT
// The frame scheduler: the event loop's policy for when the next frame is due, and the frame
// itself (render the scene, present every output). It owns no descriptor and never waits: the
// loop asks it for its next deadline and calls `frameIfDue` once per turn.
//
// While something animates, frames fall on refresh boundaries: at the display's vblank timestamp
// when `present` reports `.vblank` (the frame is on the glass, draw the next one for the following
// vblank), otherwise on a fixed grid of refresh intervals that starts at the animation's first
// frame (QEMU's DRM drivers complete flips at once, so pacing by flip completion alone would
// spin). A change that arrives during an animation is drawn at the next boundary, never in an
// extra frame between two. A static scene is due again only at its next scheduled change (an
// auto-dismiss); with none there is no deadline at all and the loop sleeps until something
// happens, so a static HUD costs no CPU. Boundaries that pass while a frame is still being
// rendered are skipped and counted.
//
// A frame rate cap (`maxFramesPerSecond`) keeps animation frames on refresh boundaries but uses
// only every k-th, k = ceil(refresh rate / cap): 15 a second is every 4th refresh at 60 Hz and
// every 5th at 75 Hz, evenly spaced, never above the cap; a capped spinner turns at the same speed
// with fewer frames.
//
// An animation frame is drawn for the boundary it was paced to, not for the instant the loop woke
// up: a wake-up's jitter then moves nothing, and the scene, told how far apart animation frames
// come (`animationIntervalChanged`: the refresh interval or the cap's), may round its animation to
// one step a frame and draw each of its repeating frames once. Any other frame (a change drawn at
// once, a hotplug's) is drawn for the instant it is rendered at.
//
// Capped on a display with vblank stamps, a frame is rendered ahead, up to two refreshes before
// the vblank it is drawn for, and held: it is presented a quarter refresh after that vblank, so its
// flip completes at the next one, exactly k refreshes after the frame before. Only the copy and
// the commit are left between two vblanks; a render that takes longer than a refresh (a loaded
// board, an emulated CPU) no longer makes the frame a vblank late. A change that arrives while a
// frame is held is drawn into it before it is presented.
//
// Page-flip events wake the loop only while they pace it (vblank stamps) or a due frame waits for
// one; paced by timer, a completed flip is collected when the next frame is due. Paced by stamps
// at every refresh, the next frame is drawn when the last one's flip completes: one wake-up a frame.
//
// When a frame is due and what it is drawn for is `PacingState`, a value with named phases (idle,
// animating, held, failed, paused, and a flip wait over them); this class does what it says.
//
// One scheduler drives every output of a display: the scene keeps one frame per output (the HUD
// laid out for each resolution), each frame names its outputs, and each is presented on the
// display's output of that name with `present(_:damage:output:)`. When the
// display's hotplug descriptor (which the scheduler watches on the loop) fires, it refreshes the
// outputs and tells the scene, which draws a new output completely in a frame drawn at once.
import Display
import Raster

public final class FrameScheduler: LoopFrameSource {
    public let display: any Display
    public let scene: any PacedScene
    private let clock: () -> Int64
    private let log: (String) -> Void

    /// When the next frame is due and what it is drawn for.
    public private(set) var state = PacingState()
    /// What is remembered about each output, by name.
    private var ledger = OutputLedger()
    /// The frame rendered ahead while the state is `held`.
    private var heldFrame: PacedFrame?

    /// Frames handed to `display.present` (one per output presented; outputs without damage are not).
    public private(set) var framesPresented = 0
    /// Refresh boundaries skipped because rendering and presenting the previous frame overran them.
    public private(set) var missedFrames = 0
    /// What the last `present` reported (diagnostics: `.timer` on QEMU's drivers).
    public private(set) var lastTiming: PresentTiming?
    /// Hotplug notifications that changed the outputs.
    public private(set) var outputChanges = 0
    /// How animation frames are timed: `.auto` follows vblank stamps when `present` gives them and a
    /// timer grid otherwise; `.timer` always uses the grid; `.vblank` is `.auto` that says once in
    /// the log when the display gives no stamps.
    public var pacing: FramePacing = .auto
    /// The refresh interval in ns to pace at instead of the display's (a profile's `refresh`).
    public var frameIntervalOverride: Int64?
    /// The most animation frames a second (the profile's `[hud] max-fps`, `set max-fps`,
    /// `HUDRuntime.maxFramesPerSecond`); nil: one every refresh.
    public var maxFramesPerSecond: Int32? {
        didSet { if let n = maxFramesPerSecond { precondition(n > 0, "max-fps \(n)") } }
    }
    /// The animation interval last told to the scene.
    private var toldInterval: Int64?
    /// While true nothing is rendered or presented and no deadline is set (the VT was switched
    /// away); the loop still runs everything else. Set false and `markDirty` to go on.
    public var isPaused: Bool {
        get { state.isPaused }
        set {
            if newValue { state.pause(); heldFrame = nil } else { state.resume() }
        }
    }

    private weak var loop: EventLoop?
    private var eventDescriptors: Set<Int32> = []
    /// Whether the display's page-flip events wake the loop. With vblank stamps they pace the
    /// frames; paced by timer (QEMU's DRM drivers, whose flips complete at once) they need not: a
    /// flip still pending when the next frame is due is collected then, without blocking, and only
    /// one still in flight has its card watched until the event comes. One wake-up a frame, not two.
    private var flipEventsWake = true
    /// How long a due frame waits for page-flip events before it is drawn anyway.
    public var flipWaitNanoseconds: Int64 = 1_000_000_000
    /// Page flips given up after the flip wait (their events never came).
    public private(set) var flipsAbandoned = 0
    /// Frames rendered ahead and held until their vblank (capped pacing with stamps).
    public private(set) var framesRenderedAhead = 0
    private var missedSinceLog = 0
    private var lastMissLog: Int64?
    private var saidNoVBlank = false
    /// The display's events last failed (logged once until they succeed).
    private var offLoopFailing = false

    /// How soon presenting is tried again while DRM master is held by another process.
    public static let masterRetryNanoseconds: Int64 = 250_000_000
    /// Missed-frame messages are logged at most this often (one line sums up the interval).
    public static let missLogIntervalNanoseconds: Int64 = 1_000_000_000

    public init(display: any Display, scene: any PacedScene, clock: @escaping () -> Int64, log: @escaping (String) -> Void) {
        self.display = display; self.scene = scene; self.clock = clock; self.log = log
    }

    /// Makes `loop` draw this scheduler's frames and follow the display's hotplug descriptor and
    /// its page-flip events.
    public func attach(to loop: EventLoop) throws {
        loop.frames = self
        self.loop = loop
        try watchEventDescriptors()
        guard let hotplug = display.hotplugDescriptor else { return }
        try loop.watch(hotplug) { [unowned self, unowned loop] _ in
            do {
                try refreshOutputs()
                try watchEventDescriptors()
            } catch {
                // The HUD stays up on the outputs it has; a descriptor that keeps failing must not
                // make the loop spin, so it is no longer watched.
                loop.unwatch(hotplug)
                log("hotplug: \(error); outputs are no longer followed")
            }
        }
    }

    /// Watches the display's event descriptors as they are now (cards come and go with hotplug),
    /// or none while flip events need not wake the loop.
    private func watchEventDescriptors() throws {
        guard let loop else { return }
        let now = flipEventsWake ? Set(display.eventDescriptors) : []
        for fd in eventDescriptors.subtracting(now) { loop.unwatch(fd) }
        for fd in now.subtracting(eventDescriptors) {
            try loop.watch(fd) { [unowned self] readiness in displayEvents(on: readiness.descriptor) }
        }
        eventDescriptors = now
    }

    /// Page flips completed: a frame that waited for them is drawn in this turn.
    private func displayEvents(on descriptor: Int32) {
        handleEvents(on: descriptor)
        if state.flipWait != nil && !anyFlipPending { state.flipsCame() }
    }

    /// A call the display finished off the loop can fail after present returned (a legacy modeset
    /// refused, master lost meanwhile): every output is owed its whole frame and presenting is
    /// tried again soon, as when present fails. Logged once until the display's events are
    /// handled without a failure again.
    private func handleEvents(on descriptor: Int32) {
        do {
            try display.handleEvents(on: descriptor)
            offLoopFailing = false
        } catch {
            if !offLoopFailing { log("display events on descriptor \(descriptor): \(error)") }
            offLoopFailing = true
            if case .closed = error { return }
            for o in display.outputs { ledger.owe(o.name) }
            guard !state.isPaused else { return }
            heldFrame = nil
            state.failed(retryAt: clock() + Self.masterRetryNanoseconds)
        }
    }

    /// Whether an output has a page flip in flight (asked at every due frame: no list is built).
    private var anyFlipPending: Bool { display.outputs.indices.contains { display.isFlipPending(output: $0) } }

    /// The next boundary, scheduled change or retry; nil while paused or with nothing scheduled.
    public var pendingDeadline: Int64? { state.phaseDeadline }

    /// When the loop must wake for the next frame: at once when a change waits to be drawn and no
    /// animation will draw it at its next boundary; while a due frame waits for page flips, when
    /// that wait is given up.
    public var nextFrameDeadline: Int64? { state.nextDeadline }

    /// Draws a frame when one is due at `now`: something changed (and no animation boundary is
    /// pending), or the deadline has passed. A due frame waits while an output's page flip is in
    /// flight (its event arrives on the loop, see `attach`), at most `flipWaitNanoseconds`; then it
    /// is drawn anyway: the display is told to give up the flip that never came, so present does
    /// not wait for it a second time.
    public func frameIfDue(at now: Int64) throws {
        if let wait = state.flipWait {
            if wait.until != nil {
                guard state.flipWaitExpired(at: now) else { return }
                // Given up here, on the loop's own timeout: present must not wait for it again.
                let lost = display.outputs.indices.filter { display.isFlipPending(output: $0) }
                for i in lost { display.abandonFlip(output: i) }
                flipsAbandoned += lost.count
                log("frame scheduler: no page-flip event for \(flipWaitNanoseconds / 1_000_000) ms; presenting anyway")
            }
        } else {
            guard state.isDue(at: now) else { return }
            var pending = anyFlipPending
            if pending && !flipEventsWake {
                for fd in display.eventDescriptors { handleEvents(on: fd) }
                pending = anyFlipPending
            }
            if pending {
                state.waitForFlips(until: now + flipWaitNanoseconds)
                if !flipEventsWake {
                    flipEventsWake = true  // the flip is still in flight: its event ends the wait
                    try watchEventDescriptors()
                }
                return
            }
        }
        try renderAndPresent()
    }

    /// The scene changed: drawn in this turn, or at the next boundary while an animation runs.
    public func markDirty() { state.markDirty() }

    /// A change is waiting for its frame (a snapshot taken now would not show it yet).
    public var hasUndrawnChange: Bool { state.hasUndrawnChange }

    /// Re-reads the display's outputs (after a hotplug notification); on a change the scene lays
    /// out for the new set and the next frame is drawn at once (a new output must show the HUD
    /// within a second, and may be waiting for its first picture).
    public func refreshOutputs() throws(DisplayError) {
        let before = Set(display.outputs.map(\.name))
        let noticed = clock()
        guard try display.refreshOutputs() else { return }
        outputChanges += 1
        let outputs = display.outputs
        // A new output is owed its whole frame: the scene may hand it a frame already drawn.
        for o in outputs where !before.contains(o.name) {
            ledger.arrived(o.name, at: noticed)
            ledger.owe(o.name)
        }
        log("outputs changed: " + (outputs.isEmpty ? "none" : outputs.map { "\($0.name) \($0.frameWidth)x\($0.frameHeight)" }.joined(separator: ", ")))
        scene.outputsChanged(outputs)
        state.outputsChanged()
    }

    /// Renders the due frame (or takes the one held for now) and presents it on every output.
    private func renderAndPresent() throws(DisplayError) {
        let (paced, changed) = state.beginFrame()
        let start = clock()
        ledger.settle(at: start)
        let interval = animationIntervalNanoseconds
        if toldInterval != interval {
            toldInterval = interval
            scene.animationIntervalChanged(interval)
        }
        let frame: PacedFrame
        if state.takeHeld(), let h = heldFrame {
            heldFrame = nil
            // Rendered ahead: presented as it is, or with a change that came meanwhile drawn in (at
            // the boundary's instant, which HUD time has already reached).
            frame = changed ? PacedFrame.merged(h, scene.frame(at: paced ?? start)) : h
        } else if let presentAt = state.renderAhead(for: paced), let paced {
            // A boundary whose frame is rendered ahead: drawn for it, presented at `presentAt`
            // unless the render took until then.
            frame = scene.frame(at: paced)
            if clock() < presentAt && frame.animating && state.hold() {
                heldFrame = frame
                framesRenderedAhead += 1
                return
            }
        } else {
            frame = scene.frame(at: paced.map { min($0, start) } ?? start)
        }
        state.presenting()
        let (timing, presented, failure) = present(frame)
        if let failure, presented == 0 {
            // Another process holds DRM master, a card went away, a flip was lost: not fatal (each
            // output logged its failure once); try again soon even while nothing changes. Only a
            // closed display never comes back.
            if case .closed = failure { throw failure }
            state.failed(retryAt: clock() + Self.masterRetryNanoseconds)
            return
        }
        if let timing {
            lastTiming = timing
            // Stamps pace the frames by the flips' events; without them a flip is collected when
            // the next frame is due.
            let wake = timing != .timer
            if wake != flipEventsWake {
                flipEventsWake = wake
                do { try watchEventDescriptors() } catch {
                    log("frame scheduler: watching the display's events: \(error)")
                }
            }
        }
        let end = clock()
        if frame.animating {
            if pacing == .vblank, let timing, !Self.isVBlank(timing), !saidNoVBlank {
                saidNoVBlank = true
                log("frame scheduler: vblank pacing asked for, but the display gives no vblank timestamps; pacing by timer")
            }
            let (next, skipped) = state.nextAnimation(
                timing: timing, byStamps: pacing != .timer, refresh: frameIntervalNanoseconds,
                refreshesPerFrame: refreshesPerFrame, renderedAt: start, dueAt: paced, finishedAt: end)
            if skipped > 0 { noteMissed(skipped, at: end, took: end - start) }
            state.animates(next)
            // Paced by flips at every refresh, the next frame waits for the flip just queued: its
            // event wakes the loop and the frame is drawn in that turn, for the same boundary. A
            // timer at the boundary mostly found the flip still in flight, and the loop then ran
            // two turns a frame, the timer's for nothing (spinner-profile.py). The wait's end (a
            // lost flip) moves a quarter of it at a time, so its timer is re-armed every 15th frame.
            if refreshesPerFrame == 1, pacing != .timer, flipEventsWake, let timing, Self.isVBlank(timing), anyFlipPending {
                let step = max(flipWaitNanoseconds / 4, 1)
                state.waitForFlips(until: (end + flipWaitNanoseconds) / step * step + step)
            }
        } else {
            var wake = frame.nextChange
            if let repaint = ledger.nextSettle { wake = min(wake ?? repaint, repaint) }
            if failure != nil {
                // Some outputs failed while others presented: a static scene must still come
                // back on them once they work again.
                let retry = end + Self.masterRetryNanoseconds
                wake = min(wake ?? retry, retry)
            }
            state.settled(wakeAt: wake)
            // No next frame will collect a flip still in flight: its event is heard when it comes,
            // so that a call the display finished off the loop and that failed (a legacy modeset)
            // is tried again, not left until the next change.
            if !flipEventsWake && anyFlipPending {
                flipEventsWake = true
                do { try watchEventDescriptors() } catch {
                    log("frame scheduler: watching the display's events: \(error)")
                }
            }
        }
    }

    /// Presents `frame` on each output it names that the display has. Returns the timing that
    /// paces the next frame, how many outputs took it, and the first failure.
    private func present(_ frame: PacedFrame) -> (PresentTiming?, Int, DisplayError?) {
        var timing: PresentTiming?
        var failure: DisplayError?
        var presented = 0
        let outputs = display.outputs
        for k in frame.outputs.indices {
            let name = frame.outputs[k].name
            // An output whose last present failed gets its whole frame: what it shows is unknown.
            let owed = ledger.owesWholeFrame(name)
            if !owed && frame.outputs[k].damage.isEmpty { continue }
            // Usually the display's output at the same place; an output gone since is skipped.
            guard let i = k < outputs.count && outputs[k].name == name ? k : outputs.firstIndex(where: { $0.name == name }) else { continue }
            let pixels = scene.pixels(output: k)
            let damage = owed ? [pixels.bounds] : frame.outputs[k].damage
            // One output failing (unplugged under us, master lost) must not stop the others.
            do {
                let t = try display.present(pixels, damage: damage, output: i)
                // Outputs share one grid: the first vblank stamp paces it (else the first timing).
                if timing == nil || (Self.isVBlank(t) && !Self.isVBlank(timing!)) { timing = t }
                presented += 1
                framesPresented += 1
                let (noticed, recovered) = ledger.presented(name)
                if let noticed {
                    let now = clock()
                    log("output \(name): first frame \((now - noticed) / 1_000_000) ms after its hotplug notice")
                    if display.showsOnRealScreen { ledger.settling(name, at: now) }
                }
                if recovered { log("output \(i) (\(name)): presenting again") }
            } catch {
                // Logged once until it works again, not at every frame.
                if ledger.failed(name) { log("output \(i) (\(name)): present failed: \(error)") }
                if failure == nil { failure = error }
            }
        }
        return (timing, presented, failure)
    }

    private static func isVBlank(_ t: PresentTiming) -> Bool {
        if case .vblank = t { return true }
        return false
    }

    private func noteMissed(_ count: Int, at now: Int64, took: Int64) {
        missedFrames += count
        missedSinceLog += count
        if let last = lastMissLog, now - last < Self.missLogIntervalNanoseconds { return }
        let since = lastMissLog.map { " in the last \((now - $0) / 1_000_000) ms" } ?? ""
        log("frame scheduler: missed \(missedSinceLog) frame(s)\(since) (\(missedFrames) in all); "
            + "the last frame took \(took / 1_000_000) ms, refresh interval \(frameIntervalNanoseconds / 1_000) us")
        missedSinceLog = 0
        lastMissLog = now
    }
}
