// SPDX-License-Identifier: MIT
// Up before the GPU's driver: the splash starts on the framebuffer the firmware left (efifb,
// vesafb, simplefb: /dev/fbN) and moves to the driver's DRM card when it appears.
//
// When the real driver probes it first removes the firmware's framebuffer device (the kernel's
// aperture helpers), then registers its card, whose uevent reaches the DRM set this display
// holds, waiting for cards from the start. From that moment the firmware framebuffer is never
// written again (its memory is now the driver's: on a real GPU not even what is scanned out) and
// it is closed at once, so the kernel can free it; until the card's first frame the screen keeps
// showing what was last drawn. The card's first present then sets its mode with the complete
// picture already in its buffer, so the screen goes from the old frame straight to the new one,
// never through a black frame. The caller asks the card for the firmware's mode, so the picture is
// the same where the connector offers that mode.
//
// A simpledrm card followed by the real driver's needs none of this: DRMDisplaySet follows cards
// coming and going by itself.
import Raster

public final class FirmwareHandoffDisplay: Display {
    /// The firmware's framebuffer, until the move.
    public let firmware: any Display
    /// The cards, from the move on (empty until a card appears).
    public let cards: any Display
    /// Whether the splash has moved to the cards.
    public private(set) var moved = false
    private let log: (String) -> Void

    /// `cards` must follow hotplug and may start with no output.
    public init(firmware: any Display, cards: any Display, log: @escaping (String) -> Void) {
        self.firmware = firmware; self.cards = cards; self.log = log
    }

    private var active: any Display { moved ? cards : firmware }

    public var outputs: [DisplayOutput] { active.outputs }

    public func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming {
        try active.present(frame, damage: damage)
    }

    public func present(_ frame: ComposedFrame, damage: [IntRect], output index: Int) throws(DisplayError) -> PresentTiming {
        try active.present(frame, damage: damage, output: index)
    }

    public var hotplugDescriptor: Int32? { cards.hotplugDescriptor }

    public func refreshOutputs() throws(DisplayError) -> Bool {
        let changed = try cards.refreshOutputs()
        guard !moved else { return changed }
        guard !cards.outputs.isEmpty else { return false }
        let from = firmware.outputs.map(\.name).joined(separator: ", ")
        firmware.close(.retain)
        moved = true
        log("display: the GPU's driver is here; moved from the firmware's framebuffer (\(from)) to "
            + cards.outputs.map { "\($0.name) \($0.mode.name)" }.joined(separator: ", "))
        return true
    }

    public var eventDescriptors: [Int32] { active.eventDescriptors }
    public func handleEvents(on descriptor: Int32) throws(DisplayError) { try active.handleEvents(on: descriptor) }
    public func isFlipPending(output index: Int) -> Bool { active.isFlipPending(output: index) }
    public func abandonFlip(output index: Int) { active.abandonFlip(output: index) }
    public var frameIntervalNanoseconds: Int64 { active.frameIntervalNanoseconds }

    public func close(_ how: CloseBehaviour) {
        if !moved { firmware.close(how) }
        cards.close(how)
    }

    public var showsOnRealScreen: Bool { active.showsOnRealScreen }
    public func releaseMaster() throws(DisplayError) { try active.releaseMaster() }
    public func othersDrawn() -> Bool? { active.othersDrawn() }
    public var fbdevEmulationPaths: [String] { moved ? cards.fbdevEmulationPaths : [] }
    public func useClock(_ clock: @escaping () -> Int64) { firmware.useClock(clock); cards.useClock(clock) }
    public func presentCount(output index: Int) -> Int? { active.presentCount(output: index) }
    public func shownPicture(output index: Int) -> Pixmap? { active.shownPicture(output: index) }
    public func shareUEvents(with observer: @escaping (UEventMonitor.Batch) -> Void) -> Bool { cards.shareUEvents(with: observer) }
}
