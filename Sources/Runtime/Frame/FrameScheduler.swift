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
// one; paced by timer, a completed flip is collected when the next frame is due.
//
// One scheduler drives every output of a display: the scene keeps one frame per output (the HUD
// laid out for each resolution) and each is presented with `present(_:damage:output:)`. When the
// display's hotplug descriptor (which the scheduler watches on the loop) fires, it refreshes the
// outputs and tells the scene, which draws a new output completely in a frame drawn at once.
import Display
import Raster

public final class FrameScheduler: LoopFrameSource {
    public let display: any Display
    public let scene: any PacedScene
    private let clock: () -> Int64
    private let log: (String) -> Void

    /// Frames handed to `display.present` (one per output presented; outputs without damage are not).
    public private(set) var framesPresented = 0
    /// Outputs that came with a hotplug and have not shown a frame yet, with when it was noticed.
    private var newOutputs: [String: Int64] = [:]
    /// New outputs owed their whole frame again at this instant: a card that just appeared is
    /// also being set up by the kernel's fbdev emulation and console, which may set a mode under
    /// our first frame (bochs clears its video memory on every mode change). Real screens only.
    private var settleRepaints: [String: Int64] = [:]
    static let settleRepaintNanoseconds: Int64 = 1_000_000_000
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
    public var isPaused = false {
        didSet {
            if isPaused { deadline = nil; boundary = nil; animating = false; flipWaitDeadline = nil; flipWaitBoundary = nil; held = nil; presentAt = nil }
        }
    }

    private var dirty = true
    private weak var loop: EventLoop?
    private var eventDescriptors: Set<Int32> = []
    /// Whether the display's page-flip events wake the loop. With vblank stamps they pace the
    /// frames; paced by timer (QEMU's DRM drivers, whose flips complete at once) they need not: a
    /// flip still pending when the next frame is due is collected then, without blocking, and only
    /// one still in flight has its card watched until the event comes. One wake-up a frame, not two.
    private var flipEventsWake = true
    /// Set while a due frame waits for page flips: when the wait is given up.
    private var flipWaitDeadline: Int64?
    /// The animation boundary the frame waiting for page flips was due at: drawn for it.
    private var flipWaitBoundary: Int64?
    /// How long a due frame waits for page-flip events before it is drawn anyway.
    public var flipWaitNanoseconds: Int64 = 1_000_000_000
    /// Page flips given up after the flip wait (their events never came).
    public private(set) var flipsAbandoned = 0
    /// A frame is drawn in the next turn even during an animation (new outputs after a hotplug).
    private var forced = false
    private var animating = false
    /// The refresh boundary the current animation frame was paced to; nil when not animating, so
    /// the next animation starts a new grid at its first frame.
    private var boundary: Int64?
    private var deadline: Int64?
    /// When the frame of `boundary`, rendered ahead, is presented (capped, with vblank stamps).
    private var presentAt: Int64?
    /// A frame rendered ahead and not presented yet: its damage is presented at `presentAt`.
    private var held: PacedFrame?
    /// Frames rendered ahead and held until their vblank (capped pacing with stamps).
    public private(set) var framesRenderedAhead = 0
    private var missedSinceLog = 0
    private var lastMissLog: Int64?
    private var saidNoVBlank = false
    /// Outputs whose last present failed (logged once) and that get a whole frame next time.
    private var failingOutputs: Set<String> = []
    private var owedFullFrame: Set<String> = []

