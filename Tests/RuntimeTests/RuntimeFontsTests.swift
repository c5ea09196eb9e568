// SPDX-License-Identifier: MIT
// The runtime opens the default fonts after its first frame (a spinner needs none, and opening
// them was a large part of the daemon's start under emulation), and a font set that does not load
// is logged then while the HUD goes on without text. `whenReady` steps run before them.
import Display
import HUD
import HUDProtocol
@testable import Runtime
import Testing

@Suite("HUDRuntime fonts")
struct RuntimeFontsTests {
    /// Steps `runtime` until its first frame is presented (at most 100 turns).
    func stepToFirstFrame(_ runtime: HUDRuntime) throws {
        var turns = 0
        while runtime.frames.framesPresented == 0 && turns < 100 { try runtime.step(); turns += 1 }
        #expect(runtime.frames.framesPresented > 0, "no first frame in 100 turns")
    }

    @Test("the default fonts open at the end of the first frame's turn, after the ready steps, not before")
    func fontsOpenAfterTheFirstFrame() throws {
        let clock = FakeClock(Fixtures.t0)
        let resources = HUDResources.systemOnFirstUse()
        let runtime = try HUDRuntime(display: MemoryDisplay(width: 320, height: 240), resources: resources,
                                     poller: PollingPoller(clock), clock: { clock.now }, console: .off)
        var openAtReady: Bool?
        runtime.whenReady { openAtReady = resources.fontsLoaded }
        runtime.post(.hud(.show(status: nil)))
        try stepToFirstFrame(runtime)
        #expect(openAtReady == false, "opened before the first frame was out")
        #expect(resources.fontsLoaded)
    }

    @Test("a ready step added once the runtime is ready runs at the next turn's end")
    func lateReadyStep() throws {
        let clock = FakeClock(Fixtures.t0)
        let runtime = try HUDRuntime(display: MemoryDisplay(width: 320, height: 240), resources: Fixtures.resources,
                                     poller: PollingPoller(clock), clock: { clock.now }, console: .off)
        runtime.post(.hud(.show(status: nil)))
        try stepToFirstFrame(runtime)
        var runs = 0
        runtime.whenReady { runs += 1 }
        try runtime.step()
        try runtime.step()
        #expect(runs == 1)
    }

    @Test("fonts that do not load are logged after the first frame; the HUD goes on without text")
    func missingFontsAreLoggedAndTheHUDGoesOn() throws {
        let clock = FakeClock(Fixtures.t0)
        let log = LogLines()
        let resources = HUDResources.systemOnFirstUse(regularPaths: ["/nonexistent/regular.ttf"])
        let runtime = try HUDRuntime(display: MemoryDisplay(width: 320, height: 240), resources: resources,
                                     poller: PollingPoller(clock), clock: { clock.now }, console: .off, logger: log.logger)
        runtime.post(.hud(.show(status: nil)))
        try stepToFirstFrame(runtime)
        #expect(log.contains("HUD fonts: no usable font: searched /nonexistent/regular.ttf", level: .error), "\(log.lines)")
        let frames = runtime.frames.framesPresented
        #expect(runtime.apply(.hud(.status("Installing"))) == .applied)
        for _ in 0..<5 { try runtime.step() }
        #expect(runtime.frames.framesPresented > frames && !runtime.isFinished)
        #expect(runtime.controller.presentation().status == "Installing")
    }
}
