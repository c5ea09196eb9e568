// SPDX-License-Identifier: MIT
// HUDRuntime's own contract: commands in (bad ones refused, logged and without effect), requests
// posted to the inbox and applied in order at the next turn, the loop stepping on a fake clock,
// extra descriptors watched on the loop (a pipe standing in for the command FIFO), events handed
// out per turn, and quit restoring or retaining the screen and ending `run`.
#if canImport(Glibc)
import Glibc
#endif
import Display
import HUD
import HUDProtocol
import Raster
@testable import Runtime
import Testing

@Suite("HUDRuntime")
struct HUDRuntimeTests {
    struct Rig {
        let clock = FakeClock(Fixtures.t0)
        let display = MemoryDisplay(width: 320, height: 240)
        let poller: PollingPoller
        let log = LogLines()
        let runtime: HUDRuntime
        init() throws {
            poller = PollingPoller(clock)
            let clock = self.clock
            runtime = try HUDRuntime(display: display, resources: Fixtures.resources, poller: poller, clock: { clock.now }, console: .off, logger: log.logger)
        }
        func settle() throws {
            let blocked = poller.blocked
            var turns = 0
            while poller.blocked == blocked && turns < 600 { try runtime.step(); turns += 1 }
        }
    }

    @Test("requests posted during an animation are applied in order at once, drawn at the next refresh boundary")
    func postedRequestsKeepTheGrid() throws {
        let clock = FakeClock(Fixtures.t0)
        let display = MemoryDisplay(width: 320, height: 240)
        let poller = VirtualPoller(clock)
        let runtime = try HUDRuntime(display: display, resources: Fixtures.resources, poller: poller, clock: { clock.now }, console: .off)
        runtime.post(.hud(.show(status: "Working")))
        for _ in 0..<30 { try runtime.step() }  // the spinner turns: a frame per boundary
        let interval = display.frameIntervalNanoseconds
        let boundary = try #require(runtime.frames.pendingDeadline)
        let frames = runtime.frames.framesPresented
        // Half way to the next boundary three requests arrive from another thread: the post wakes
        // the loop, which applies them in order in that turn but draws nothing off the grid.
        poller.events = [.init(at: boundary - interval / 2, action: {
            runtime.post(.hud(.status("A")))
            runtime.post(.hud(.progress(fraction: Fixed16_16(0.5), status: "B")))
            runtime.post(.hud(.status("C")))
        })]
        try runtime.step()
        #expect(clock.now == boundary - interval / 2)
        #expect(runtime.controller.presentation().status == "C", "applied in the order posted")
        #expect(runtime.inbox.isEmpty)
        #expect(runtime.frames.framesPresented == frames, "no frame between two boundaries")
        try runtime.step()
        #expect(poller.deadlines.last == boundary)
        #expect(runtime.frames.framesPresented == frames + 1, "drawn at the boundary")
    }

    @Test("events are handed out once, at the end of the turn they happened in, and not kept")
    func eventsPerTurn() throws {
        let rig = try Rig()
        var turns: [[String]] = []
        rig.runtime.addEventListener { turns.append($0.map(\.kind.rawValue)) }
        rig.runtime.post(.hud(.show(status: "Hi")))
        try rig.settle()
        #expect(turns == [["will-appear"], ["did-appear"]], "\(turns)")
        #expect(rig.runtime.controller.events.isEmpty)
    }

    @Test("a bad command is refused with the parser's error, logged, and changes nothing")
    func badCommand() throws {
        let rig = try Rig()
        rig.runtime.submit("progress 0.4 \"Copying\"")
        try rig.settle()
        let before = rig.runtime.controller.presentation()
        let shown = rig.display.scanoutBytes
        let result = rig.runtime.submit("progress lots")
        var expected: CommandError?
        do { _ = try CommandParser.parse("progress lots") } catch { expected = error }
        guard case .failure(let error) = result else { Issue.record("accepted: \(result)"); return }
        #expect(error == (try #require(expected)))
        #expect(rig.log.contains("command refused", level: .error))
        #expect(rig.log.contains("progress lots"))
        try rig.settle()
        #expect(rig.runtime.controller.presentation() == before)
        #expect(rig.display.scanoutBytes == shown)
        // Blank and comment lines are fine and do nothing.
        #expect((try? rig.runtime.submit("  ").get()) != nil)
        #expect((try? rig.runtime.submit("# note").get()) != nil)
    }

