// SPDX-License-Identifier: MIT
// The loop's real poller: a wait ends at its deadline (timerfd, absolute), at a wake-up from
// another thread, or when a watched descriptor is ready; with no deadline nothing ticks.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LinuxSystem
import Runtime
import Testing

@Suite struct EpollPollerTests {
    @Test func aWaitEndsAtItsDeadline() throws {
        let poller = try EpollPoller()
        let deadline = MonotonicClock.nanoseconds() + 20_000_000
        #expect(try poller.poll(until: deadline).isEmpty)
        #expect(MonotonicClock.nanoseconds() >= deadline)
        // A deadline already past does not block.
        #expect(try poller.poll(until: 0).isEmpty)
    }

    @Test func aWakeFromAnotherThreadEndsAWaitWithoutDeadline() throws {
        let poller = try EpollPoller()
        let waker = poller.waker
        Thread.detachNewThread { Thread.sleep(forTimeInterval: 0.05); waker.wake() }
        #expect(try poller.poll(until: nil).isEmpty)
        // A wake-up before the wait ends the next wait at once.
        waker.wake()
        #expect(try poller.poll(until: nil).isEmpty)
    }

    @Test func watchedDescriptorsReportReadAndWriteReadiness() throws {
        let poller = try EpollPoller()
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        try poller.add(fds[0], interest: .read)
        try poller.add(fds[1], interest: .write)
        #expect(try poller.poll(until: nil) == [LoopReadiness(descriptor: fds[1], writable: true)])
        try poller.modify(fds[1], interest: [])
        #expect(write(fds[1], "x", 1) == 1)
        #expect(try poller.poll(until: nil) == [LoopReadiness(descriptor: fds[0], readable: true)])
        poller.remove(fds[0])
        #expect(try poller.poll(until: MonotonicClock.nanoseconds() + 1_000_000).isEmpty)
    }
}
