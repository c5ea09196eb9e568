// SPDX-License-Identifier: MIT
// SVProgressHUD's timing, count and event rules on the virtual clock (reference A2-A5). Every
// expectation is an exact event log: `T EVENT STATUS`, T in seconds to the millisecond.
import HUDProtocol
import Testing
import Raster
@testable import HUD

@Suite struct BehaviourSVTests {
    @Test func showThenDismiss() {
        // A4 fadeIn step 3 (WillAppear, DidAppear after fadeIn 0.15, A1 default) and
        // dismissWithDelay steps 1-4 (WillDisappear at once, DidDisappear after fadeOut).
        let t = VirtualHUD()
        t.at(0, .show(status: "Loading"))
        #expect(t.hud.isVisible)  // A1: isVisible is the backdrop's (model) alpha > 0
        #expect(t.hud.activityCount == 1)
        t.at(1, .dismiss(delay: .zero))
        #expect(!t.hud.isVisible)
        #expect(t.hud.activityCount == 0)
        #expect(t.log(until: 2) == [
            "0.000 will-appear Loading", "0.150 did-appear Loading",
            "1.000 will-disappear Loading", "1.150 did-disappear Loading",
        ])
        #expect(t.hud.nextEventTime() == nil)
    }

    @Test func notAnimatedTheFadesTakeNoTime() {
        // `set animated off`: fade-in and fade-out as 0, whatever their settings.
        let t = VirtualHUD([.animated(false), .fadeIn(.seconds(1))])
        t.at(0, .show(status: "Loading"))
        #expect(t.frame(0).alpha == .one && t.frame(0).scale == .one)
        t.at(1, .dismiss(delay: .zero))
        #expect(t.log(until: 2) == [
            "0.000 will-appear Loading", "0.000 did-appear Loading",
            "1.000 will-disappear Loading", "1.000 did-disappear Loading",
        ])
    }

    @Test func successAutoDismissesAfterFadeInPlusDisplayDuration() {
        // A4 fadeIn completion starts the timer; A2: a 5-character status gives the 5 s minimum.
        let t = VirtualHUD()
        t.at(0, .image(.success, status: "Saved"))
        #expect(t.hud.activityCount == 0)  // A3: image shows leave the count alone
        #expect(t.log(until: 5.149) == ["0.000 will-appear Saved", "0.150 did-appear Saved"])
        #expect(t.hud.nextEventTime() == Instant(nanoseconds: 5_150_000_000))
        #expect(t.log(until: 6) == [
            "0.000 will-appear Saved", "0.150 did-appear Saved",
            "5.150 will-disappear Saved", "5.300 did-disappear Saved",
        ])
    }

    @Test func anImageThatStaysHasNoAutoDismissUntilTheNextCommand() {
        // Not SV's: `error --stay` (a failed update's reason) keeps the HUD up; the next command
        // changes it as any other, and an image after it dismisses itself again.
        let t = VirtualHUD()
        t.at(0, .image(.error, status: "Failed", stays: true))
        #expect(t.log(until: 600) == ["0.000 will-appear Failed", "0.150 did-appear Failed"])
        #expect(t.hud.isVisible && t.hud.nextEventTime() == nil)
        t.at(600, .image(.success, status: "Saved"))
        #expect(t.hud.nextEventTime() == Instant(nanoseconds: 605_000_000_000))
        t.at(700, .image(.error, status: "Failed", stays: true))
        t.at(701, .dismiss(delay: .zero))
        #expect(!t.hud.isVisible)
    }

    @Test func displayDurationFollowsSVFormula() {
        // A2: MIN(MAX(len·0.06 + 0.5, minDismiss), maxDismiss), len in UTF-16 units, nil = 0.
        let d = HUDAppearance()
        func duration(_ s: String?, _ a: HUDAppearance = HUDAppearance()) -> Int64 {
            HUDController.displayDuration(for: s, appearance: a).nanoseconds
        }
        #expect(duration(nil) == 5_000_000_000)
        #expect(duration(String(repeating: "a", count: 75)) == 5_000_000_000)  // A2: ≤ 75 gives 5 s
        #expect(duration(String(repeating: "a", count: 76)) == 5_060_000_000)
        #expect(duration(String(repeating: "a", count: 100)) == 6_500_000_000)
        var noMin = d
        noMin.minimumDismiss = .zero
        #expect(duration("ab", noMin) == 620_000_000)
        #expect(duration("😀", noMin) == 620_000_000)  // one scalar, two UTF-16 units
        #expect(duration("é", noMin) == 560_000_000)
        var minOverMax = d
        minOverMax.minimumDismiss = .seconds(3)
        minOverMax.maximumDismiss = .seconds(2)
        #expect(duration("x", minOverMax) == 2_000_000_000)  // A2: min > max gives max
    }

    @Test func minAboveMaxAutoDismissesAtMax() {
        // A2 "When min > max, the result is max", through the auto-dismiss timer (A4).
        let t = VirtualHUD([.minimumDismiss(.seconds(3)), .maximumDismiss(.seconds(2))])
        t.at(0, .image(.info, status: "Note"))
        #expect(t.log(until: 3) == [
            "0.000 will-appear Note", "0.150 did-appear Note",
            "2.150 will-disappear Note", "2.300 did-disappear Note",
        ])
    }

    @Test func graceDelaysTheFadeInAndEveryShowRestartsIt() {
        // A4 showProgress step 7: grace > 0 and backdrop alpha 0 starts the grace timer, which
        // every further show restarts.
        let t = VirtualHUD([.grace(.seconds(0.5))])
        t.at(0, .show(status: "A"))
        #expect(t.frame(0.4).alpha == .zero)
        t.at(0.4, .show(status: "B"))
        #expect(t.log(until: 0.899).isEmpty)
        #expect(t.log(until: 1.5) == ["0.900 will-appear B", "1.050 did-appear B"])
        // Visible now (alpha 1): a show fades in at once, no grace, no notifications (step 4).
        t.at(2, .show(status: "C"))
        #expect(t.hud.nextEventTime() == nil)
        #expect(t.log(until: 3).count == 2)
        #expect(t.hud.activityCount == 3)
    }

    @Test func showDuringFadeOutReplaysTheFadeInWithoutDidDisappear() {
        // A4 Consequences: a show during fade-out: no DidDisappear, WillAppear again, zoom replays.
        let t = VirtualHUD()
        t.at(0, .show(status: "A"))
        t.at(1, .dismiss(delay: .zero))
        let mid = t.frame(1.075)  // half way through the fade-out: ease-in-out(0.5) = 0.5
        #expect(mid.alpha == .half)
        t.at(1.075, .show(status: "B"))
        // The new fade starts from what is on screen (BeginFromCurrentState).
        #expect(t.frame(1.075).alpha == mid.alpha)
        #expect(t.frame(1.075).scale == mid.scale)
        #expect(t.frame(1.2).alpha > mid.alpha)
        #expect(t.log(until: 2) == [
            "0.000 will-appear A", "0.150 did-appear A",
            "1.000 will-disappear A", "1.075 will-appear B", "1.225 did-appear B",
        ])
        #expect(t.frame(2).alpha == .one)
        #expect(t.frame(2).scale == .one)
    }

    @Test func dismissDuringFadeInMeansNoDidAppearAndNoTimer() {
        // A4 Consequences: a dismiss during fade-in: no DidAppear and no auto-dismiss timer.
        let t = VirtualHUD()
        t.at(0, .image(.error, status: "Failed"))
        t.at(0.075, .dismiss(delay: .zero))
        #expect(t.log(until: 20) == [
            "0.000 will-appear Failed", "0.075 will-disappear Failed", "0.225 did-disappear Failed",
        ])
        #expect(t.frame(20).isHidden)
    }

    @Test func dismissDuringGraceNeverShowsButPostsBothDisappears() {
        // A4 Consequences: the HUD never appears, both Disappear notifications are posted.
        let t = VirtualHUD([.grace(.seconds(0.5)), .mask(.black)])
        t.at(0, .show(status: "Wait"))
        t.at(0.2, .dismiss(delay: .zero))
        for s in [0.3, 0.5, 0.6, 1.0] { #expect(t.frame(s).isHidden) }
        #expect(t.log(until: 2) == ["0.200 will-disappear Wait", "0.350 did-disappear Wait"])
    }

    @Test func popAtZeroStillDismisses() {
        // A3 popActivity: subtract only above 0; at 0 it dismisses (WillDisappear + DidDisappear).
        let t = VirtualHUD()
        t.at(0, .pop)
        #expect(t.hud.activityCount == 0)
        #expect(t.log(until: 1) == ["0.000 will-disappear", "0.150 did-disappear"])
    }

    @Test func popDismissesOnlyWhenTheCountReachesZero() {
        // A3: show adds 1; pop subtracts 1 and dismisses at 0.
        let t = VirtualHUD()
        t.at(0, .show(status: nil))
        t.at(0.5, .show(status: nil))
        t.at(1, .pop)
        #expect(t.hud.activityCount == 1)
        #expect(t.hud.isVisible)
        t.at(2, .pop)
        #expect(t.log(until: 3) == [
            "0.000 will-appear", "0.150 did-appear", "2.000 will-disappear", "2.150 did-disappear",
        ])
    }

    @Test func progressCountsOnlyAtZero() {
        // A3: showProgress adds 1 only when p == 0; images leave the count alone; a negative
        // progress is SV's spinner branch, which adds 1 (A4 step 5-6).
        let t = VirtualHUD()
        t.at(0, .progress(fraction: .zero, status: "Copy"))
        #expect(t.hud.activityCount == 1)
        t.at(0.5, .progress(fraction: .half, status: "Copy"))
        t.at(0.6, .progress(fraction: .one, status: "Copy"))
        #expect(t.hud.activityCount == 1)
        t.at(0.7, .progress(fraction: .zero, status: "Again"))
        #expect(t.hud.activityCount == 2)
        t.at(0.8, .progress(fraction: -Fixed16_16.one, status: nil))
        #expect(t.hud.activityCount == 3)
        t.at(0.9, .pop)
        #expect(t.hud.activityCount == 2)
        #expect(t.log(until: 2) == ["0.000 will-appear Copy", "0.150 did-appear Copy"])
    }

    @Test func aShowWhileAutoDismissIsPendingResetsTheCount() {
        // A3 / A4 step 1: a pending fade-out timer resets the count before the show adds 1.
        let t = VirtualHUD()
        t.at(0, .show(status: nil))
        t.at(0.1, .show(status: nil))
        t.at(0.2, .image(.success, status: "Done"))
        #expect(t.hud.activityCount == 2)
        t.at(1, .show(status: "More"))  // the success timer is pending
        #expect(t.hud.activityCount == 1)
        #expect(t.log(until: 10).last == "0.150 did-appear")  // and the timer is cancelled (step 2)
    }

    @Test func everyDismissZeroesTheCountBeforeItsDelay() {
        // A3 "Every dismiss sets the count to 0 immediately, before any delay"; A4 step 3: the
        // delayed fade-out cannot be cancelled, even by a later show.
        let t = VirtualHUD()
        t.at(0, .show(status: "A"))
        t.at(0.1, .show(status: "A"))
        t.at(0.5, .dismiss(delay: .seconds(1.5)))
        #expect(t.hud.activityCount == 0)
        #expect(t.hud.isVisible)
        t.at(1, .show(status: "B"))  // visible: no WillAppear; the count restarts at 1
        #expect(t.hud.activityCount == 1)
        #expect(t.log(until: 3) == [
            "0.000 will-appear A", "0.150 did-appear A", "0.500 will-disappear A", "2.150 did-disappear B",
        ])
        #expect(t.frame(3).isHidden)
    }

    @Test func aRunningAutoDismissTimerIsNotCancelledByADelayedDismiss() {
        // A4 dismissWithDelay step 5; the second fade-out completes with alpha still 0, so
        // DidDisappear is posted again.
        let t = VirtualHUD()
        t.at(0, .image(.success, status: "OK"))
        t.at(1, .dismiss(delay: .seconds(10)))
        #expect(t.log(until: 12) == [
            "0.000 will-appear OK", "0.150 did-appear OK", "1.000 will-disappear OK",
            "5.150 will-disappear OK", "5.300 did-disappear OK", "11.150 did-disappear OK",
        ])
    }

    @Test func imageShowWhileVisibleStartsTheTimerAtOnce() {
        // A4 fadeIn step 4: already fully visible: the timer starts at once, no notifications.
        let t = VirtualHUD()
        t.at(0, .show(status: "Work"))
        t.at(1, .image(.success, status: "Done"))
        #expect(t.log(until: 7) == [
            "0.000 will-appear Work", "0.150 did-appear Work",
            "6.000 will-disappear Done", "6.150 did-disappear Done",
        ])
    }

    @Test func zeroFadeDurationsAreSynchronous() {
        // A4 fadeIn step 5 (and the same branch of dismiss): no animation, the completion at once.
        let t = VirtualHUD([.fadeIn(.zero), .fadeOut(.zero)])
        t.at(0, .show(status: "Now"))
        #expect(t.frame(0).alpha == .one)
        #expect(t.frame(0.0001).isAnimating)  // the spinner turns
        t.at(1, .dismiss(delay: .zero))
        #expect(t.frame(1).isHidden)
        #expect(t.log(until: 2) == [
            "0.000 will-appear Now", "0.000 did-appear Now", "1.000 will-disappear Now", "1.000 did-disappear Now",
        ])
    }

    @Test func statusChangesTextOnlyAndDidDisappearCarriesTheTextThen() {
        // A1: setStatus runs synchronously and changes the label only; A5: userInfo is the
        // status at the time of the notification.
        let t = VirtualHUD()
        t.at(0, .progress(fraction: .half, status: "Copying"))
        t.at(0.5, .status("Still copying"))
        #expect(t.frame(0.5).status == "Still copying")
        #expect(t.frame(0.5).indicator == .ring(progress: .half))
        #expect(t.hud.activityCount == 0)
        t.at(1, .dismiss(delay: .zero))
        t.at(1.05, .status("Bye"))
        #expect(t.log(until: 2) == [
            "0.000 will-appear Copying", "0.150 did-appear Copying",
            "1.000 will-disappear Still copying", "1.150 did-disappear Bye",
        ])
    }

    @Test func resetHidesAtOnceCancelsTimersAndPostsNothing() {
        let t = VirtualHUD([.mask(.black), .grace(.seconds(1))])
        t.at(0, .image(.success, status: "Saved"))
        t.at(1.05, .reset)
        let f = t.frame(1.05)
        #expect(f.isHidden)
        #expect(f.appearance == HUDAppearance())
        #expect(f.status == nil)
        #expect(t.hud.nextEventTime() == nil)
        #expect(t.log(until: 20) == ["1.000 will-appear Saved"])
    }
}
