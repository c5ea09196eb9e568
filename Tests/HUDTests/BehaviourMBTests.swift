// SPDX-License-Identifier: MIT
// MBProgressHUD's show/hide rules on the virtual clock (reference B3). MB posts no notifications;
// the controller maps will-appear to showUsingAnimation:, did-appear to the end of its animate-in,
// will-disappear to hideUsingAnimation:, did-disappear to `done` with finished set, and `hidden` to
// the completion block + hudWasHidden: that `done` always calls.
import HUDProtocol
import Testing
import Raster
@testable import HUD

@Suite struct BehaviourMBTests {
    private func mb(_ settings: [HUDSetting] = []) -> VirtualHUD {
        VirtualHUD([.mode(.indeterminate)] + settings)
    }

    @Test func showThenHideWithTheSpring() {
        // B3: 0.3 s spring both ways; done → finished → alpha 0, then hidden.
        let t = mb()
        t.at(0, .show(status: "Loading"))
        t.at(1, .dismiss(delay: .zero))
        #expect(t.log(until: 2) == [
            "0.000 will-appear Loading", "0.300 did-appear Loading",
            "1.000 will-disappear Loading", "1.300 did-disappear Loading", "1.300 hidden Loading",
        ])
        #expect(t.hud.activityCount == 0)
    }

    @Test func notAnimatedItAppearsAndGoesAtOnce() {
        // showAnimated:NO / hideAnimated:NO (`set animated off`): no spring either way.
        let t = mb([.animated(false), .transition(.zoom), .mask(.black)])
        t.at(0, .show(status: "Loading"))
        let f = t.frame(0)
        #expect(f.alpha == .one && f.backdropAlpha == .one && f.scale == .one)
        t.at(1, .dismiss(delay: .zero))
        #expect(t.frame(1).alpha == .zero)
        #expect(t.log(until: 2) == [
            "0.000 will-appear Loading", "0.000 did-appear Loading",
            "1.000 will-disappear Loading", "1.000 did-disappear Loading", "1.000 hidden Loading",
        ])
    }

    @Test func aDelayedHideKeepsTheAnimatedItWasGiven() {
        // hideAnimated:NO afterDelay: the timer carries NO, whatever the setting is when it fires
        // (the Swift API turns it on again right after); and the grace timer's show uses the
        // showAnimated: it was called with.
        let t = mb([.grace(.seconds(1))])
        t.at(0, .set(.animated(false)))
        t.at(0, .show(status: nil))
        t.at(0, .set(.animated(true)))
        t.at(2, .set(.animated(false)))
        t.at(2, .dismiss(delay: .seconds(1)))
        t.at(2, .set(.animated(true)))
        #expect(t.log(until: 4) == [
            "1.000 will-appear", "1.000 did-appear",
            "3.000 will-disappear", "3.000 did-disappear", "3.000 hidden",
        ])
    }

    @Test func springDrivesAlphaAndBackdropTogether() {
        // B3: both the bezel and the backdrop alpha are animated, spring(0.5) = 61959/65536.
        let t = mb([.mask(.black)])
        t.at(0, .show(status: nil))
        let f = t.frame(0.15)
        #expect(abs(f.alpha.raw - 61959) <= 1)
        #expect(f.backdropAlpha == f.alpha)
        #expect(f.scale == .one)  // Fade: alpha only
        #expect(t.frame(0.3).alpha == .one)
    }

    @Test func minShowPostponesTheHide() {
        // B3 hide step 3: if minShowTime has not passed, the hide waits for the remainder.
        let t = mb([.minShow(.seconds(2))])
        t.at(0, .show(status: "Hi"))
        t.at(0.5, .pop)  // hideAnimated:
        #expect(t.frame(1.9).alpha == .one)
        #expect(t.log(until: 3) == [
            "0.000 will-appear Hi", "0.300 did-appear Hi",
            "2.000 will-disappear Hi", "2.300 did-disappear Hi", "2.300 hidden Hi",
        ])
    }

    @Test func minShowPassedHidesAtOnce() {
        let t = mb([.minShow(.seconds(2))])
        t.at(0, .show(status: nil))
        t.at(2.5, .pop)
        #expect(t.log(until: 3).suffix(3) == ["2.500 will-disappear", "2.800 did-disappear", "2.800 hidden"])
    }

    @Test func aLaterHideAfterDelayReplacesThePendingOne() {
        // B3 afterDelay: a later call replaces the pending one.
        let t = mb()
        t.at(0, .show(status: nil))
        t.at(0.5, .dismiss(delay: .seconds(3)))  // due at 3.5
        t.at(1, .dismiss(delay: .seconds(1)))    // due at 2.0, replaces it
        #expect(t.log(until: 10) == [
            "0.000 will-appear", "0.300 did-appear",
            "2.000 will-disappear", "2.300 did-disappear", "2.300 hidden",
        ])
    }

    @Test func hideAfterDelayStillHonoursMinShow() {
        // B3 afterDelay: when the timer fires it calls hide, so minShowTime still applies.
        let t = mb([.minShow(.seconds(3))])
        t.at(0, .show(status: nil))
        t.at(0, .dismiss(delay: .seconds(1)))
        #expect(t.log(until: 4).suffix(3) == ["3.000 will-disappear", "3.300 did-disappear", "3.300 hidden"])
    }

    @Test func aShowCancelsAPendingDelayedHide() {
        // B3 showUsingAnimation step 1: cancel any pending delayed hide.
        let t = mb()
        t.at(0, .show(status: nil))
        t.at(0.5, .dismiss(delay: .seconds(2)))
        t.at(1, .show(status: nil))
        #expect(t.hud.nextEventTime() == nil)
        #expect(!t.log(until: 5).contains { $0.contains("disappear") || $0.contains("hidden") })
        #expect(t.frame(5).alpha == .one)
    }

    @Test func showDuringTheHideAnimationKeepsTheHUDButBothCallbacksFire() {
        // B3 Consequences: the show removes the hide animation, whose completion runs `done`;
        // finished is NO again, so the HUD stays up, but the completion/hudWasHidden still fire.
        let t = mb()
        t.at(0, .show(status: "A"))
        t.at(1, .dismiss(delay: .zero))
        t.at(1.1, .show(status: "B"))
        // removeAllAnimations puts the bezel at its model alpha (0) before it springs back to 1.
        #expect(t.frame(1.1).alpha == .zero)
        #expect(t.log(until: 3) == [
            "0.000 will-appear A", "0.300 did-appear A", "1.000 will-disappear A",
            "1.100 will-appear B", "1.100 hidden B", "1.400 did-appear B",
        ])
        #expect(t.frame(3).alpha == .one)
        #expect(t.hud.isVisible)
    }

    @Test func hideDuringGraceFiresEverythingAtOnce() {
        // B3 Consequences: a hide during the grace period fires both callbacks immediately, and
        // the grace timer is cancelled (hide step 1).
        let t = mb([.grace(.seconds(1))])
        t.at(0, .show(status: "Wait"))
        t.at(0.5, .dismiss(delay: .zero))
        #expect(t.frame(1.5).isHidden)
        #expect(t.log(until: 3) == ["0.500 will-disappear Wait", "0.500 did-disappear Wait", "0.500 hidden Wait"])
    }

    @Test func graceShowsOnlyIfNotFinished() {
        // B3 show step 2: the grace timer shows the HUD if it has not finished.
        let t = mb([.grace(.seconds(1))])
        t.at(0, .show(status: nil))
        #expect(t.frame(0.9).isHidden)
        #expect(t.log(until: 2) == ["1.000 will-appear", "1.300 did-appear"])
    }

    @Test func neverShownHideLeavesTheBackgroundAtOne() {
        // B3 hideUsingAnimation "otherwise" branch: bezel alpha 0, backdrop alpha 1 (as the code
        // does); hidden by done's alpha 0 — until the next show brings the backdrop back at once.
        let t = mb([.grace(.seconds(1)), .mask(.black)])
        t.at(0, .show(status: nil))
        t.at(0.5, .pop)
        #expect(t.frame(0.5).isHidden)
        t.at(2, .show(status: nil))
        let f = t.frame(3)  // the grace timer fired: showUsingAnimation
        #expect(f.backdropAlpha == .one)
        #expect(f.alpha == .zero)
    }

    @Test func zoomVariantsFollowTheTable() {
        // B3 table: Zoom 0.5 → 1 / 1 → 0.5, ZoomIn 0.5 → 1 / 1 → 1.5, ZoomOut 1.5 → 1 / 1 → 0.5.
        let cases: [(HUDTransition, Double, Double)] = [
            (.fade, 1, 1), (.zoom, 0.5, 0.5), (.zoomIn, 0.5, 1.5), (.zoomOut, 1.5, 0.5),
        ]
        for (transition, showFrom, hideTo) in cases {
            let t = mb([.transition(transition)])
            t.at(0, .show(status: nil))
            #expect(t.frame(0).scale.double == showFrom, "\(transition) show")
            let spring = Easing.criticallyDampedSpring.value(at: .half).double
            #expect(abs(t.frame(0.15).scale.double - (showFrom + (1 - showFrom) * spring)) < 1e-4)
            #expect(t.frame(0.3).scale == .one)
            t.at(1, .pop)
            #expect(t.frame(1.3).scale.double == hideTo, "\(transition) hide")
            #expect(t.frame(1.3).isHidden)
        }
    }

    @Test func startingScaleOnlyWhenTheBezelIsTransparent() {
        // B3: "The starting scale is applied only when the bezel alpha is 0".
        let t = mb([.transition(.zoom)])
        t.at(0, .show(status: nil))
        t.at(1, .show(status: nil))
        #expect(t.frame(1).scale == .one)
        #expect(t.frame(1.1).isAnimating)  // the activity indicator turns
    }

    @Test func indicatorsFollowTheMode() {
        // B1 modes; `progress` sets MB's progress without showing the HUD.
        let t = mb([.mode(.determinate)])
        t.at(0, .progress(fraction: Fixed16_16(0.25), status: "Quarter"))
        #expect(t.frame(0).isHidden)
        #expect(t.frame(0).indicator == .pie(progress: Fixed16_16(0.25)))
        #expect(t.frame(0).status == "Quarter")
        t.at(0.1, .show(status: nil))
        t.at(0.2, .set(.mode(.annular)))
        #expect(t.frame(0.2).indicator == .annular(progress: Fixed16_16(0.25)))
        t.at(0.3, .set(.mode(.bar)))
        #expect(t.frame(0.3).indicator == .bar(progress: Fixed16_16(0.25)))
        t.at(1, .set(.mode(.text)))
        let text = t.frame(1)
        #expect(text.indicator == .none && !text.isAnimating)
        t.at(2, .set(.mode(.indeterminate)))
        #expect(t.frame(2.5).indicator == .activity(elapsed: .milliseconds(2400)))  // since the show
        #expect(t.frame(2.5).isAnimating)
        t.at(3, .image(.success, status: "Done"))
        #expect(t.frame(3).indicator == .image(.success))
        #expect(t.hud.appearance.mode == .customImage)
        t.at(4, .set(.details("Details")))
        t.at(4, .set(.button("Cancel")))
        #expect(t.frame(4).details == "Details" && t.frame(4).button == "Cancel")
    }

    @Test func setLabelIsTheStatus() {
        let t = mb([.label("From set")])
        t.at(0, .show(status: nil))
        #expect(t.frame(0).status == "From set")
        t.at(1, .status("Changed"))
        #expect(t.frame(1).status == "Changed")
    }
}
