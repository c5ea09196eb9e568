// SPDX-License-Identifier: MIT
import Display
import Raster
import Runtime
import Testing

/// The frame scheduler's state machine on plain numbers, one transition at a time: what each phase
/// makes due, when the loop must wake, and what the next frame is drawn for.
@Suite("PacingState")
struct PacingStateTests {
    static let refresh: Int64 = 16_666_667

    /// A state that drew its first frame and is animating toward `boundary`.
    static func animating(boundary: Int64, renderAt: Int64? = nil, presentAt: Int64? = nil) -> PacingState {
        var s = PacingState()
        _ = s.beginFrame()
        s.animates(.init(boundary: boundary, renderAt: renderAt, presentAt: presentAt))
        return s
    }

    @Test func theFirstFrameIsDueAtOnceAndDrawnForTheInstantItIsRendered() {
        var s = PacingState()
        #expect(s.phase == .idle(wakeAt: nil))
        #expect(s.nextDeadline == .min)
        #expect(s.isDue(at: 0))
        #expect(s.hasUndrawnChange)
        let begun = s.beginFrame()
        #expect(begun.pacedTo == nil && begun.changed)
        #expect(!s.hasUndrawnChange)
    }

    @Test func idleIsDueOnAChangeOrAtItsWakeUpAndNeverOtherwise() {
        var s = PacingState()
        _ = s.beginFrame()
        s.settled(wakeAt: nil)
        #expect(s.nextDeadline == nil, "static with nothing scheduled: no deadline at all")
        #expect(!s.isDue(at: .max))
        s.settled(wakeAt: 500)
        #expect(s.nextDeadline == 500)
        #expect(!s.isDue(at: 499) && s.isDue(at: 500))
        s.markDirty()
        #expect(s.nextDeadline == .min && s.isDue(at: 0), "a change to a static picture is drawn at once")
        #expect(s.beginFrame().changed)
    }

    @Test func aChangeDuringAnAnimationWaitsForTheNextBoundary() {
        var s = Self.animating(boundary: 1_000)
        #expect(s.animation?.boundary == 1_000)
        s.markDirty()
        #expect(s.nextDeadline == 1_000)
        #expect(!s.isDue(at: 999))
        #expect(s.isDue(at: 1_000))
        let begun = s.beginFrame()
        #expect(begun.pacedTo == 1_000, "drawn for its boundary, not for the instant the loop woke")
        #expect(begun.changed)
    }

    @Test func newOutputsForceAFrameAtOnceDrawnForItsOwnInstant() {
        var s = Self.animating(boundary: 1_000)
        s.outputsChanged()
        #expect(s.nextDeadline == .min && s.isDue(at: 0))
        #expect(s.beginFrame().pacedTo == nil)
        #expect(s.nextDeadline == 1_000, "the animation's boundary is still ahead")
    }

    @Test func aDueFrameWaitsForFlipsAndIsDrawnForItsBoundaryWhenTheyCome() {
        var s = Self.animating(boundary: 1_000)
        s.waitForFlips(until: 2_000)
        #expect(s.flipWait == .init(until: 2_000, pacedTo: 1_000))
        #expect(s.nextDeadline == 2_000, "the loop wakes when the wait is given up")
        #expect(!s.isDue(at: 1_500) && !s.flipWaitExpired(at: 1_999))
        #expect(!s.hasUndrawnChange)
        s.flipsCame()
        #expect(s.nextDeadline == .min && s.hasUndrawnChange, "drawn in this turn")
        #expect(!s.flipWaitExpired(at: 5_000))
        #expect(s.beginFrame().pacedTo == 1_000)
        #expect(s.flipWait == nil)
    }

    @Test func aFlipWaitRunsOutAtItsDeadline() {
        var s = Self.animating(boundary: 1_000)
        s.waitForFlips(until: 2_000)
        #expect(s.flipWaitExpired(at: 2_000))
        #expect(s.beginFrame().pacedTo == 1_000)
    }

