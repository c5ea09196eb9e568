// SPDX-License-Identifier: MIT
// One ConsoleSignals per process, so the tests run one after the other.
// The self-pipe: a raised signal comes out of `wait` as what it means, in order, and nothing comes
// out when nothing was raised. SIGWINCH stands in for SIGTERM so the test runner keeps its own
// SIGTERM/SIGINT behaviour; the handlers are removed again when the object goes.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HUDProtocol
import Testing

@testable import Display

@Suite("Console signals", .serialized)
struct ConsoleSignalsTests {
    @Test func raisedSignalsComeOutOfThePipeInOrder() throws {
        let signals = try ConsoleSignals(releaseSignal: SIGUSR1, acquireSignal: SIGUSR2, terminationSignals: [SIGWINCH])
        #expect(try signals.wait(timeoutMilliseconds: 0) == nil)
        // raise(3) runs the handler before it returns.
        raise(SIGUSR1)
        raise(SIGUSR2)
        raise(SIGWINCH)
        #expect(try signals.wait(timeoutMilliseconds: 1000) == .release)
        #expect(try signals.wait(timeoutMilliseconds: 1000) == .acquire)
        #expect(try signals.wait(timeoutMilliseconds: 1000) == .terminate(SIGWINCH))
        #expect(try signals.wait(timeoutMilliseconds: 10) == nil)
        #expect(signals.classify(SIGPIPE) == nil)
    }

    @Test func aSignalDuringTheWaitEndsItWithThatSignal() throws {
        let signals = try ConsoleSignals(releaseSignal: SIGUSR1, acquireSignal: SIGUSR2, terminationSignals: [SIGWINCH])
        // Sent to this thread while it sits in poll(2): the handler writes the byte, poll fails
        // with EINTR, and the byte must still come out rather than a timeout.
        let waiter = pthread_self()
        let sent = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            usleep(100_000)
            pthread_kill(waiter, SIGUSR2)
            sent.signal()
        }
        // Joined before the handlers go, even if the wait failed: a SIGUSR2 arriving after them
        // would kill the whole test process.
        defer { sent.wait(); withExtendedLifetime(signals) {} }
        let start = Date()
        #expect(try signals.wait(timeoutMilliseconds: 5000) == .acquire)
        #expect(Date().timeIntervalSince(start) < 4)
    }
}
