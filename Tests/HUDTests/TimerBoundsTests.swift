// SPDX-License-Identifier: MIT
// What input can make the controller keep: SV's delayed dismissals cannot be cancelled, so they are
// bounded by refusing more; the timer queue stays in firing order however it is filled.
import HUDProtocol
import Raster
import Testing
@testable import HUD

@Suite struct TimerBoundsTests {
    @Test func delayedDismissalsPastTheBoundAreRefusedAndChangeNothing() {
        let v = VirtualHUD()
        v.at(0, .show(status: "Busy"))
        let cap = HUDController.maxPendingDismissals
        for i in 0..<cap {
            let command = HUDCommand.dismiss(delay: .seconds(900_000 + Double(i)))
            #expect(v.hud.refusal(of: command) == nil)
            v.hud.apply(command)
        }
        let pending = v.hud.pendingTimers
        let refused = HUDCommand.dismiss(delay: .seconds(900_000))
        let message = v.hud.refusal(of: refused)
        #expect(message?.contains("\(cap) delayed dismissals are pending already") == true, "\(message ?? "nil")")
        // Immediate dismissals, other commands and MB's (one re-armed timer) stay allowed.
        #expect(v.hud.refusal(of: .dismiss(delay: .zero)) == nil)
        #expect(v.hud.refusal(of: .show(status: nil)) == nil)
        #expect(pending >= cap)
        // When the first of them fires, there is room for one more.
        v.clock.advance(to: .seconds(900_001))
        #expect(v.hud.refusal(of: refused) == nil)
    }

    @Test func theQueueFiresInInstantThenScheduleOrder() {
        var queue = TimerQueue<Int>()
        var rng = SystemRandomNumberGenerator()
        var expected: [(Instant, Int)] = []
        for n in 0..<2_000 {
            let fire = Instant(nanoseconds: Int64.random(in: 0..<50, using: &rng))
            queue.schedule(n, at: fire)
            expected.append((fire, n))
        }
        var cancelled = Set<Int>()
        for id in stride(from: 1, through: 2_000, by: 7) { queue.cancel(id); cancelled.insert(id - 1) }
        expected = expected.filter { !cancelled.contains($0.1) }.sorted { ($0.0.nanoseconds, $0.1) < ($1.0.nanoseconds, $1.1) }
        var fired: [Int] = []
        while let e = queue.popDue(upTo: Instant(nanoseconds: 100)) { fired.append(e.action) }
        #expect(fired == expected.map(\.1))
        #expect(queue.nextFire == nil)
    }
}
