// SPDX-License-Identifier: MIT
// A poller on virtual time for loop tests: each wait records its deadline and jumps a fake clock
// there, unless a scripted event comes first (descriptors becoming ready, or an action such as a
// posted message); a wait with neither deadline nor event left is a loop blocked for ever:
// recorded as an issue instead of hanging the test.
import Runtime
import Testing

final class VirtualPoller: LoopPoller {
    struct Event {
        var at: Int64
        var ready: [LoopReadiness] = []
        var action: () -> Void = {}
    }

    final class Waker: LoopWaker, @unchecked Sendable {
        var wakes = 0
        func wake() { wakes += 1 }
    }

    let clock: FakeClock
    /// The deadline of every wait, in order.
    var deadlines: [Int64?] = []
    /// What happens before a deadline, earliest first.
    var events: [Event] = []
    /// Interest by descriptor, as the loop registered it.
    var interests: [Int32: LoopInterest] = [:]
    let wakeCounter = Waker()
    var waker: any LoopWaker { wakeCounter }

    init(_ clock: FakeClock) { self.clock = clock }

    func add(_ descriptor: Int32, interest: LoopInterest) throws {
        #expect(interests[descriptor] == nil, "added twice: \(descriptor)")
        interests[descriptor] = interest
    }
    func modify(_ descriptor: Int32, interest: LoopInterest) throws { interests[descriptor] = interest }
    func remove(_ descriptor: Int32) { interests[descriptor] = nil }

    func poll(until deadline: Int64?, into ready: inout [LoopReadiness]) throws {
        ready = try pollOnce(until: deadline)
    }

    private func pollOnce(until deadline: Int64?) throws -> [LoopReadiness] {
        deadlines.append(deadline)
        if let event = events.first, deadline.map({ event.at < $0 }) ?? true {
            events.removeFirst()
            clock.now = max(clock.now, event.at)
            event.action()
            return event.ready
        }
        guard let deadline else {
            Issue.record("the loop blocked with nothing to wake it")
            return []
        }
        clock.now = max(clock.now, deadline)
        return []
    }
}
