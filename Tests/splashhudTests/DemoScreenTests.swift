// SPDX-License-Identifier: MIT
// `splashhud demo` on a screen that opened: it says how many frames reached the screen, and that
// the demo was NOT shown (with the last present error) when another process holds DRM master and
// every present fails and is retried until the end.
import Display
import HUD
import HUDProtocol
import Logging
import Raster
import Runtime
import Testing
@testable import splashhud_tools

@Suite("splashhud demo on an opened screen", .serialized)
struct DemoScreenTests {
    /// A memory screen whose presents fail like a card whose DRM master a compositor holds, while
    /// `masterHeld` is true.
    final class HeldCard: Display {
        let memory = MemoryDisplay(width: 160, height: 100, name: "Virtual-1")
        var masterHeld: Bool
        var presents = 0
        var failures = 0
        /// Whether any presented frame lit a pixel (the HUD really reached the screen).
        var litAPixel = false
        init(masterHeld: Bool) { self.masterHeld = masterHeld }

        var outputs: [DisplayOutput] { memory.outputs }
        var frameIntervalNanoseconds: Int64 { memory.frameIntervalNanoseconds }
        func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming {
            if masterHeld {
                failures += 1
                throw .masterLost("drmModeAtomicCommit", .permissionDenied, "/dev/dri/card0")
            }
            _ = try memory.present(frame, damage: damage)
            presents += 1
            if !litAPixel { litAPixel = memory.scanoutBytes.contains { $0 != 0 } }
            return .timer
        }
        func close(_ how: CloseBehaviour) { memory.close(how) }
    }

    func play(_ card: HeldCard) throws -> DemoScreen.Outcome {
        let script = try CommandParser.parseScript("@0 show \"Updating\"\n@0.1 progress 0.5 \"Half way\"\n")
        return try DemoScreen.play(on: card, backend: "drm", failures: ["fbdev: not tried"], script: script, duration: 2.5,
                                   profile: nil, logLevel: .critical, console: .off, catchSignals: false)
    }

    @Test func aScreenWhoseMasterIsHeldElsewhereDidNotShowTheDemo() throws {
        let card = HeldCard(masterHeld: true)
        let outcome = try play(card)
        #expect(card.failures >= 2, "present is retried while master is held (\(card.failures) tries)")
        #expect(card.presents == 0)
        #expect(outcome.played == nil, "claimed to have played on \(outcome.played ?? "")")
        #expect(outcome.framesPresented == 0)
        #expect(outcome.notUsed.first == "fbdev: not tried")
        let reason = try #require(outcome.notUsed.last)
        #expect(reason.hasPrefix("drm (Virtual-1 160x100): opened, but the demo was NOT shown (0 frames presented): "), "\(reason)")
        #expect(reason.contains("present failed") && reason.contains("another process holds DRM master"), "\(reason)")
    }

    @Test func aScreenThatTookFramesSaysHowMany() throws {
        let card = HeldCard(masterHeld: false)
        let outcome = try play(card)
        #expect(card.presents > 0)
        #expect(outcome.framesPresented == card.presents)
        #expect(outcome.played == "drm (Virtual-1 160x100, \(card.presents) frame\(card.presents == 1 ? "" : "s") presented)")
        #expect(outcome.notUsed == ["fbdev: not tried"])
        #expect(card.litAPixel, "the HUD's picture reached the screen")
    }
}
