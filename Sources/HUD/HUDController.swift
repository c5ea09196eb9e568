// SPDX-License-Identifier: MIT
// The HUD's behaviour engine: applies `HUDCommand`s in order on a virtual clock and answers what the
// HUD looks like at any instant and which events happened when.
//
// SVProgressHUD (reference A1-A5) is the default; MBProgressHUD's rules (B3) apply while
// `appearance.usesMBBehaviour` (an MB mode is set). Both libraries run on iOS's main thread: every
// SV `show*`/`dismiss*` is enqueued on the main queue and runs asynchronously, `popActivity` and
// `setStatus:` run at once, and timers (NSTimer, `dispatch_after`, animation completions) run on the
// main run loop. Here one thread owns the controller and applies each command at its instant, in
// arrival order: that is exactly what the main queue does with the block when nothing else is
// queued, so "asynchronous" only means "after the timers already due", which `apply` honours.
//
// Files: this one holds the API, command dispatch and the presentation; +SV and +MB hold each
// library's rules; +Timers holds the clock work (timers, animation groups and their completions).
import HUDProtocol
import Raster

public final class HUDController {
    public let clock: Clock
    /// The current settings (`set` commands change them; `reset` restores the defaults).
    public internal(set) var appearance: HUDAppearance {
        didSet { atRest = nil }
    }
    /// Every event so far, in order, with its virtual time.
    public private(set) var events: [HUDEvent] = []
    /// SV's activity count (A3). Always 0 in MB behaviour, which has no count.
    public internal(set) var activityCount = 0

    // Shared animated state. SV: `alpha` is every alpha SV fades together (HUD, content, backdrop
    // view); `backdrop` moves with it. MB: `alpha` is the bezel's, `backdrop` the background view's.
    var alpha = AnimatedValue(.zero)
    var backdrop = AnimatedValue(.zero)
    var scale = AnimatedValue(.one)
    var timers = TimerQueue<TimerAction>()
    var nextGroup = 1
    /// The instant the current command or timer runs at (a timer that fell due before `clock.now`
    /// runs at its own instant: its events and animations are stamped with it).
    var time: Instant
    /// The status label's text (SV) or MB's label; nil or empty hides it.
    var statusText: String?
    /// Where an image shown with `--support` sends a person (the board profile's `[updates]
    /// support-url` and device id); nil: such an image shows no code.
    public var support: SupportAddress? {
        didSet { if support != oldValue { atRest = nil } }
    }
    /// The address the HUD shows as a QR code under its text: set by an image with `support`, kept
    /// by a status change, cleared by anything else that shows (SupportAddress.swift).
    var supportCode: String?
    /// MB's button is held (a touch on it, or Enter/Space): set by whoever reads input.
    public var isButtonHighlighted = false {
        didSet { if isButtonHighlighted != oldValue { atRest = nil } }
    }
    /// A prompt on the HUD (set by whoever reads its keys): while set, the HUD shows it at full
    /// opacity over whatever it showed, which comes back when it is cleared.
    public var entry: HUDEntry? {
        didSet { if entry != oldValue { atRest = nil } }
    }
    /// The last presentation made afresh while nothing was fading or zooming: until a command, a
    /// timer or the button changes something, the HUD at a later instant differs from it only in
    /// the indicator's time, which is all `presentation()` and `restingIndicator()` then work out
    /// (a spinner's frame builds no appearance and compares none).
    private var atRest: HUDPresentation?
    /// Changes whenever `presentation()` is made afresh: two presentations of one generation
    /// differ only in the indicator's time (a renderer may skip comparing the rest).
    public private(set) var presentationGeneration: UInt64 = 0
    var sv = SVState()
    var mb = MBState()

    public init(clock: Clock, appearance: HUDAppearance = HUDAppearance()) {
        self.clock = clock
        self.appearance = appearance
        statusText = appearance.label
        time = clock.now
    }

    /// SV's `dismissWithDelay:` cannot be cancelled, so every delayed dismiss stays pending until
    /// it fires; past this many a new one is refused (`refusal(of:)`) instead of letting input
    /// grow the timer queue without bound.
    public static let maxPendingDismissals = 256

