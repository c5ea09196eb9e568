// SPDX-License-Identifier: MIT
// The controller's presentation at rest: while nothing fades or zooms and no command, timer or
// button changes anything, `presentation()` only moves the indicator's time of the last one made
// afresh, and keeps its generation (and `restingIndicator()` gives that indicator without the
// presentation). Checked against a presentation made afresh at every step of scripts that fade,
// zoom, fire timers, change text and press MB's button; and a renderer that trusts the generations
// (drawing only the indicator while at rest) draws the same frames and damage as one that
// compares everything.
import GoldenSupport
import HUDProtocol
import Raster
import Testing

@testable import HUD

@Suite("Presentation at rest")
struct PresentationAtRestTests {
    static let scripts = [
        "@0 show \"Loading\"\n@0.4 progress 0.3 \"Copying\"\n@0.7 status \"Ok\"\n@0.8 dismiss 0.3\n@1.5 show",
        "@0 set mode annular\n@0 set transition zoom\n@0 set mask black\n@0 show\n@0.3 progress 0.6\n@0.5 dismiss 0.1",
        "@0 set mode indeterminate\n@0 set grace 0.1\n@0 set min-show 0.5\n@0 show \"Wait\"\n@0.3 dismiss\n@1.2 success \"Done\"",
        "@0 set button \"Cancel\"\n@0 show \"Installing\"\n@1.6 error \"Failed\"",
    ]

    @Test(arguments: scripts)
    func atRestEqualsAfresh(_ text: String) throws {
        let player = ScriptPlayer(script: try CommandParser.parseScript(text),
                                  renderer: HUDSceneRenderer(width: 240, height: 160, background: .color(Color(rgb: 0x204060)), resources: try HUDResources.system()))
        var generations = Set<UInt64>(), resting = 0
        for frame in 0...150 {
            player.advance(to: Instant(nanoseconds: Int64(frame) * 1_000_000_000 / 60))
            if frame == 60 || frame == 70 { player.controller.isButtonHighlighted.toggle() }
            let before = player.controller.presentationGeneration
            let rest = player.controller.restingIndicator()
            let p = player.controller.presentation()
            let g = player.controller.presentationGeneration
            #expect(p == player.controller.presentationAfresh(), "frame \(frame)")
            #expect(player.controller.status == p.status, "frame \(frame)")
            // At rest exactly when the generation stays, with the presentation's indicator.
            #expect((rest != nil) == (g == before), "frame \(frame)")
            if let rest { #expect(rest.indicator == p.indicator && rest.isAnimating == p.isAnimating, "frame \(frame)") }
            if rest != nil { resting += 1 }
            #expect(player.controller.presentation() == p)
            generations.insert(g)
        }
        // Most frames were at rest (one generation over many frames), some were not.
        #expect(generations.count > 3 && generations.count < 120, "\(generations.count) generations")
        #expect(resting > 30, "\(resting) frames at rest")
    }

    @Test(arguments: scripts)
    func aFrameIsTheIndicatorAloneOnlyAtRestOnTheGenerationShown(_ text: String) throws {
        let player = ScriptPlayer(script: try CommandParser.parseScript(text),
                                  renderer: HUDSceneRenderer(width: 240, height: 160, background: .color(Color(rgb: 0x204060)), resources: try HUDResources.system()))
        var indicators = 0, presentations = 0
        for frame in 0...150 {
            player.advance(to: Instant(nanoseconds: Int64(frame) * 1_000_000_000 / 60))
            let before = player.controller.presentationGeneration
            let resting = player.controller.restingIndicator() != nil
            // Every third frame the outputs show another generation (a new output, a hotplug).
            let shown = frame % 3 != 0
            var asked: UInt64?
            let content = player.controller.frameContent { asked = $0; return shown }
            let p = player.controller.presentation()
            #expect(content.isAnimating == p.isAnimating, "frame \(frame)")
            switch content {
            case .indicator(let indicator, _):
                indicators += 1
                #expect(resting && shown && asked == before, "frame \(frame)")
                #expect(indicator == p.indicator, "frame \(frame)")
            case .presentation(let q):
                presentations += 1
                #expect(!resting || !shown, "frame \(frame)")
                #expect(q == p, "frame \(frame)")
            }
        }
        #expect(indicators > 30 && presentations > 30, "\(indicators) indicator frames, \(presentations) whole")
    }

    @Test(arguments: scripts)
    func trustingGenerationsDrawsTheSame(_ text: String) throws {
        let resources = try HUDResources.system()
        let player = ScriptPlayer(script: try CommandParser.parseScript(text),
                                  renderer: HUDSceneRenderer(width: 240, height: 160, background: .color(Color(rgb: 0x204060)), resources: resources, compact: true))
        player.renderer.spinnerSteps = SpinnerSteps(framesPerSecond: 60)
        let checking = HUDSceneRenderer(width: 240, height: 160, background: .color(Color(rgb: 0x204060)), resources: resources, compact: true)
        checking.spinnerSteps = SpinnerSteps(framesPerSecond: 60)
        for frame in 0...150 {
            let t = Instant(nanoseconds: Int64(frame) * 1_000_000_000 / 60)
            if frame == 60 || frame == 70 { player.controller.isButtonHighlighted.toggle() }
            let trusted = player.render(at: t)
            let checked = checking.render(player.controller.presentation())
            #expect(trusted == checked, "frame \(frame): damage")
            let differing = pixelDifferences(player.renderer.frame.pixels, checking.frame.pixels).count
            #expect(differing == 0, "frame \(frame): \(differing) pixels differ")
            if differing != 0 { return }
        }
    }
}
