// SPDX-License-Identifier: MIT
// MBProgressHUD 1.2.0's rules (reference B3), as its `showAnimated:`, `hideAnimated:`,
// `hideAnimated:afterDelay:`, the three timer callbacks, `showUsingAnimation:`,
// `hideUsingAnimation:`, `animateIn:withType:completion:` and `done` do them. `animated` (on by
// default) is the BOOL of `showAnimated:` and `hideAnimated:`, which MB keeps as `useAnimation` for
// its grace and min-show timers too.
//
// MB posts no notifications. Our events map onto its steps:
// - will-appear: `showUsingAnimation:` runs (the HUD starts to appear);
// - did-appear: that animate-in ends without being replaced or removed (at once when not animated);
// - will-disappear: `hideUsingAnimation:` runs (either branch);
// - did-disappear: `done` with `finished` set, where MB takes the HUD's alpha to 0;
// - hidden: `done`, always: the completion block and `hudWasHidden:`.
//
// MB's timer properties are weak and setting one does not invalidate the previous timer, so only
// the latest grace or min-show timer can be cancelled (`hideAnimated:afterDelay:` invalidates its
// own before replacing it).
import HUDProtocol
import Raster

struct MBState {
    var finished = false
    var showStarted: Instant?
    /// The HUD view's own alpha (`self.alpha`), never animated. MB's init sets 0, but its bezel and
    /// background start at 0 too; 1 here keeps a HUD switched from SV behaviour on screen until
    /// MB hides it, and is otherwise invisible.
    var containerAlpha = Fixed16_16.one
    var graceTimer: Int?
    var minShowTimer: Int?
    var hideDelayTimer: Int?
    var progress = Fixed16_16.zero
    /// `useAnimation`: the BOOL of the last `showAnimated:` or `hideAnimated:`, which the grace
    /// and min-show timers' show and hide use.
    var useAnimation = true
    /// The custom view of `.customImage` mode.
    var image: HUDImageKind?
    /// When the indeterminate indicator started turning (the HUD's last appearance).
    var activityStart = Instant.zero
}

extension HUDController {
    static let mbDuration = Interval.milliseconds(300)
    static let mbSmall = Fixed16_16.half                // 0.5
    static let mbLarge = Fixed16_16(raw: 3 << 15)      // 1.5

    /// `show [STATUS]`: the label takes STATUS when given, then `showAnimated:YES`.
    func mbShow(status: String?) {
        if let status { statusText = status }
        mbShowAnimated()
    }

    /// `progress F [STATUS]`: MB's `progress` property (and the label); it does not show the HUD.
    func mbProgress(_ fraction: Fixed16_16, status: String?) {
        mb.progress = fraction
        if let status { statusText = status }
    }

    /// `image KIND [STATUS]`: the custom-view mode with that image, the label, then show. MB has
    /// no auto-dismiss: scripts follow it with `dismiss DELAY` (`hideAnimated:afterDelay:`).
    func mbImage(_ kind: HUDImageKind, status: String?) {
        mb.image = kind
        appearance.mode = .customImage
        if let status { statusText = status }
        mbShowAnimated()
    }

    /// `showAnimated:`.
    func mbShowAnimated() {
        mb.useAnimation = appearance.animated
        timers.cancel(mb.minShowTimer)
        mb.finished = false
        if appearance.grace > .zero {
            mb.graceTimer = timers.schedule(.mbGrace, at: time + appearance.grace)
        } else {
            mbShowUsingAnimation()
        }
    }

    /// `handleGraceTimer:`: show only if the task has not finished.
    func mbHandleGraceTimer() {
        if !mb.finished { mbShowUsingAnimation() }
    }

