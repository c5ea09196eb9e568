// SPDX-License-Identifier: MIT
// What a display can do beyond showing frames, asked through the protocol instead of by type.
import Display
import Raster
import Testing

/// The smallest display: it shows nothing and declares no capability.
private final class BareDisplay: Display {
    var outputs: [DisplayOutput] = [DisplayOutput(name: "bare", mode: DisplayMode(width: 4, height: 4, refreshMillihertz: 60_000), format: .xrgb8888, rotation: .r0)]
    func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming { .timer }
    var frameIntervalNanoseconds: Int64 { 16_666_667 }
    func close(_ how: CloseBehaviour) {}
}

@Suite struct DisplayCapabilitiesTests {
    @Test func aDisplayDeclaresNothingByDefault() throws {
        let d = BareDisplay()
        #expect(d.showsOnRealScreen)
        #expect(d.fbdevEmulationPaths.isEmpty)
        #expect(d.presentCount(output: 0) == nil)
        #expect(d.shownPicture(output: 0) == nil)
        try d.releaseMaster()
    }

    @Test func theMemoryDisplayReadsBackAndFollowsTheLoopsClock() throws {
        let d = MemoryDisplay(width: 8, height: 4)
        #expect(!d.showsOnRealScreen)
        #expect(d.presentCount(output: 0) == 0)
        let frame = Pixmap(width: 8, height: 4)
        frame.view[2, 1] = Color(rgb: 0x00FF00).premultiplied
        _ = try d.present(frame.view, damage: [frame.view.bounds])
        #expect(d.presentCount(output: 0) == 1)
        #expect(d.shownPicture(output: 0)?.view[2, 1] == Color(rgb: 0x00FF00).premultiplied)
        #expect(d.presentCount(output: 1) == nil)
        d.useClock { 5_000_000_000 }
        #expect(d.vblankClock?() == 5_000_000_000)
        d.useClock { 7 }
        #expect(d.vblankClock?() == 5_000_000_000, "a clock already set (by a test) is kept")
    }
}

@Suite struct DiagnosticLogTests {
    @Test func keepsTheMostRecentLinesAndCountsAll() {
        var log = DiagnosticLog(capacity: 3)
        for i in 1...10 { log.append("line \(i)") }
        #expect(Array(log) == ["line 8", "line 9", "line 10"])
        #expect(log.total == 10)
        #expect(Array(log.added(since: 8)) == ["line 9", "line 10"])
        #expect(Array(log.added(since: 2)) == ["line 8", "line 9", "line 10"], "what was dropped is not returned")
        #expect(log.added(since: 10).isEmpty)
    }

    @Test func aDisplaySetFollowingHotplugKeepsABoundedLog() {
        var log = DiagnosticLog()
        for n in 0..<10_000 { log += ["/dev/dri/card\(n % 4): connectors re-read"] }
        #expect(log.count == DiagnosticLog.defaultCapacity)
    }
}