    /// How soon presenting is tried again while DRM master is held by another process.
    public static let masterRetryNanoseconds: Int64 = 250_000_000
    /// The last vblank stamp of the current animation (missed-frame counting).
    private var lastStamp: Int64?

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
        if flipWaitDeadline != nil && !anyFlipPending {
            flipWaitDeadline = nil
            forced = true
        }
    }

    private func handleEvents(on descriptor: Int32) {
        do { try display.handleEvents(on: descriptor) } catch {
            log("display events on descriptor \(descriptor): \(error)")
        }
    }

    private var anyFlipPending: Bool { display.outputs.indices.contains { display.isFlipPending(output: $0) } }

    /// The next boundary, scheduled change or retry; nil while paused or with nothing scheduled.
    public var pendingDeadline: Int64? { deadline }

    /// When the loop must wake for the next frame: at once when a change waits to be drawn and no
    /// animation will draw it at its next boundary; while a due frame waits for page flips, when
    /// that wait is given up.
    public var nextFrameDeadline: Int64? {
        if isPaused { return nil }
        if let flipWaitDeadline { return flipWaitDeadline }
        if forced || (dirty && !animating) { return .min }
        return deadline
    }

    /// Draws a frame when one is due at `now`: something changed (and no animation boundary is
    /// pending), or the deadline has passed. A due frame waits while an output's page flip is in
    /// flight (its event arrives on the loop, see `attach`), at most `flipWaitNanoseconds`; then it
    /// is drawn anyway: the display is told to give up the flip that never came, so present does
    /// not wait for it a second time.
    public func frameIfDue(at now: Int64) throws {
        guard !isPaused else { return }
        if let wait = flipWaitDeadline {
            guard now >= wait else { return }
            flipWaitDeadline = nil
            // Given up here, on the loop's own timeout: present must not wait for it again.
            let lost = display.outputs.indices.filter { display.isFlipPending(output: $0) }
            for i in lost { display.abandonFlip(output: i) }
            flipsAbandoned += lost.count
            log("frame scheduler: no page-flip event for \(flipWaitNanoseconds / 1_000_000) ms; presenting anyway")
        } else {
            let due = forced || (dirty && !animating) || deadline.map { now >= $0 } == true
            guard due else { return }
            var flipPending = anyFlipPending
            if flipPending && !flipEventsWake {
                for fd in display.eventDescriptors { handleEvents(on: fd) }
                flipPending = anyFlipPending
            }
            if flipPending {
                flipWaitDeadline = now + flipWaitNanoseconds
                flipWaitBoundary = animating && !forced ? boundary : nil
                if !flipEventsWake {
                    flipEventsWake = true  // the flip is still in flight: its event ends the wait
                    try watchEventDescriptors()
                }
                return
            }
        }
        // Due at a boundary of the running animation (perhaps after waiting for page flips), not
        // for a change or a hotplug: drawn for it.
        let paced = flipWaitBoundary ?? (animating && !forced ? boundary : nil)
        flipWaitBoundary = nil
        forced = false
        try renderAndPresent(pacedTo: paced)
    }

    /// The refresh interval: the display's (or the profile's override).
    public var frameIntervalNanoseconds: Int64 { max(frameIntervalOverride ?? display.frameIntervalNanoseconds, 1) }

    /// Refreshes per animation frame under the cap: ceil(refresh rate / cap), 1 without a cap.
    public var refreshesPerFrame: Int64 {
        guard let cap = maxFramesPerSecond else { return 1 }
        let refresh = frameIntervalNanoseconds
        let millihertz = (1_000_000_000_000 + refresh / 2) / refresh
        let capMillihertz = Int64(cap) * 1000
        return max(1, (millihertz + capMillihertz - 1) / capMillihertz)
    }

    /// The interval animation frames are paced at: a whole number of refreshes.
    public var animationIntervalNanoseconds: Int64 { frameIntervalNanoseconds * refreshesPerFrame }

    /// Animation frames a second while the cap lowers them (rounded); nil when every refresh is used.
    public var cappedFramesPerSecond: Int32? {
        if refreshesPerFrame == 1 { return nil }
        let interval = animationIntervalNanoseconds
        return Int32(clamping: max(1, (1_000_000_000 + interval / 2) / interval))
    }

    /// The scene changed: drawn in this turn, or at the next boundary while an animation runs.
    public func markDirty() { dirty = true }

    /// A change is waiting for its frame (a snapshot taken now would not show it yet).
    public var hasUndrawnChange: Bool { !isPaused && (dirty || forced) }

    /// Re-reads the display's outputs (after a hotplug notification); on a change the scene lays
    /// out for the new set and the next frame is drawn at once (a new output must show the HUD
    /// within a second, and may be waiting for its first picture).
    public func refreshOutputs() throws(DisplayError) {
        let before = Set(display.outputs.map(\.name))
        let noticed = clock()
        guard try display.refreshOutputs() else { return }
        outputChanges += 1
        let outputs = display.outputs
        for o in outputs where !before.contains(o.name) { newOutputs[o.name] = noticed }
        log("outputs changed: " + (outputs.isEmpty ? "none" : outputs.map { "\($0.name) \($0.frameWidth)x\($0.frameHeight)" }.joined(separator: ", ")))
        scene.outputsChanged(outputs)
        dirty = true
        forced = true
    }

    /// Renders and presents a frame; `paced` is the animation boundary it is due at, if any.
    private func renderAndPresent(pacedTo paced: Int64?) throws(DisplayError) {
        let changed = dirty
        dirty = false
        deadline = nil
        let start = clock()
        // The sets and tables below are empty in nearly every frame: looking a name up in them
        // hashes it, so each is asked only when it holds something.
        if !settleRepaints.isEmpty {
            for (name, due) in settleRepaints where due <= start {
                settleRepaints[name] = nil
                owedFullFrame.insert(name)
            }
        }
        let interval = animationIntervalNanoseconds
        if toldInterval != interval {
            toldInterval = interval
            scene.animationIntervalChanged(interval)
        }
        let frame: PacedFrame
        if let h = held {
            // Rendered ahead: presented as it is, or with a change that came meanwhile drawn in (at
            // the boundary's instant, which HUD time has already reached).
            held = nil
            if changed {
                let again = scene.frame(at: paced ?? start)
                frame = Self.merged(h, again)
                // Outputs came or went meanwhile: what the held damage covered is unknown.
                if h.outputDamage.count != again.outputDamage.count { owedFullFrame.formUnion(display.outputs.map(\.name)) }
            } else {
                frame = h
            }
        } else if let presentAt, let paced, paced == boundary {
            // A boundary whose frame is rendered ahead: drawn for it, presented at `presentAt`
            // unless the render took until then.
            frame = scene.frame(at: paced)
            if clock() < presentAt && frame.animating {
                held = frame
                framesRenderedAhead += 1
                deadline = presentAt
                animating = true
                return
            }
        } else {
            frame = scene.frame(at: paced.map { min($0, start) } ?? start)
        }
        presentAt = nil
        var timing: PresentTiming?
        var failure: DisplayError?
        var presented = 0
        let outputs = display.outputs
        let count = min(frame.outputDamage.count, outputs.count)
        for i in 0..<count {
            let name = outputs[i].name
            // An output whose last present failed gets its whole frame: what it shows is unknown.
            let owed = !owedFullFrame.isEmpty && owedFullFrame.contains(name)
            let damage = owed ? [scene.pixels(output: i).bounds] : frame.outputDamage[i]
            if damage.isEmpty { continue }
            // One output failing (unplugged under us, master lost) must not stop the others.
            do {
                let t = try display.present(scene.pixels(output: i), damage: damage, output: i)
                // Outputs share one grid: the first vblank stamp paces it (else the first timing).
                if timing == nil || (Self.isVBlank(t) && !Self.isVBlank(timing!)) { timing = t }
                presented += 1
                framesPresented += 1
                if owed { owedFullFrame.remove(name) }
                if !newOutputs.isEmpty, let noticed = newOutputs.removeValue(forKey: name) {
                    log("output \(name): first frame \((clock() - noticed) / 1_000_000) ms after its hotplug notice")
                    if display.showsOnRealScreen { settleRepaints[name] = clock() + Self.settleRepaintNanoseconds }
                }
                if !failingOutputs.isEmpty, failingOutputs.remove(name) != nil { log("output \(i) (\(name)): presenting again") }
            } catch {
                // Logged once until it works again, not at every frame.
                if failingOutputs.insert(name).inserted { log("output \(i) (\(name)): present failed: \(error)") }
                owedFullFrame.insert(name)
                if failure == nil { failure = error }
            }
        }
        if let failure, presented == 0 {
            // Another process holds DRM master, a card went away, a flip was lost: not fatal (each
            // output logged its failure once); try again soon even while nothing changes. Only a
            // closed display never comes back.
            if case .closed = failure { throw failure }
            dirty = false
            animating = false
            boundary = nil
            lastStamp = nil
            deadline = clock() + Self.masterRetryNanoseconds
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
        animating = frame.animating
        if frame.animating {
            deadline = nextBoundary(timing: timing, renderedAt: start, dueAt: paced, finishedAt: end)
        } else {
            boundary = nil
            lastStamp = nil
            deadline = frame.nextChange
            if let repaint = settleRepaints.values.min() { deadline = min(deadline ?? repaint, repaint) }
            if failure != nil {
                // Some outputs failed while others presented: a static scene must still come
                // back on them once they work again.
                let retry = end + Self.masterRetryNanoseconds
                deadline = min(deadline ?? retry, retry)
            }
        }
    }

    /// A held frame with a later render of the same picture drawn over it: both damages, the
    /// later frame's animation state.
    static func merged(_ earlier: PacedFrame, _ later: PacedFrame) -> PacedFrame {
        var frame = later
        for (i, rects) in earlier.outputDamage.enumerated() where i < frame.outputDamage.count {
            frame.outputDamage[i] = rects + frame.outputDamage[i]
        }
        return frame
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
    /// Under a cap the timer grid's step is k refreshes, and with stamps the next frame is drawn
    /// at the vblank that makes it show k refreshes after this one.
    private func nextBoundary(timing: PresentTiming?, renderedAt start: Int64, dueAt due: Int64?, finishedAt end: Int64) -> Int64 {
        let refresh = frameIntervalNanoseconds
        let interval = animationIntervalNanoseconds
        // An extra frame between boundaries (after a hotplug) that presented nothing keeps the
        // pending boundary.
        if timing == nil, let pending = boundary, pending > end { return pending }
        if case .vblank(let stamp)? = timing, pacing != .timer {
            if let last = lastStamp, boundary != nil {
                let skipped = Int((stamp - last + interval / 2) / interval) - 1
                if skipped > 0 { noteMissed(skipped, at: end, took: end - start) }
            }
            lastStamp = stamp
            var next = max(stamp, start + refresh - refresh / 4)
            if interval > refresh {
                // Capped: the first vblank (on the stamp's grid) more than k-1 refreshes after the
                // boundary this frame was due at (its start, for a frame due at none). It shows at
                // the vblank after that boundary, so the next one, drawn then, shows k refreshes
                // later, whether present waited for its flip or only queued it; and a loop that
                // woke late does not push every later frame a vblank back (the spinner would run
                // at k+1 refreshes a step). Already past: the first such boundary still ahead.
                let from = min(due ?? start, start)
                let after = from + interval - refresh - stamp
                next = stamp + (after >= 0 ? after / refresh + 1 : 0) * refresh
                if next <= end { next += ((end - next) / interval + 1) * interval }
                // Rendered ahead by up to two refreshes (k - 2: not before a refresh after this
                // frame shows), presented a quarter refresh after the vblank at `next`.
                let ahead = min(refreshesPerFrame - 2, 2)
                if ahead > 0 {
                    boundary = next
                    presentAt = next + refresh / 4
                    return max(next - ahead * refresh, end)
                }
            }
            boundary = next
            return next
        }
        if pacing == .vblank && timing != nil && !saidNoVBlank {
            saidNoVBlank = true
            log("frame scheduler: vblank pacing asked for, but the display gives no vblank timestamps; pacing by timer")
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
        log("frame scheduler: missed \(missedSinceLog) frame(s)\(since) (\(missedFrames) in all); "
            + "the last frame took \(took / 1_000_000) ms, refresh interval \(frameIntervalNanoseconds / 1_000) us")
        missedSinceLog = 0
        lastMissLog = now
    }
}
