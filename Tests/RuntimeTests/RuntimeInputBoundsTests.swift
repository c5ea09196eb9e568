// SPDX-License-Identifier: MIT
// Bad input against the runtime: a command naming a file that cannot be used (a FIFO, a missing
// file) is refused at once with a clear error and changes nothing; and a flood of hundreds of
// thousands of FIFO lines (shows, long dismiss delays, missing images) leaves every structure that
// input controls within its bound.
#if canImport(Glibc)
import Glibc
#endif
import Display
import Foundation
import HUD
import HUDProtocol
import Logging
import Raster
@testable import Runtime
import Testing

@Suite struct RuntimeInputBoundsTests {
    struct Rig {
        let clock = FakeClock(Fixtures.t0)
        let display = MemoryDisplay(width: 240, height: 160)
        let log = LogLines()
        let runtime: HUDRuntime
        init() throws {
            let clock = self.clock
            runtime = try HUDRuntime(display: display, resources: Fixtures.resources, poller: PollingPoller(clock),
                                     clock: { clock.now }, console: .off, logger: log.logger)
        }
    }

    @Test func anImageOrFontThatCannotBeUsedIsRefusedAtOnceAndChangesNothing() throws {
        let rig = try Rig()
        rig.runtime.submit(.show(status: "Busy"))
        let before = rig.runtime.controller.presentation()
        let fifo = NSTemporaryDirectory() + "splashhud-image-fifo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var refusals: [String?] = []
        // The runtime is handed to one other thread and not touched here until it is done.
        nonisolated(unsafe) let runtime = rig.runtime
        Thread.detachNewThread {
            refusals = [runtime.submit(.image(.custom(path: fifo), status: "Done")),
                        runtime.submit(.set(.font(path: fifo))),
                        runtime.submit(.image(.custom(path: "/nonexistent/done.png"), status: nil))]
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 10) == .success, "a FIFO named as an image blocked the runtime")
        #expect(refusals[0] == "image \(fifo) cannot be shown: cannot read \(fifo): not a regular file (a FIFO)", "\(refusals[0] ?? "nil")")
        #expect(refusals[1]?.hasPrefix("font \(fifo) cannot be used: ") == true && refusals[1]?.contains("a FIFO") == true, "\(refusals[1] ?? "nil")")
        #expect(refusals[2]?.hasPrefix("image /nonexistent/done.png cannot be shown: ") == true)
        #expect(rig.log.contains("command refused: image \(fifo)", level: .error))
        #expect(rig.runtime.controller.presentation() == before, "refused commands change nothing")
    }

    @Test func aFloodOfFIFOLinesStaysWithinEveryBound() throws {
        let rig = try Rig()
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let session = try SplashSession(runtime: rig.runtime, script: [], duration: nil, fifoPath: nil, fifoMode: 0o600,
                                        retain: false, catchSignals: false, logger: logger)
        var handedOut = 0
        rig.runtime.addEventListener { handedOut += $0.count }
        let lines = ["show \"Step\"", "dismiss 900000", "image /nonexistent/missing-%d.png", "progress 0.5 \"Half\"", "dismiss 899999.5"]
        var fed = 0
        for round in 0..<40_000 {
            for line in lines { session.input(.success(line.replacingOccurrences(of: "%d", with: "\(round)"))); fed += 1 }
            if round % 100 == 0 {
                rig.clock.now += 1_000_000  // 1 ms of loop time per hundred rounds
                try rig.runtime.step()
            }
        }
        try rig.runtime.step()
        #expect(fed == 200_000)
        #expect(rig.runtime.inbox.isEmpty)
        #expect(rig.runtime.controller.events.isEmpty, "events are handed out, never kept")
        #expect(handedOut > 0)
        #expect(rig.runtime.controller.pendingTimers <= HUDController.maxPendingDismissals + 8, "\(rig.runtime.controller.pendingTimers) timers")
        let cached = rig.runtime.scene.resources.cachedCount
        #expect(cached.images <= 16 && cached.fonts <= 8, "\(cached)")
        #expect(session.refusedLines == 0, "the lines parse; what they name is refused by the runtime")
    }
}
