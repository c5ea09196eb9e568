// What a display can do beyond showing frames, asked through the protocol instead of by type.
import Display
import Raster
import Testing

/// The smallest display: it shows nothing and declares no capability.
private final class BareDisplay: Display {
    var outputs: [DisplayOutput] = [DisplayOutput(name: "bare", mode: DisplayMode(width: 4, height: 4, refreshMillihertz: 60_000), format: .xrgb8888, rotation: .r0)]
    func present(_ frame: PixmapView, damage: [IntRect]) throws(DisplayError) -> PresentTiming { .timer }
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
