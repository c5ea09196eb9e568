// SPDX-License-Identifier: MIT
// The start-up line: each marked phase with the time since the one before, in order, and the
// total from main to the last mark.
import Testing
@testable import Runtime

@Suite struct StartupTimelineTests {
    @Test func phasesInOrderWithTheirTimes() {
        var now: Int64 = 1_000_000_000
        let timeline = StartupTimeline(clock: { now }, cpuBeforeMain: 12_340_000, execAt: 1_000_000_000 - 41_700_000)
        now += 30_600_000; timeline.mark("options")
        now += 2_600_000; timeline.mark("profile")
        now += 34_850_000; timeline.mark("first frame")
        #expect(timeline.summary() == "start-up: exec to main 41.7 ms (12.3 ms CPU); options 30.6 ms, profile 2.6 ms, first frame 34.9 ms; main to first frame 68.1 ms")
    }

    @Test func withoutTheExecTime() {
        var now: Int64 = 5
        let timeline = StartupTimeline(clock: { now }, cpuBeforeMain: 38_000_000)
        now += 200_000; timeline.mark("options")
        #expect(timeline.summary() == "start-up: 38.0 ms CPU before main; options 0.2 ms; main to options 0.2 ms")
    }
}
