// SPDX-License-Identifier: MIT
// The frame scheduler's state machine, as a value: which phase pacing is in, when the next frame is
// due and what instant it is drawn for. It renders, presents and logs nothing; FrameScheduler does
// what it says, and PacingStateTests walk it transition by transition on plain numbers.
//
//            pause (any phase)                 resume
//   paused ◀────────────────────    paused ─────────▶ idle
//
//   idle ──static frame──▶ idle(at its next change)       any ──no output took it──▶ failed
//   idle / failed ──animating frame──▶ animating ──static frame──▶ idle
//   animating ──frame rendered ahead──▶ held ──presented at its time──▶ animating
//
// A due frame whose output still has a page flip in flight waits for its event: `flipWait` is set
// over the phase, which stays as it was (a held frame is still held); the flips' events or the
// wait's timeout end it, and the frame is drawn for the boundary it was due at.
import Display

public struct PacingState: Equatable {
    public enum Phase: Equatable {
        /// The VT is switched away: nothing is drawn and nothing is due.
        case paused
        /// A static picture: a frame is due on a change, or at `wakeAt` (its next scheduled change, a
        /// new output's settle repaint, a failing output's retry), if any.
        case idle(wakeAt: Int64?)
        /// No output took the last frame (another process holds DRM master, the card went away):
        /// tried again at `retryAt`, changed or not.
        case failed(retryAt: Int64)
        /// An animation runs: its next frame is drawn for `next.boundary`, rendered at `next.renderAt`.
        case animating(Animation)
        /// The frame for `next.boundary` was rendered ahead and is presented at `next.presentAt`
        /// (the scheduler keeps the frame: the state stays plain numbers, cheap to copy).
        case held(Animation)
    }

    /// Where a running animation's next frame falls.
    public struct Animation: Equatable {
        /// The refresh boundary the next frame is drawn for.
        public var boundary: Int64
        /// When it is rendered: at the boundary, or up to two refreshes before when rendered ahead.
        public var renderAt: Int64
        /// When a frame rendered ahead is presented (capped, with vblank stamps); nil otherwise.
        public var presentAt: Int64?
        /// The last vblank stamp of this animation (missed-frame counting).
        public var lastStamp: Int64?

        public init(boundary: Int64, renderAt: Int64? = nil, presentAt: Int64? = nil, lastStamp: Int64? = nil) {
            self.boundary = boundary; self.renderAt = renderAt ?? boundary; self.presentAt = presentAt; self.lastStamp = lastStamp
        }
    }

    /// A due frame waiting for page-flip events.
    public struct FlipWait: Equatable {
        /// When the wait is given up; nil once the flips came (the frame is drawn in this turn).
        public var until: Int64?
        /// The animation boundary the frame is drawn for; nil: the instant it is rendered at.
        public var pacedTo: Int64?

        public init(until: Int64?, pacedTo: Int64?) { self.until = until; self.pacedTo = pacedTo }
    }

    public private(set) var phase: Phase = .idle(wakeAt: nil)
    /// Set while a due frame waits for page flips; the phase underneath is kept.
    public private(set) var flipWait: FlipWait?
    /// A change waits for its frame.
    public private(set) var dirty = true
    /// A frame is drawn in the next turn even during an animation (new outputs after a hotplug).
    public private(set) var forced = false

    public init() {}

    public var isPaused: Bool { phase == .paused }

    /// The running animation's next frame (animating or held); nil when none runs.
    public var animation: Animation? {
        switch phase {
        case .animating(let a), .held(let a): return a
        default: return nil
        }
    }

    /// When the phase is due again by itself (not counting changes or a flip wait).
    public var phaseDeadline: Int64? {
        switch phase {
        case .paused: return nil
        case .idle(let at): return at
        case .failed(let at): return at
        case .animating(let a): return a.renderAt
        case .held(let a): return a.presentAt
        }
    }

    /// When the loop must wake for the next frame: `.min` when one is due at once, the flip wait's
    /// end while one runs, nil for never (paused, or static with nothing scheduled).
    public var nextDeadline: Int64? {
        if isPaused { return nil }
        if let w = flipWait { return w.until ?? .min }
        if forced || (dirty && animation == nil) { return .min }
        return phaseDeadline
    }

    /// A change is waiting for its frame (a snapshot taken now would not show it yet).
    public var hasUndrawnChange: Bool {
        !isPaused && (dirty || forced || (flipWait != nil && flipWait?.until == nil))
    }

    /// Whether a frame is due at `now`: a change with no animation boundary ahead to draw it, a
    /// forced frame, or the phase's deadline passed. Never while paused or waiting for flips.
    public func isDue(at now: Int64) -> Bool {
        guard !isPaused, flipWait == nil else { return false }
        return forced || (dirty && animation == nil) || phaseDeadline.map { now >= $0 } == true
    }

    // MARK: transitions

    /// The VT was switched away: everything planned is dropped; a change stays owed.
    public mutating func pause() { phase = .paused; flipWait = nil }

    /// The VT came back: idle, with whatever change is owed.
    public mutating func resume() { if isPaused { phase = .idle(wakeAt: nil) } }

    /// The scene changed: drawn at once, or at the next boundary while an animation runs.
    public mutating func markDirty() { dirty = true }

