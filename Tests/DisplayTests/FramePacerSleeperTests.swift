#if canImport(Glibc)
import Glibc
#endif
import Display
import Testing

/// The real sleeper's wake-up sources, each made ready before the wait so nothing depends on
/// timing: a deadline already past, the waker, a watched pipe; and priorities between them.
@Suite("TimerfdSleeper")
struct FramePacerSleeperTests {
    @Test("a deadline already past expires at once, once")
    func pastDeadline() throws {
        let sleeper = try TimerfdSleeper()
        let now = FramePacer.monotonicNanoseconds()
        #expect(try sleeper.wait(until: now - 1_000_000) == .deadline)
        // Armed again for another past instant: expires again (the one-shot was consumed).
        sleeper.waker.wake()
        #expect(try sleeper.wait(until: now - 500_000) == .woken, "the waker comes first")
        #expect(try sleeper.wait(until: now - 500_000) == .deadline, "the timer stayed armed through the wake-up")
    }

    @Test("the waker ends a wait without deadline; wake-ups coalesce")
    func waker() throws {
        let sleeper = try TimerfdSleeper()
        sleeper.waker.wake()
        sleeper.waker.wake()
        #expect(try sleeper.wait(until: nil) == .woken)
        // Both wake-ups were consumed by that one read: the next ready source is the past deadline.
        #expect(try sleeper.wait(until: FramePacer.monotonicNanoseconds() - 1) == .deadline)
    }

    @Test("a watched descriptor ends a wait and is named")
    func watched() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let sleeper = try TimerfdSleeper(watching: [fds[0]])
        var byte: UInt8 = 7
        #expect(write(fds[1], &byte, 1) == 1)
        #expect(try sleeper.wait(until: nil) == .readable(fds[0]))
        // A far deadline does not hide a ready descriptor.
        #expect(try sleeper.wait(until: FramePacer.monotonicNanoseconds() + 3_600_000_000_000) == .readable(fds[0]))
    }
}