    /// `showUsingAnimation:`.
    func mbShowUsingAnimation() {
        removeAllAnimations()
        timers.cancel(mb.hideDelayTimer)
        mb.showStarted = time
        mb.containerAlpha = .one
        mb.activityStart = time
        post(.willAppear)
        if mb.useAnimation {
            mbAnimate(in: true)
        } else {
            // `showUsingAnimation:NO`: the bezel and the background at 1 at once.
            scale.set(.one)
            alpha.set(.one)
            backdrop.set(.one)
            post(.didAppear)
        }
    }

    /// `hideAnimated:` (`pop`, and the hide-delay timer with the `animated` it was set with).
    func mbHide(animated: Bool? = nil) {
        mb.useAnimation = animated ?? appearance.animated
        timers.cancel(mb.graceTimer)
        mb.finished = true
        if appearance.minShow > .zero, let started = mb.showStarted {
            let shown = time - started
            if shown < appearance.minShow {
                mb.minShowTimer = timers.schedule(.mbMinShow, at: time + Interval(nanoseconds: appearance.minShow.nanoseconds - shown.nanoseconds))
                return
            }
        }
        mbHideUsingAnimation()
    }

    /// `hideAnimated:afterDelay:` (`dismiss DELAY`): a later call replaces the pending one.
    func mbHide(afterDelay delay: Interval) {
        timers.cancel(mb.hideDelayTimer)
        mb.hideDelayTimer = timers.schedule(.mbHideDelay(animated: appearance.animated), at: time + max(delay, .zero))
    }

    /// `hideUsingAnimation:` (also the min-show timer's callback).
    func mbHideUsingAnimation() {
        timers.cancel(mb.hideDelayTimer)
        post(.willDisappear)
        if mb.useAnimation && mb.showStarted != nil {
            mb.showStarted = nil
            mbAnimate(in: false)
        } else {
            // Not animated, or never shown (a hide during grace): the bezel to 0 and the
            // background to 1, as the code does, then `done` (which takes the HUD's alpha to 0).
            mb.showStarted = nil
            alpha.set(.zero)
            backdrop.set(.one)
            mbDone()
        }
    }

    /// `animateIn:withType:completion:` with the B3 table; the starting scale only when the
    /// bezel's alpha is 0. Spring 0.3 s, damping 1, velocity 0, from the current state.
    func mbAnimate(in animatingIn: Bool) {
        var type = appearance.transition
        if type == .zoom { type = animatingIn ? .zoomIn : .zoomOut }
        if animatingIn && alpha.model == .zero {
            if type == .zoomIn { scale.set(Self.mbSmall) }
            if type == .zoomOut { scale.set(Self.mbLarge) }
        }
        var targets: [(AnimatedProperty, Fixed16_16)] = []
        if animatingIn {
            targets.append((.scale, .one))
        } else if type == .zoomIn {
            targets.append((.scale, Self.mbLarge))
        } else if type == .zoomOut {
            targets.append((.scale, Self.mbSmall))
        }
        let value: Fixed16_16 = animatingIn ? .one : .zero
        targets += [(.alpha, value), (.backdrop, value)]
        animate(targets, duration: Self.mbDuration, curve: .criticallyDampedSpring,
                completion: animatingIn ? .mbIn : .mbOut)
    }

    /// The animate-in ended: our did-appear, if it ran to its end (not replaced or removed).
    func mbAnimateInCompleted(finished: Bool) {
        if finished { post(.didAppear) }
    }

    /// `done`: if finished, the HUD's alpha to 0; always the completion block and `hudWasHidden:`.
    func mbDone() {
        if mb.finished {
            mb.containerAlpha = .zero
            post(.didDisappear)
        }
        post(.hidden)
    }

    func mbIndicator(at t: Instant) -> HUDPresentation.Indicator {
        switch appearance.mode ?? .indeterminate {
        case .indeterminate: return .activity(elapsed: t - mb.activityStart)
        case .determinate: return .pie(progress: mb.progress)
        case .annular: return .annular(progress: mb.progress)
        case .bar: return .bar(progress: mb.progress)
        case .text: return .none
        case .customImage: return mb.image.map { .image($0) } ?? .none
        }
    }
}