    /// The display's outputs changed: a frame is drawn in the next turn, animation or not.
    public mutating func outputsChanged() { dirty = true; forced = true }

    /// The due frame waits for page flips in flight, at most until `until`.
    public mutating func waitForFlips(until: Int64) {
        flipWait = FlipWait(until: until, pacedTo: forced ? nil : animation?.boundary)
    }

    /// The flips the frame waited for came: it is drawn in this turn.
    public mutating func flipsCame() { if flipWait?.until != nil { flipWait?.until = nil } }

    /// Whether a flip wait has run out at `now` (its flips are then given up).
    public func flipWaitExpired(at now: Int64) -> Bool { flipWait?.until.map { now >= $0 } ?? false }

    /// A frame begins: returns the animation boundary it is drawn for (nil: the instant it is
    /// rendered at) and whether a change came with it. The flip wait and the forced frame end here.
    public mutating func beginFrame() -> (pacedTo: Int64?, changed: Bool) {
        let paced = flipWait.map(\.pacedTo) ?? (forced ? nil : animation?.boundary)
        let changed = dirty
        flipWait = nil
        forced = false
        dirty = false
        return (paced, changed)
    }

    /// Whether a frame is held; if so it is taken to be presented now, and the animation goes on
    /// toward its boundary.
    public mutating func takeHeld() -> Bool {
        guard case .held(var next) = phase else { return false }
        next.presentAt = nil
        phase = .animating(next)
        return true
    }

    /// When the frame for `boundary` is presented if it is the one to render ahead; nil otherwise.
    public func renderAhead(for boundary: Int64?) -> Int64? {
        guard case .animating(let next) = phase, let at = next.presentAt, let boundary, boundary == next.boundary else { return nil }
        return at
    }

    /// The frame rendered ahead is held until the animation's `presentAt`. Returns whether it is
    /// (only a frame planned ahead is).
    public mutating func hold() -> Bool {
        guard case .animating(let next) = phase, next.presentAt != nil else { return false }
        phase = .held(next)
        return true
    }

    /// The frame is being presented: a present time planned for it no longer applies.
    public mutating func presenting() {
        if case .animating(var next) = phase, next.presentAt != nil {
            next.presentAt = nil
            phase = .animating(next)
        }
    }

    /// No output took the frame: tried again at `retryAt`.
    public mutating func failed(retryAt: Int64) { dirty = false; phase = .failed(retryAt: retryAt) }

    /// A static frame was presented: due again at `wakeAt`, if anything is scheduled.
    public mutating func settled(wakeAt: Int64?) { phase = .idle(wakeAt: wakeAt) }

    /// An animation frame was presented: the next one falls at `next`.
    public mutating func animates(_ next: Animation) { phase = .animating(next) }

    // MARK: where the next animation frame falls

    /// The next animation frame after one rendered at `start` (due at the boundary `due`, if any)
    /// that finished presenting at `end` with `timing`, and the boundaries it skipped (missed frames).
    ///
    /// With vblank stamps (`byStamps`: pacing allows them): at the stamp, the moment a buffer became
    /// free - present returns right after a vblank (fbdev's FBIO_WAITFORVSYNC waits for this
    /// frame's, DRM waits for the previous flip's event before committing this frame), so the next
    /// frame is drawn at once and makes the following vblank; never sooner than 3/4 of a refresh
    /// after this frame began, so a display whose stamps come back at once cannot make the loop
    /// spin. Flips more than one interval apart are missed frames. Without stamps: the first
    /// boundary after `end` on the grid that started at the animation's first frame; boundaries
    /// already passed are missed. Under a cap the grid's step is k refreshes, and with stamps the
    /// next frame is drawn at the vblank that makes it show k refreshes after this one.
    public func nextAnimation(
        timing: PresentTiming?, byStamps: Bool, refresh: Int64, refreshesPerFrame k: Int64,
        renderedAt start: Int64, dueAt due: Int64?, finishedAt end: Int64
    ) -> (next: Animation, skipped: Int) {
        let interval = refresh * k
        let current = animation
        // An extra frame between boundaries (after a hotplug) that presented nothing keeps the
        // pending boundary.
        if timing == nil, let pending = current, pending.boundary > end {
            return (Animation(boundary: pending.boundary, lastStamp: pending.lastStamp), 0)
        }
        if case .vblank(let stamp)? = timing, byStamps {
            var skipped = 0
            if let last = current?.lastStamp { skipped = max(Int(clamping: (stamp - last + interval / 2) / interval) - 1, 0) }
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
                let ahead = min(k - 2, 2)
                if ahead > 0 {
                    let renderAt = max(next - ahead * refresh, end)
                    return (Animation(boundary: next, renderAt: renderAt, presentAt: next + refresh / 4, lastStamp: stamp), skipped)
                }
            }
            return (Animation(boundary: next, lastStamp: stamp), skipped)
        }
        let base = current?.boundary ?? start
        var next = base + interval
        var skipped = 0
        if end >= next {
            skipped = Int(clamping: (end - base) / interval)
            next = base + Int64(skipped + 1) * interval
        }
        return (Animation(boundary: next, lastStamp: current?.lastStamp), skipped)
    }
}