    @Test func aForcedFrameThatWaitsForFlipsIsDrawnForItsOwnInstant() {
        var s = Self.animating(boundary: 1_000)
        s.outputsChanged()
        s.waitForFlips(until: 2_000)
        #expect(s.flipWait?.pacedTo == nil)
        s.flipsCame()
        #expect(s.beginFrame().pacedTo == nil)
    }

    @Test func aFrameRenderedAheadIsHeldUntilItsPresentTimeThenTaken() {
        var s = Self.animating(boundary: 4_000, renderAt: 2_000, presentAt: 4_100)
        #expect(s.nextDeadline == 2_000, "rendered ahead of its boundary")
        #expect(s.isDue(at: 2_000))
        let paced = s.beginFrame().pacedTo
        #expect(paced == 4_000)
        #expect(s.renderAhead(for: paced) == 4_100)
        #expect(s.renderAhead(for: 3_000) == nil, "only the boundary planned for")
        let held = s.hold()
        #expect(held)
        #expect(s.phase == .held(.init(boundary: 4_000, renderAt: 2_000, presentAt: 4_100)))
        #expect(s.nextDeadline == 4_100)
        s.markDirty()
        #expect(s.nextDeadline == 4_100, "a change waits for the held frame, drawn into it then")
        #expect(s.isDue(at: 4_100))
        #expect(s.beginFrame() == (pacedTo: 4_000, changed: true))
        let taken = s.takeHeld(), again = s.takeHeld()
        #expect(taken && !again)
        #expect(s.phase == .animating(.init(boundary: 4_000, renderAt: 2_000)))
    }

    @Test func onlyAFramePlannedAheadIsHeld() {
        var s = Self.animating(boundary: 1_000)
        #expect(s.renderAhead(for: 1_000) == nil)
        let held = s.hold()
        #expect(!held)
        #expect(s.phase == .animating(.init(boundary: 1_000)))
    }

    @Test func presentingDropsThePlannedPresentTime() {
        var s = Self.animating(boundary: 4_000, renderAt: 2_000, presentAt: 4_100)
        s.presenting()
        #expect(s.animation?.presentAt == nil)
        #expect(s.renderAhead(for: 4_000) == nil)
    }

    @Test func aFrameNoOutputTookIsRetriedChangedOrNot() {
        var s = Self.animating(boundary: 1_000)
        s.markDirty()
        s.failed(retryAt: 250)
        #expect(s.phase == .failed(retryAt: 250))
        #expect(s.animation == nil && !s.dirty)
        #expect(s.nextDeadline == 250)
        #expect(!s.isDue(at: 249) && s.isDue(at: 250))
    }

    @Test func pausedDrawsNothingAndKeepsTheChangeForTheResume() {
        var s = Self.animating(boundary: 1_000)
        s.waitForFlips(until: 2_000)
        s.pause()
        #expect(s.isPaused && s.flipWait == nil && s.animation == nil)
        s.markDirty()
        s.outputsChanged()
        #expect(s.nextDeadline == nil && !s.isDue(at: .max) && !s.hasUndrawnChange)
        s.resume()
        #expect(s.phase == .idle(wakeAt: nil))
        #expect(s.nextDeadline == .min)
        #expect(s.beginFrame().pacedTo == nil, "the first frame back is not on the old grid")
    }

    @Test func resumingWhatIsNotPausedChangesNothing() {
        var s = Self.animating(boundary: 1_000)
        s.resume()
        #expect(s.animation?.boundary == 1_000)
    }

    // MARK: where the next animation frame falls

    @Test func byTimerTheGridStartsAtTheFirstFrameAndPassedBoundariesAreMissed() {
        let r = Self.refresh
        let s = PacingState()
        let first = s.nextAnimation(timing: .timer, byStamps: true, refresh: r, refreshesPerFrame: 1, renderedAt: 100, dueAt: nil, finishedAt: 200)
        #expect(first.next == .init(boundary: 100 + r))
        #expect(first.skipped == 0)
        let later = Self.animating(boundary: 100 + r)
        let late = later.nextAnimation(timing: .timer, byStamps: true, refresh: r, refreshesPerFrame: 1,
                                       renderedAt: 100 + r, dueAt: 100 + r, finishedAt: 100 + 3 * r + 5)
        #expect(late.next.boundary == 100 + 4 * r, "the first boundary after the frame finished")
        #expect(late.skipped == 2)
    }

