// The self-pipe: a raised signal comes out of `wait` as what it means, in order, and nothing comes
// out when nothing was raised. SIGWINCH stands in for SIGTERM so the test runner keeps its own
// SIGTERM/SIGINT behaviour; the handlers are removed again when the object goes.

#if canImport(Glibc)
import Glibc
#endif
import Testing

@testable import Display

@Suite("Console signals")
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
}
