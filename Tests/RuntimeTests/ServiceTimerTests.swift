// The service's one-shot timer: readable only once its CLOCK_MONOTONIC deadline has passed,
// cleared by acknowledge, disarmed by nil.
import Display
import Glibc
import Runtime
import Testing

@Suite("ServiceTimer")
struct ServiceTimerTests {
    /// Waits up to `ms` for the descriptor to become readable.
    func readable(_ fd: Int32, within ms: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, ms) == 1
    }

    @Test func expiresAtItsDeadlineAndNotBefore() throws {
        let timer = try ServiceTimer()
        #expect(!readable(timer.descriptor, within: 30), "disarmed: never readable")
        let start = FramePacer.monotonicNanoseconds()
        try timer.arm(at: start + 80_000_000)
        #expect(timer.deadline == start + 80_000_000)
        // Readable means the deadline has passed, never earlier. (Not "unreadable for 40 ms": a
        // thread held up for 40 ms on a loaded machine would see it fire on time.)
        let early = readable(timer.descriptor, within: 40)
        #expect(!early || FramePacer.monotonicNanoseconds() >= start + 80_000_000, "readable before the deadline")
        #expect(readable(timer.descriptor, within: 1000))
        #expect(FramePacer.monotonicNanoseconds() - start >= 80_000_000)
        #expect(try timer.acknowledge())
        #expect(timer.deadline == nil)
        #expect(!readable(timer.descriptor, within: 20), "acknowledged: quiet again")
        #expect(try !timer.acknowledge())
    }

    @Test func aPastDeadlineFiresAtOnceAndNilDisarms() throws {
        let timer = try ServiceTimer()
        try timer.arm(at: FramePacer.monotonicNanoseconds() - 1_000_000)
        #expect(readable(timer.descriptor, within: 100))
        try timer.acknowledge()
        try timer.arm(at: FramePacer.monotonicNanoseconds() + 30_000_000)
        try timer.arm(at: nil)
        #expect(!readable(timer.descriptor, within: 80), "disarmed before it fired")
    }
}
