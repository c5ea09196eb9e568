// SPDX-License-Identifier: MIT
// SVProgressHUD 2.3.1's rules (reference A2-A5), step by step as its `showProgress:status:`,
// `showImage:status:duration:`, `fadeIn:`, `dismissWithDelay:completion:` and `popActivity` do them.
import HUDProtocol
import Raster

/// What SV's content view holds.
enum SVIndicator: Equatable {
    case none
    /// The indefinite view (flat spinner or native indicator), animating since `since`.
    case spinner(since: Instant)
    case ring(Fixed16_16)
    case image(HUDImageKind)
}

struct SVState {
    var indicator = SVIndicator.none
    /// `fadeOutTimer` (the auto-dismiss timer) and `graceTimer`.
    var fadeOutTimer: Int?
    var graceTimer: Int?
}

extension HUDController {
    /// The zoom an appearing HUD starts from (A4 fadeIn step 3) and its inverse for fade-out.
    static let svZoom = Fixed16_16(raw: 85_197)      // 1.3
    static let svUnzoom = Fixed16_16(raw: 50_412)    // 1/1.3

    /// A2: `displayDurationForString`: MIN(MAX(len·0.06 + 0.5, minDismiss), maxDismiss), len in
    /// UTF-16 units (nil counts 0). When min > max the result is max.
    public static func displayDuration(for status: String?, appearance: HUDAppearance) -> Interval {
        let length = Int64(status?.utf16.count ?? 0)
        let (perUnit, base): (Int64, Int64) = (60_000_000, 500_000_000)
        let overflow = length > (Int64.max - base) / perUnit
        let raw = overflow ? Interval.forever : Interval(nanoseconds: length * perUnit + base)
        return min(max(raw, appearance.minimumDismiss), appearance.maximumDismiss)
    }

    /// `showProgress:status:` (A4); `show`/`showWithStatus:` is `showProgress:-1`.
    func svShowProgress(_ progress: Fixed16_16, status: String?) {
        // 1-2. A pending auto-dismiss timer resets the count; both timers are cancelled.
        svCancelTimersForShow()
        // 4. The image goes, the label takes the new text (nil hides it).
        statusText = status
        // 5-6. The ring at p with no animation, or the spinner; the count.
        if progress >= .zero {
            sv.indicator = .ring(progress)
            if progress == .zero { activityCount += 1 }  // A3: only at p == 0
        } else {
            // The indefinite view restarts only when it was not already in the HUD.
            if case .spinner = sv.indicator {} else { sv.indicator = .spinner(since: time) }
            activityCount += 1
        }
        // 7. Grace or fade in now.
        svFadeInOrWait(autoDismiss: nil)
    }

    /// `showImage:status:duration:` with SV's display duration (success, error, info and custom
    /// images), or none when it `stays`: the count is left alone (A3).
    func svShowImage(_ kind: HUDImageKind, status: String?, stays: Bool = false) {
        svCancelTimersForShow()
        sv.indicator = .image(kind)  // cancels the ring and the spinner
        statusText = status
        svFadeInOrWait(autoDismiss: stays ? nil : Self.displayDuration(for: status, appearance: appearance))
    }

    /// A4 step 1-2 (also for images: A3 "a show made while an auto-dismiss timer is pending first
    /// resets the count to 0").
    private func svCancelTimersForShow() {
        if timers.isPending(sv.fadeOutTimer) { activityCount = 0 }
        timers.cancel(sv.fadeOutTimer)
        timers.cancel(sv.graceTimer)
        sv.fadeOutTimer = nil
        sv.graceTimer = nil
    }

    /// A4 step 7: the grace timer when grace > 0 and the backdrop's alpha is 0, else `fadeIn`.
    private func svFadeInOrWait(autoDismiss: Interval?) {
        if appearance.grace > .zero && backdrop.model == .zero {
            sv.graceTimer = timers.schedule(.svGrace(autoDismiss: autoDismiss), at: time + appearance.grace)
        } else {
            svFadeIn(autoDismiss: autoDismiss)
        }
    }

    /// `fadeIn:` (A4). Positioning resets the transform to identity first.
    func svFadeIn(autoDismiss: Interval?) {
        sv.graceTimer = nil
        scale.set(.one)
        guard backdrop.model != .one else {
            // 4. Already fully visible: the timer starts at once, no notifications.
            svStartAutoDismiss(autoDismiss)
            return
        }
        // 3. WillAppear; ×1.3 without animation, then to identity and every alpha to 1 over fadeIn
        //    with UIKit's default ease-in-out (the options bug, A4 "Animation curve"), starting from
        //    what is on screen (BeginFromCurrentState: during a fade-out that is its current state).
        post(.willAppear)
        scale.set(scale.model * Self.svZoom)
        animate([(.scale, .one), (.alpha, .one), (.backdrop, .one)], duration: appearance.animated ? appearance.fadeIn : .zero,
                curve: .easeInEaseOut, completion: .svFadeIn(autoDismiss: autoDismiss))
    }

    /// fadeIn's completion: only if the alpha is still 1, DidAppear and the auto-dismiss timer.
    func svFadeInCompleted(autoDismiss: Interval?) {
        guard backdrop.model == .one else { return }
        post(.didAppear)
        svStartAutoDismiss(autoDismiss)
    }

    private func svStartAutoDismiss(_ duration: Interval?) {
        guard let duration else { return }
        timers.cancel(sv.fadeOutTimer)  // setting the property invalidates the old timer
        sv.fadeOutTimer = timers.schedule(.svAutoDismiss, at: time + duration)
    }

    /// `popActivity` (A3): synchronous; at 0 it still dismisses.
    func svPopActivity() {
        if activityCount > 0 { activityCount -= 1 }
        if activityCount == 0 { svDismiss(delay: .zero) }
    }

    /// `dismissWithDelay:` (A4). WillDisappear is posted with object nil, but its userInfo carries
    /// the status (A5), so the event has the status.
    func svDismiss(delay: Interval) {
        post(.willDisappear)
        activityCount = 0
        // A running auto-dismiss timer is not cancelled; the delayed fade-out cannot be.
        timers.schedule(.svDelayedFadeOut, at: time + max(delay, .zero))
    }

    /// The `dispatch_after` block: cancel grace, then scale ×1/1.3 and every alpha to 0 over fadeOut.
    func svFadeOut() {
        timers.cancel(sv.graceTimer)
        sv.graceTimer = nil
        animate([(.scale, scale.model * Self.svUnzoom), (.alpha, .zero), (.backdrop, .zero)],
                duration: appearance.animated ? appearance.fadeOut : .zero, curve: .easeInEaseOut, completion: .svFadeOut)
    }

    /// fadeOut's completion: only if the alpha is still 0, the views go (the ring and spinner
    /// stop, the image stays) and DidDisappear is posted with the status.
    func svFadeOutCompleted() {
        guard backdrop.model == .zero else { return }
        switch sv.indicator {
        case .spinner, .ring: sv.indicator = .none
        case .none, .image: break
        }
        post(.didDisappear)
    }

    func svIndicator(at t: Instant) -> HUDPresentation.Indicator {
        switch sv.indicator {
        case .none: return .none
        case .spinner(let since):
            return appearance.spinner == .flat ? .spinner(elapsed: t - since) : .activity(elapsed: t - since)
        case .ring(let p): return .ring(progress: p)
        case .image(let kind): return .image(kind)
        }
    }
}