    @Test("a command from a watched descriptor (a pipe, as the FIFO) is applied and drawn; unwatch stops it")
    func watchedDescriptor() throws {
        let rig = try Rig()
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var lines: [String] = []
        try rig.runtime.watch(fds[0]) { fd in
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = read(fd, &buffer, 256)
            for line in String(decoding: buffer[0..<max(n, 0)], as: UTF8.self).split(separator: "\n") {
                lines.append(String(line))
                rig.runtime.submit(String(line))
            }
        }
        try rig.settle()
        #expect(rig.display.presentCount == 1, "the first frame: the screen colour")
        let line = "success \"Done\"\n"
        #expect(write(fds[1], line, line.utf8.count) == line.utf8.count)
        try rig.runtime.step()
        #expect(lines == ["success \"Done\""])
        for _ in 0..<12 { try rig.runtime.step() }  // 0.2 s: faded in, not yet dismissed
        #expect(rig.display.presentCount > 1)
        #expect(Fixtures.box(of: rig.display.shown(), background: Color.black.premultiplied).width > 50)
        rig.runtime.unwatch(fds[0])
        #expect(!rig.runtime.loop.watchedDescriptors.contains(fds[0]))
    }

    @Test("quit from a handler ends run and restores the screen; retain keeps the last frame")
    func quit() throws {
        let rig = try Rig()
        rig.runtime.submit("show \"Bye\"")
        var turns = 0
        try rig.runtime.run(until: { turns += 1; if turns == 20 { rig.runtime.quit(retain: false) }; return turns > 1000 })
        #expect(turns == 20)
        #expect(rig.runtime.isFinished)
        #expect(rig.display.closedAs == .restore)
        #expect(rig.display.scanoutBytes.allSatisfy { $0 == 0 })
        let count = rig.display.presentCount
        try rig.runtime.step()
        #expect(rig.display.presentCount == count, "nothing is drawn after quit")

        let kept = try Rig()
        kept.runtime.submit("show \"Bye\"")
        for _ in 0..<5 { try kept.runtime.step() }
        let last = kept.display.scanoutBytes
        kept.runtime.quit(retain: true)
        kept.runtime.quit(retain: false)  // idempotent: the first way out stands
        #expect(kept.display.closedAs == .retain)
        #expect(kept.display.scanoutBytes == last)
        #expect(last.contains { $0 != 0 })
    }

    @Test("HUD time starts at the runtime's creation: a 1.5 s dismiss fires on the fake clock")
    func timersOnTheClock() throws {
        let rig = try Rig()
        rig.runtime.submit("show")
        rig.runtime.submit("dismiss 1.5")
        try rig.settle()  // animates until hidden, then blocks
        #expect(!rig.runtime.controller.isVisible)
        #expect(rig.clock.now - Fixtures.t0 >= 1_500_000_000)
        #expect(rig.clock.now - Fixtures.t0 < 2_500_000_000)
        #expect(Fixtures.box(of: rig.display.shown(), background: Color.black.premultiplied) == .zero)
    }
}

@Suite("HUDRuntime console")
struct HUDRuntimeConsoleTests {
    @Test("a VT that cannot be opened is logged and the HUD runs without console; memory takes none automatically")
    func noConsole() throws {
        let log = LogLines()
        let clock = FakeClock(Fixtures.t0)
        let display = MemoryDisplay(width: 64, height: 48)
        let runtime = try HUDRuntime(display: display, resources: Fixtures.resources, poller: PollingPoller(clock), clock: { clock.now },
                                     console: .device("/nonexistent/tty9"), logger: log.logger)
        #expect(runtime.console == nil && runtime.consoleSignals == nil)
        #expect(log.contains("/nonexistent/tty9", level: .error), "\(log.lines)")
        try runtime.step()
        #expect(display.presentCount == 1)
        let auto = try HUDRuntime(display: MemoryDisplay(width: 8, height: 8), resources: Fixtures.resources, poller: PollingPoller(clock),
                                  clock: { clock.now }, console: .automatic, logger: log.logger)
        #expect(auto.console == nil)
    }
}
