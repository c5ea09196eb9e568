// SPDX-License-Identifier: MIT
// Up on the firmware's framebuffer, then on the GPU's card: until a card has an output the
// firmware's framebuffer is the display; the refresh that finds one closes it (never written again)
// and reports the outputs changed; from then on everything is the cards'.

import Display
import Raster
import Testing

@Suite struct FirmwareHandoffDisplayTests {
    /// Cards that appear when told to (at the next refresh), counting what reaches them.
    final class Cards: Display {
        var outputs: [DisplayOutput] = []
        var pending: [DisplayOutput]?
        var presents = 0
        var closed: CloseBehaviour?
        func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming {
            presents += 1
            return .timer
        }
        func refreshOutputs() throws(DisplayError) -> Bool {
            guard let p = pending else { return false }
            outputs = p; pending = nil
            return true
        }
        var hotplugDescriptor: Int32? { 42 }
        var frameIntervalNanoseconds: Int64 { 20_000_000 }
        func close(_ how: CloseBehaviour) { closed = how }
    }

    static let card = DisplayOutput(name: "card0-Virtual-1", mode: DisplayMode(width: 64, height: 48, refreshMillihertz: 50_000),
                                    format: .xrgb8888, rotation: .r0)

    @Test func theFirmwaresUntilACardComesThenTheCards() throws {
        let firmware = MemoryDisplay(width: 64, height: 48, name: "/dev/fb0")
        let cards = Cards()
        var said: [String] = []
        let display = FirmwareHandoffDisplay(firmware: firmware, cards: cards, log: { said.append($0) })
        let frame = Pixmap(width: 64, height: 48)
        #expect(display.outputs.map(\.name) == ["/dev/fb0"] && display.hotplugDescriptor == 42)

        _ = try display.present(ComposedFrame(frame.view), damage: [frame.view.bounds])
        #expect(firmware.presentCount(output: 0) == 1 && cards.presents == 0)
        #expect(try !display.refreshOutputs() && !display.moved && firmware.closedAs == nil)

        cards.pending = [Self.card]
        #expect(try display.refreshOutputs() && display.moved)
        #expect(firmware.closedAs == .retain, "the firmware's framebuffer is let go at once, its picture left")
        #expect(said == ["display: the GPU's driver is here; moved from the firmware's framebuffer (/dev/fb0) to card0-Virtual-1 64x48"])
        #expect(display.outputs == [Self.card] && display.frameIntervalNanoseconds == 20_000_000)
        _ = try display.present(ComposedFrame(frame.view), damage: [frame.view.bounds], output: 0)
        #expect(cards.presents == 1 && firmware.presentCount(output: 0) == 1)

        // From now on the cards' own changes, and only those, are reported.
        #expect(try !display.refreshOutputs())
        cards.pending = []
        #expect(try display.refreshOutputs() && display.outputs.isEmpty)
        display.close(.restore)
        #expect(cards.closed == .restore && firmware.closedAs == .retain)
    }
}