    /// Why `command` must not be applied now, nil when it may: the one bound input could otherwise
    /// push past (pending SV delayed dismissals). The runtime refuses such a command with this
    /// message and changes nothing.
    public func refusal(of command: HUDCommand) -> String? {
        guard case .dismiss(let delay) = command, delay > .zero, !appearance.usesMBBehaviour else { return nil }
        update()
        let pending = timers.count { if case .svDelayedFadeOut = $0 { return true } else { return false } }
        guard pending >= Self.maxPendingDismissals else { return nil }
        return "dismiss \(delay): \(pending) delayed dismissals are pending already (at most \(Self.maxPendingDismissals)); send it when one has fired"
    }

    /// Timers pending (SV's and MB's timers, animation completions).
    public var pendingTimers: Int { timers.count }

    /// Applies `command` at `clock.now`, after firing every timer due up to then; timers the
    /// command makes due at once (a zero delay) fire before this returns.
    public func apply(_ command: HUDCommand) {
        update()
        atRest = nil
        time = clock.now
        let mbMode = appearance.usesMBBehaviour
        switch command {
        case .show, .progress, .image, .reset: supportCode = nil
        case .status, .dismiss, .pop, .set: break
        }
        switch command {
        case .show(let status):
            if mbMode { mbShow(status: status) } else { svShowProgress(-.one, status: status) }
        case .progress(let fraction, let status):
            if mbMode { mbProgress(fraction, status: status) } else { svShowProgress(fraction, status: status) }
        case .image(let kind, let status, let stays, let withSupport):
            if withSupport, let support { supportCode = support.address(error: status ?? "") }
            if mbMode { mbImage(kind, status: status) } else { svShowImage(kind, status: status, stays: stays) }
        case .status(let text):
            statusText = text  // SV setStatus: / MB label.text: the text only, synchronously
        case .dismiss(let delay):
            if mbMode { mbHide(afterDelay: delay) } else { svDismiss(delay: delay) }
        case .pop:
            if mbMode { mbHide() } else { svPopActivity() }
        case .reset:
            reset()
        case .set(let setting):
            appearance.apply(setting)
            if case .label = setting { statusText = appearance.label }
        }
        update()
    }

    /// Fires every timer due up to `clock.now`, in time order (call after advancing the clock;
    /// `presentation()` and `nextEventTime()` call it too).
    public func update() {
        let now = clock.now
        while let entry = timers.popDue(upTo: now) {
            time = entry.fire
            atRest = nil
            fire(entry.action)
        }
        time = now
    }

    /// While the HUD is at rest (only the indicator's time moves: `presentationGeneration`
    /// stays), the indicator at `clock.now` and whether the HUD animates; nil when a presentation
    /// must be made. A spinner's frame needs no more, and copying the presentation would retain
    /// each of the few dozen strings and arrays in its appearance.
    public func restingIndicator() -> (indicator: HUDPresentation.Indicator, isAnimating: Bool)? {
        update()
        guard let animating = atRest?.isAnimating else { return nil }
        return (appearance.usesMBBehaviour ? mbIndicator(at: time) : svIndicator(at: time), animating)
    }

    /// What a frame at `clock.now` draws for outputs that show generation `showing` decides:
    /// the indicator alone while the HUD rests and they all show the current generation (see
    /// `restingIndicator`), the whole presentation otherwise.
    public func frameContent(showing: (UInt64) -> Bool) -> HUDFrameContent {
        if let rest = restingIndicator(), showing(presentationGeneration) {
            return .indicator(rest.indicator, isAnimating: rest.isAnimating)
        }
        return .presentation(presentation())
    }

    /// The status text `presentation()` shows (nil for none), without making the presentation.
    public var status: String? {
        update()
        return Self.nonEmpty(statusText)
    }

    /// The HUD at `clock.now`.
    public func presentation() -> HUDPresentation {
        update()
        if var p = atRest {
            p.indicator = appearance.usesMBBehaviour ? mbIndicator(at: time) : svIndicator(at: time)
            return p
        }
        let (p, moving) = build()
        presentationGeneration &+= 1
        atRest = moving ? nil : p
        return p
    }

    /// The HUD at `clock.now` with every property worked out, as `presentation()` must equal.
    func presentationAfresh() -> HUDPresentation {
        update()
        return build().presentation
    }

