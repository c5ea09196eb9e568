// SPDX-License-Identifier: MIT
// The conformance harness (a HUD on a ManualClock driven by timed commands) and the timeline
// primitives under it: Core Animation's model/presentation split and the timer queue.
import HUDProtocol
import Testing
import Raster
@testable import HUD

/// A HUD on a virtual clock: commands at given seconds, events as their log lines.
final class VirtualHUD {
    let clock = ManualClock()
    let hud: HUDController

    init(_ settings: [HUDSetting] = []) {
        hud = HUDController(clock: clock, appearance: HUDAppearance().applying(settings))
    }

    /// Applies `command` at `seconds` (the clock only moves forward).
    func at(_ seconds: Double, _ command: HUDCommand) {
        clock.advance(to: .seconds(seconds))
        hud.apply(command)
    }

    /// Every event up to `seconds`, as `T EVENT STATUS` lines.
    func log(until seconds: Double) -> [String] {
        clock.advance(to: .seconds(seconds))
        hud.update()
        return hud.events.map(\.description)
    }

    /// The presentation at `seconds`.
    func frame(_ seconds: Double) -> HUDPresentation {
        clock.advance(to: .seconds(seconds))
        return hud.presentation()
    }
}

@Suite struct BehaviourTimelineTests {
    @Test func animatedValueShowsTheModelOnceTheAnimationEnds() {
        var v = AnimatedValue(.zero)
        let t0 = Instant.zero
        v.animate(to: .one, at: t0, duration: .milliseconds(100), curve: .linear, group: 1)
        #expect(v.model == .one)  // the model changes at once
        #expect(v.presented(at: t0) == .zero)
        #expect(v.presented(at: .seconds(0.05)) == .half)
        #expect(v.presented(at: .seconds(0.1)) == .one)
        #expect(v.running(at: .seconds(0.1)) == nil)
    }

    @Test func settingOutsideAnAnimationLeavesTheRunningOneOnScreen() {
        var v = AnimatedValue(.zero)
        v.animate(to: .one, at: .zero, duration: .milliseconds(100), curve: .linear, group: 1)
        v.set(Fixed16_16(2))
        #expect(v.presented(at: .seconds(0.05)) == .half)
        #expect(v.presented(at: .seconds(0.1)) == Fixed16_16(2))
    }

    @Test func animatingStartsFromTheScreenAndReportsTheReplacedGroup() {
        var v = AnimatedValue(.zero)
        v.animate(to: .one, at: .zero, duration: .milliseconds(100), curve: .linear, group: 1)
        let replaced = v.animate(to: .zero, at: .seconds(0.05), duration: .milliseconds(100), curve: .linear, group: 2)
        #expect(replaced == 1)
        #expect(v.presented(at: .seconds(0.05)) == .half)
        #expect(v.presented(at: .seconds(0.1)) == Fixed16_16(raw: 1 << 14))
        // No change of the model, no animation (UIKit adds none).
        #expect(v.animate(to: .zero, at: .seconds(0.2), duration: .milliseconds(100), curve: .linear, group: 3) == nil)
        #expect(v.segment?.group == 2)
    }

    @Test func timersFireByInstantThenByScheduleOrder() {
        var q = TimerQueue<String>()
        q.schedule("b", at: .seconds(2))
        let a = q.schedule("a", at: .seconds(1))
        q.schedule("c", at: .seconds(2))
        q.schedule("x", at: .seconds(1.5))
        q.cancel(q.first { $0 == "x" }?.id)
        #expect(q.isPending(a))
        #expect(q.nextFire == .seconds(1))
        var order: [String] = []
        while let e = q.popDue(upTo: .seconds(2)) { order.append(e.action) }
        #expect(order == ["a", "b", "c"])
        #expect(!q.isPending(a))
        #expect(q.nextFire == nil)
    }

    @Test func timersDueBeforeACommandFireFirstAtTheirOwnInstant() {
        // A1: show*/dismiss* run on the main queue after what is already due on the run loop.
        let t = VirtualHUD()
        t.at(0, .image(.success, status: "Saved"))
        t.at(10, .show(status: "Again"))
        #expect(t.hud.events.map(\.description) == [
            "0.000 will-appear Saved", "0.150 did-appear Saved",
            "5.150 will-disappear Saved", "5.300 did-disappear Saved",
            "10.000 will-appear Again",
        ])
        #expect(t.hud.events[2].time == Instant(nanoseconds: 5_150_000_000))
    }

    @Test func drainingEmptiesTheLog() {
        let t = VirtualHUD()
        t.at(0, .show(status: nil))
        #expect(t.hud.drainEvents().map(\.description) == ["0.000 will-appear"])
        _ = t.log(until: 1)
        #expect(t.hud.drainEvents().map(\.description) == ["0.150 did-appear"])
        #expect(t.hud.events.isEmpty)
    }
}
