// SPDX-License-Identifier: MIT
import Assets
import GoldenSupport
import HUD
import HUDProtocol
import Raster
import Testing

@Suite("Scene renderer")
struct SceneRendererTests {
    /// Fonts are not shared between tests, which run in parallel (FreeType faces are per thread).
    let resources = try! HUDResources.system()

    func script(_ text: String) throws -> [TimedCommand] { try CommandParser.parseScript(text) }

    /// Redrawing only the damaged rects, frame after frame, gives exactly a full redraw.
    @Test(arguments: [
        "@0 show \"Loading\"\n@0.4 progress 0.3 \"Copying files\"\n@0.7 status \"Almost there\"\n@0.8 dismiss",
        "@0 set mask gradient\n@0 show\n@0.5 success \"Done\"",
        "@0 set mode annular\n@0 set transition zoom\n@0 show\n@0.3 progress 0.6\n@0.5 dismiss 0.1",
        "@0 set mask black\n@0 set animation native\n@0 show \"正在安装更新\"\n@0.6 error \"Failed\"",
    ])
    func damagedRedrawEqualsFullRedraw(_ text: String) throws {
        let commands = try script(text)
        let incremental = ScriptPlayer(script: commands, renderer: HUDSceneRenderer(width: 240, height: 160, background: .color(Color(rgb: 0x204060)), resources: resources))
        for frame in 0...60 {
            let t = Instant(nanoseconds: Int64(frame) * 1_000_000_000 / 60)
            incremental.render(at: t)
            let fresh = ScriptPlayer(script: commands, renderer: HUDSceneRenderer(width: 240, height: 160, background: .color(Color(rgb: 0x204060)), resources: resources))
            fresh.render(at: t)
            let a = incremental.renderer.frame.pixels, b = fresh.renderer.frame.pixels
            let differing = pixelDifferences(a, b)
            let count = differing.count, first = differing.first.map { "(\($0 % 240), \($0 / 240))" } ?? "-"
            #expect(count == 0, "frame \(frame): \(count) pixels differ, first at \(first)")
            if count != 0 { return }
        }
    }

    @Test func aTurningSpinnerDamagesOnlyItsBox() throws {
        let p = ScriptPlayer(script: try script("@0 show \"Loading\""), renderer: HUDSceneRenderer(width: 640, height: 480, background: .color(.black), resources: resources))
        p.render(at: .seconds(1))  // faded in
        let layout = p.renderer.layout(for: p.controller.presentation())
        let box = HUDPainter().indicatorBounds(p.controller.presentation(), layout: layout, scale: .one)
        for k in 1...10 {
            let damage = p.render(at: .seconds(1) + Interval(nanoseconds: Int64(k) * 16_666_667))
            #expect(damage == [box])
        }
        #expect(box.area <= 62 * 62, "the spinner box is \(box)")
        #expect(p.controller.presentation().isAnimating)
    }

    @Test func aStaticHUDDamagesNothingAndAsksForNoFrame() throws {
        let p = ScriptPlayer(script: try script("@0 progress 0.5 \"Half way\""), renderer: HUDSceneRenderer(width: 320, height: 240, background: .color(.black), resources: resources))
        p.render(at: .seconds(1))
        #expect(p.render(at: .seconds(2)).isEmpty)
        #expect(!p.controller.presentation().isAnimating)
        #expect(p.controller.nextEventTime() == nil)
    }

    @Test func aChangedStatusDamagesTheBezelOnly() throws {
        let p = ScriptPlayer(script: try script("@0 progress 0.5 \"Half way\"\n@1 status \"Still half way\""),
                             renderer: HUDSceneRenderer(width: 320, height: 240, background: .color(.black), resources: resources))
        p.render(at: .seconds(0.5))
        let damage = p.render(at: .seconds(1))
        #expect(damage.count == 1 && damage[0].area < 320 * 240 / 2)
    }

    @Test func aBackdropFadeDamagesTheScreen() throws {
        let p = ScriptPlayer(script: try script("@0 set mask black\n@0 show"),
                             renderer: HUDSceneRenderer(width: 320, height: 240, background: .color(.black), resources: resources))
        p.render(at: .zero)
        #expect(p.render(at: .seconds(0.05)) == [IntRect(x: 0, y: 0, width: 320, height: 240)])
    }
}