    @Test func byStampsTheNextFrameIsDrawnAtTheStampAndGapsAreMissed() {
        let r = Self.refresh
        let s = PacingState()
        let first = s.nextAnimation(timing: .vblank(nanoseconds: 10 * r), byStamps: true, refresh: r, refreshesPerFrame: 1,
                                    renderedAt: 9 * r, dueAt: nil, finishedAt: 10 * r + 50)
        #expect(first.next == .init(boundary: 10 * r, lastStamp: 10 * r))
        var animating = PacingState()
        _ = animating.beginFrame()
        animating.animates(first.next)
        let gap = animating.nextAnimation(timing: .vblank(nanoseconds: 13 * r), byStamps: true, refresh: r, refreshesPerFrame: 1,
                                          renderedAt: 10 * r, dueAt: 10 * r, finishedAt: 13 * r + 10)
        #expect(gap.next == .init(boundary: 13 * r, lastStamp: 13 * r))
        #expect(gap.skipped == 2, "flips three refreshes apart: two frames missed")
        let soon = animating.nextAnimation(timing: .vblank(nanoseconds: 10 * r), byStamps: true, refresh: r, refreshesPerFrame: 1,
                                           renderedAt: 10 * r, dueAt: 10 * r, finishedAt: 10 * r + 10)
        #expect(soon.next.boundary == 10 * r + r - r / 4, "a stamp that comes back at once cannot make the loop spin")
    }

    @Test func stampsAreIgnoredWhenPacingIsByTimer() {
        let r = Self.refresh
        let next = PacingState().nextAnimation(timing: .vblank(nanoseconds: 5 * r), byStamps: false, refresh: r, refreshesPerFrame: 1,
                                               renderedAt: 100, dueAt: nil, finishedAt: 200)
        #expect(next.next == .init(boundary: 100 + r))
    }

    @Test func cappedWithStampsTheNextFrameIsRenderedAheadAndPresentedAfterItsVBlank() {
        let r = Self.refresh
        // 15 fps at 60 Hz, DRM's queued flips: the frame due at 10r flips at 11r, present returned the
        // stamp of the flip before (9r). The next is due at 14r (it flips at 15r, 4 refreshes
        // later), rendered two refreshes ahead and presented a quarter refresh after 14r.
        let s = Self.animating(boundary: 10 * r)
        let next = s.nextAnimation(timing: .vblank(nanoseconds: 9 * r), byStamps: true, refresh: r, refreshesPerFrame: 4,
                                   renderedAt: 10 * r, dueAt: 10 * r, finishedAt: 10 * r + 100)
        #expect(next.next == .init(boundary: 14 * r, renderAt: 12 * r, presentAt: 14 * r + r / 4, lastStamp: 9 * r))
        // Two refreshes a frame: nothing to render ahead by.
        let two = s.nextAnimation(timing: .vblank(nanoseconds: 9 * r), byStamps: true, refresh: r, refreshesPerFrame: 2,
                                  renderedAt: 10 * r, dueAt: 10 * r, finishedAt: 10 * r + 100)
        #expect(two.next == .init(boundary: 12 * r, lastStamp: 9 * r))
    }

    @Test func anExtraFrameThatPresentedNothingKeepsThePendingBoundary() {
        let s = Self.animating(boundary: 1_000)
        let next = s.nextAnimation(timing: nil, byStamps: true, refresh: Self.refresh, refreshesPerFrame: 1,
                                   renderedAt: 500, dueAt: nil, finishedAt: 600)
        #expect(next.next == .init(boundary: 1_000))
        #expect(next.skipped == 0)
    }
}