    /// The HUD at `time`, and whether anything in it fades or zooms.
    private func build() -> (presentation: HUDPresentation, moving: Bool) {
        let t = time
        var p = HUDPresentation()
        p.appearance = appearance
        p.status = Self.nonEmpty(statusText)
        p.supportCode = supportCode
        p.scale = scale.presented(at: t)
        let container = appearance.usesMBBehaviour ? mb.containerAlpha : .one
        p.alpha = container * alpha.presented(at: t)
        p.backdropAlpha = appearance.mask == .none ? .zero : container * backdrop.presented(at: t)
        if appearance.usesMBBehaviour {
            p.indicator = mbIndicator(at: t)
            p.details = appearance.details
            p.button = appearance.button
            p.buttonHighlighted = isButtonHighlighted && p.button != nil
        } else {
            p.indicator = svIndicator(at: t)
        }
        if let entry {
            // The form, at once and whole: a prompt must not wait for a fade, nor be half seen.
            p.entry = entry
            p.status = entry.prompt
            p.details = nil; p.button = nil; p.buttonHighlighted = false; p.supportCode = nil
            p.indicator = .none
            p.alpha = .one; p.scale = .one
            p.backdropAlpha = appearance.mask == .none ? .zero : .one
            return (p, false)
        }
        let fading = alpha.running(at: t) != nil || backdrop.running(at: t) != nil
        let scaling = scale.running(at: t) != nil
        let zooming = scaling && p.alpha > .zero
        var spinning = false
        switch p.indicator {
        case .spinner, .activity: spinning = p.alpha > .zero
        default: break
        }
        p.isAnimating = fading || zooming || spinning
        return (p, fading || scaling)
    }

    /// The next instant at which the HUD changes or an event happens without a new command (a timer
    /// or the end of an animation); nil when nothing is pending. A spinner needs frames while
    /// `presentation().isAnimating` but schedules nothing here.
    public func nextEventTime() -> Instant? {
        update()
        let ends = [alpha, backdrop, scale].compactMap { $0.running(at: time)?.end }
        return (ends + [timers.nextFire].compactMap { $0 }).min()
    }

    /// SV: `isVisible`, the backdrop view's (model) alpha > 0 (A1). MB: shown or appearing, i.e.
    /// the HUD's and the bezel's model alphas are > 0.
    public var isVisible: Bool {
        update()
        if appearance.usesMBBehaviour { return mb.containerAlpha > .zero && alpha.model > .zero }
        return backdrop.model > .zero
    }

    /// The generation of the presentation the HUD rests on, after firing the timers due: while it
    /// stays the same, nothing but the indicator's time has changed (visibility and status
    /// included). Nil while something moves, or changed since the last presentation was made.
    public var restingGeneration: UInt64? {
        update()
        // One field through the optional: `atRest == nil` copied the whole presentation.
        return atRest?.isAnimating == nil ? nil : presentationGeneration
    }

    /// Whether the HUD may have changed since `watch` last asked (anything but the indicator's
    /// time): what a step looking at visibility or status each turn asks first. One look at
    /// `restingGeneration` a turn.
    public func hasMoved(since watch: inout RestWatch) -> Bool {
        let g = restingGeneration
        defer { watch.generation = g }
        return g == nil || g != watch.generation
    }

    /// The events since the last drain, removed from `events`.
    public func drainEvents() -> [HUDEvent] {
        update()
        defer { events.removeAll() }
        return events
    }

    /// Back to the default appearance, hidden at once, every timer and animation dropped, no events.
    func reset() {
        // The writing direction is the locale's (or the profile's), not part of SV's look: it stays.
        let direction = appearance.textDirection
        appearance = HUDAppearance()
        appearance.textDirection = direction
        alpha = AnimatedValue(.zero)
        backdrop = AnimatedValue(.zero)
        scale = AnimatedValue(.one)
        timers.removeAll()
        activityCount = 0
        statusText = nil
        sv = SVState()
        mb = MBState()
    }

    func post(_ kind: HUDEvent.Kind) {
        events.append(HUDEvent(time: time, kind: kind, status: Self.nonEmpty(statusText)))
    }

    /// Empty text is treated as none (A6: "Empty text is untested; treat it as nil").
    static func nonEmpty(_ s: String?) -> String? {
        guard let s, !s.isEmpty else { return nil }
        return s
    }
}

/// What `HUDController.hasMoved(since:)` remembers for one watcher: the resting generation it saw.
public struct RestWatch {
    fileprivate var generation: UInt64?
    public init() {}
}
