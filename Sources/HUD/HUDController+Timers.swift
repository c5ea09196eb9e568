// SPDX-License-Identifier: MIT
// Clock work: the timers both libraries schedule, and UIKit animation groups with their completion
// blocks.
//
// An animation group is one `animateWithDuration:` call: the segments it adds (Timeline.swift) and
// one completion block. UIKit calls the completion once none of the group's animations is left:
// when the last one ends, or earlier when later animations replace or remove them (`finished` is
// NO then, but neither library looks at it). A group that changed nothing gets its completion at
// once (on the next turn of the run loop: the same instant, after the current command). With a
// duration of 0 both libraries skip UIKit and run the block and the completion synchronously.
import HUDProtocol
import Raster

enum TimerAction {
    /// SV's `graceTimer` → `fadeIn:` with the auto-dismiss duration it carries.
    case svGrace(autoDismiss: Interval?)
    /// SV's `fadeOutTimer` → `dismiss`.
    case svAutoDismiss
    /// SV's `dispatch_after(delay)` inside `dismissWithDelay:` (not cancellable).
    case svDelayedFadeOut
    /// MB's `graceTimer`, `minShowTimer`; `hideDelayTimer`, with the `animated` it was set with.
    case mbGrace, mbMinShow
    case mbHideDelay(animated: Bool)
    /// An animation group's completion block; `finished` is UIKit's flag (NO once the group's
    /// animations were replaced or removed).
    case animationDone(group: Int, AnimationCompletion, finished: Bool)
}

enum AnimationCompletion {
    case svFadeIn(autoDismiss: Interval?)
    case svFadeOut
    /// MB's animate-in has no completion block; it marks our did-appear.
    case mbIn
    /// MB's animate-out completion: `done`.
    case mbOut
}

/// The properties an animation group can change.
enum AnimatedProperty { case alpha, backdrop, scale }

extension HUDController {
    func fire(_ action: TimerAction) {
        switch action {
        case .svGrace(let duration): svFadeIn(autoDismiss: duration)
        case .svAutoDismiss: svDismiss(delay: .zero)
        case .svDelayedFadeOut: svFadeOut()
        case .mbGrace: mbHandleGraceTimer()
        case .mbMinShow: mbHideUsingAnimation()
        case .mbHideDelay(let animated): mbHide(animated: animated)
        case .animationDone(_, let completion, let finished): complete(completion, finished: finished)
        }
    }

    func complete(_ completion: AnimationCompletion, finished: Bool) {
        switch completion {
        case .svFadeIn(let duration): svFadeInCompleted(autoDismiss: duration)
        case .svFadeOut: svFadeOutCompleted()
        case .mbIn: mbAnimateInCompleted(finished: finished)
        case .mbOut: mbDone()
        }
    }

    subscript(property: AnimatedProperty) -> AnimatedValue {
        get {
            switch property {
            case .alpha: return alpha
            case .backdrop: return backdrop
            case .scale: return scale
            }
        }
        set {
            switch property {
            case .alpha: alpha = newValue
            case .backdrop: backdrop = newValue
            case .scale: scale = newValue
            }
        }
    }

    /// `animateWithDuration:… options:BeginFromCurrentState animations:{ targets } completion:`.
    /// A duration of 0 runs the block and the completion synchronously, as both libraries do.
    func animate(_ targets: [(AnimatedProperty, Fixed16_16)], duration: Interval, curve: Easing,
                 completion: AnimationCompletion) {
        if duration <= .zero {
            for (property, value) in targets { self[property].set(value) }
            complete(completion, finished: true)
            return
        }
        let group = nextGroup
        nextGroup += 1
        var replaced: [Int] = []
        var added = false
        for (property, value) in targets {
            let before = self[property].segment?.group
            if let r = self[property].animate(to: value, at: time, duration: duration, curve: curve, group: group) {
                replaced.append(r)
            }
            added = added || self[property].segment?.group != before
        }
        timers.schedule(.animationDone(group: group, completion, finished: true), at: added ? time + duration : time)
        for r in replaced where r != group { settle(group: r) }
    }

    /// `removeAllAnimations` on every animated view: the screen jumps to the model values and the
    /// removed groups' completions run (after the current command).
    func removeAllAnimations() {
        var removed: [Int] = []
        for property in [AnimatedProperty.alpha, .backdrop, .scale] {
            if let g = self[property].removeAnimation(at: time) { removed.append(g) }
        }
        for g in removed { settle(group: g) }
    }

    /// A group lost animations: its completion comes when its remaining ones end, or now.
    func settle(group: Int) {
        guard let entry = timers.first(where: {
            if case .animationDone(let g, _, _) = $0 { return g == group }
            return false
        }), case .animationDone(_, let completion, _) = entry.action else { return }
        let remaining = [alpha, backdrop, scale].compactMap { $0.running(at: time) }.filter { $0.group == group }
        timers.reschedule(entry.id, to: remaining.map(\.end).max() ?? time,
                          action: .animationDone(group: group, completion, finished: false))
    }
}
