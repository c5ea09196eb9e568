// SPDX-License-Identifier: MIT
// What the HUD looks like at given instants (SV): the fades' alpha and zoom on CA's ease-in-out,
// the backdrop, the indicator with the spinner's phase, and when a frame loop may sleep.
import HUDProtocol
import Testing
import Raster
@testable import HUD

@Suite struct BehaviourPresentationTests {
    @Test func fadeInFollowsEaseInOutFromAZoomOf1_3() {
        // A4 fadeIn step 3: ×1.3 then to identity, alphas to 1, over 0.15 s, CA ease-in-out.
        let t = VirtualHUD()
        t.at(0, .show(status: nil))
        let start = t.frame(0)
        #expect(start.alpha == .zero)
        #expect(abs(start.scale.double - 1.3) < 1e-4)
        #expect(start.isAnimating)
        // t = 0.25 of the fade: ease-in-out(0.25) = 0.1291619 (mpmath), 8465/65536.
        let quarter = t.frame(0.0375)
        #expect(abs(quarter.alpha.raw - 8465) <= 1)
        #expect(abs(quarter.scale.double - (1.3 - 0.3 * 0.1291619)) < 1e-4)
        let half = t.frame(0.075)
        #expect(half.alpha == .half)
        #expect(abs(half.scale.double - 1.15) < 1e-4)
        let end = t.frame(0.15)
        #expect(end.alpha == .one && end.scale == .one)
    }

    @Test func fadeOutShrinksTo1Over1_3() {
        // A4 dismissWithDelay step 3: scale ×1/1.3 and every alpha to 0 over fadeOut.
        let t = VirtualHUD()
        t.at(0, .progress(fraction: .half, status: "Half"))
        t.at(1, .dismiss(delay: .zero))
        let half = t.frame(1.075)
        #expect(half.alpha == .half)
        #expect(abs(half.scale.double - (1 + 1 / 1.3) / 2) < 1e-4)
        let end = t.frame(1.15)
        #expect(end.isHidden && !end.isAnimating)
        #expect(abs(end.scale.double - 1 / 1.3) < 1e-4)
        #expect(end.indicator == .none)  // A4 step 4: the ring is cancelled with the views
    }

    @Test func backdropFadesWithTheHUDUnlessTheMaskIsNone() {
        // A8: the backdrop fades together with the HUD; mask None is clear.
        let none = VirtualHUD()
        none.at(0, .show(status: nil))
        #expect(none.frame(0.075).backdropAlpha == .zero)
        #expect(none.frame(1).backdropAlpha == .zero)
        for mask in [HUDMask.black, .gradient, .custom, .clear] {
            let t = VirtualHUD([.mask(mask)])
            t.at(0, .show(status: nil))
            for s in [0.0, 0.03, 0.075, 0.12, 0.15] {
                let f = t.frame(s)
                #expect(f.backdropAlpha == f.alpha)
            }
        }
    }

    @Test func spinnerPhaseRunsFromWhenTheSpinnerStarted() {
        // A4 step 5: the indefinite view starts when it is added; a show while it spins keeps it.
        let t = VirtualHUD()
        t.at(0, .show(status: nil))
        #expect(t.frame(0.4).indicator == .spinner(elapsed: .milliseconds(400)))
        t.at(1, .show(status: "Still"))
        #expect(t.frame(1.5).indicator == .spinner(elapsed: .milliseconds(1500)))
        t.at(2, .progress(fraction: .half, status: nil))
        #expect(t.frame(2).indicator == .ring(progress: .half))
        t.at(3, .show(status: nil))  // the ring gave way: the spinner starts again
        #expect(t.frame(3.25).indicator == .spinner(elapsed: .milliseconds(250)))
        t.at(4, .set(.spinner(.native)))
        #expect(t.frame(4).indicator == .activity(elapsed: .milliseconds(1000)))
    }

    @Test func negativeProgressShowsTheSpinner() {
        // A4 step 5: p ≥ 0 shows the ring with strokeEnd = p (not clamped, A3); otherwise the spinner.
        let t = VirtualHUD()
        t.at(0, .progress(fraction: Fixed16_16(1.5), status: nil))
        #expect(t.frame(0).indicator == .ring(progress: Fixed16_16(1.5)))
        t.at(1, .progress(fraction: Fixed16_16(-0.5), status: nil))
        #expect(t.frame(1.2).indicator == .spinner(elapsed: .milliseconds(200)))
        t.at(2, .image(.custom(path: "logo.png"), status: "Hi"))
        #expect(t.frame(2).indicator == .image(.custom(path: "logo.png")))
    }

    @Test func aStaticHUDLetsTheFrameLoopSleep() {
        // A ring at 50%, faded in, no timers: nothing changes until the next command.
        let t = VirtualHUD()
        t.at(0, .progress(fraction: .half, status: "50%"))
        #expect(t.hud.nextEventTime() == Instant(nanoseconds: 150_000_000))  // the fade's end
        #expect(t.frame(0.1).isAnimating)
        let still = t.frame(1)
        #expect(!still.isAnimating)
        #expect(t.hud.nextEventTime() == nil)
        #expect(still.alpha == .one && still.scale == .one && still.status == "50%")
    }

    @Test func aSpinnerAnimatesOnlyWhileVisible() {
        let t = VirtualHUD([.grace(.seconds(1))])
        t.at(0, .show(status: nil))
        let waiting = t.frame(0.5)  // grace: nothing on screen yet
        #expect(waiting.isHidden && !waiting.isAnimating)
        #expect(t.hud.nextEventTime() == .seconds(1))
        let spinning = t.frame(2)
        #expect(spinning.isAnimating)
        #expect(t.hud.nextEventTime() == nil)  // a spinner needs frames, not events
    }

    @Test func emptyStatusIsNoStatus() {
        // A6: empty text is treated as nil; A5: userInfo is nil without text.
        let t = VirtualHUD()
        t.at(0, .show(status: ""))
        #expect(t.frame(0).status == nil)
        #expect(t.hud.events.first?.status == nil)
    }
}
