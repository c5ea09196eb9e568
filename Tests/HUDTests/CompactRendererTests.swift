// SPDX-License-Identifier: MIT
// The compact renderer (the HUD's box and one colour instead of the whole frame) against the plain
// one, pixel for pixel and rect for rect; what it keeps in memory; and indicator steps copied from
// the tile cache against freshly drawn ones.
import Assets
import GoldenSupport
import HUDProtocol
import Raster
import Testing

@testable import HUD

@Suite("Compact renderer and indicator tiles")
struct CompactRendererTests {
    let resources = try! HUDResources.system()
    static let background = SceneBackground.color(Color(rgb: 0x204060))

    func player(_ text: String, width: Int32 = 240, height: Int32 = 160, compact: Bool, steps: Int32? = nil) throws -> ScriptPlayer {
        let r = HUDSceneRenderer(width: width, height: height, background: Self.background, resources: resources, compact: compact)
        r.spinnerSteps = steps.map { SpinnerSteps(framesPerSecond: $0) }
        return ScriptPlayer(script: try CommandParser.parseScript(text), renderer: r)
    }

    /// Frame after frame (fades, zooms, text that grows, masks that come and go, the gradient that
    /// needs the whole frame), the compact renderer's picture and damage are the plain one's.
    @Test(arguments: [
        "@0 show \"Loading\"\n@0.4 progress 0.3 \"Copying files and more files\"\n@0.7 status \"Ok\"\n@0.8 dismiss",
        "@0 set mask gradient\n@0 show\n@0.5 success \"Done\"\n@0.9 set mask black",
        "@0 set mode annular\n@0 set transition zoom\n@0 set mask black\n@0 show\n@0.3 progress 0.6\n@0.5 dismiss 0.1",
        "@0 set mask custom\n@0 set backdrop-color #10FF2080\n@0 set animation native\n@0 show \"正在安装更新\"\n@0.6 error \"Failed\"",
    ])
    func compactEqualsPlain(_ text: String) throws {
        let compact = try player(text, compact: true), plain = try player(text, compact: false)
        for frame in 0...70 {
            let t = Instant(nanoseconds: Int64(frame) * 1_000_000_000 / 60)
            let dc = compact.render(at: t), dp = plain.render(at: t)
            #expect(dc == dp, "frame \(frame): damage")
            let a = compact.renderer.frame.pixels, b = plain.renderer.frame.pixels
            let differing = pixelDifferences(a, b).count
            #expect(differing == 0, "frame \(frame): \(differing) pixels differ")
            if differing != 0 { return }
        }
    }

    /// The frame says it is opaque (so an XRGB8888 scanout copies its rows) only once drawn, and
    /// only over an opaque background: a colour with alpha 0xFF, or a frame-sized opaque image.
    @Test func framesAreOpaqueOverAnOpaqueBackground() throws {
        let opaqueImage = Pixmap(width: 240, height: 160), translucentImage = Pixmap(width: 240, height: 160)
        opaqueImage.view.fill(opaqueImage.view.bounds, with: PremultipliedColor(argb: 0xFF10_2030))
        translucentImage.view.fill(translucentImage.view.bounds, with: PremultipliedColor(argb: 0xFF10_2030))
        translucentImage[239, 159] = PremultipliedColor(argb: 0x8008_1018)
        let small = Pixmap(width: 24, height: 16)
        small.view.fill(small.view.bounds, with: PremultipliedColor(argb: 0xFF10_2030))
        let cases: [(SceneBackground, Bool)] = [
            (Self.background, true), (.color(Color(rgb: 0x204060, alpha: 0xFE)), false),
            (.image(opaqueImage), true), (.image(translucentImage), false), (.image(small), false),
        ]
        for (background, opaque) in cases {
            for compact in [true, false] {
                let r = HUDSceneRenderer(width: 240, height: 160, background: background, resources: resources, compact: compact)
                #expect(!r.composed.isOpaque, "nothing drawn yet")
                let player = ScriptPlayer(script: try CommandParser.parseScript("@0 show \"Loading\""), renderer: r)
                _ = player.render(at: Instant(nanoseconds: 100_000_000))
                #expect(r.composed.isOpaque == opaque, "\(background), compact \(compact)")
                if opaque { #expect(r.frame.pixels.allSatisfy { $0 >> 24 == 0xFF }) }
            }
        }
    }

    /// With a solid background (and a solid mask) no frame-sized buffer exists, at any instant;
    /// the gradient mask makes one, which goes again when the mask does.
    @Test func aSolidBackdropKeepsNoFrameSizedBuffer() throws {
        let frameBytes = 1280 * 800 * 4
        let p = try player("@0 set mask black\n@0 show \"Installing updates\"\n@3 set mask gradient\n@4 set mask black",
                           width: 1280, height: 800, compact: true)
        var most = 0
        for k in 0..<180 {
            p.render(at: Instant(nanoseconds: Int64(k) * 16_666_667))
            most = max(most, p.renderer.pixelBytes)
        }
        #expect(most < frameBytes / 8, "the compact renderer held \(most) bytes")
        p.render(at: .seconds(3.5))
        #expect(p.renderer.pixelBytes >= frameBytes, "the gradient needs the whole frame")
        p.render(at: .seconds(4.5))
        #expect(p.renderer.pixelBytes < frameBytes / 8)
        let plain = try player("@0 show", width: 1280, height: 800, compact: false)
        plain.render(at: .seconds(1))
        #expect(plain.renderer.pixelBytes >= frameBytes)
    }

    /// Every step of the SV spinner (rounded to 15 and 60 steps a turn) and of the activity
    /// indicator, over two turns: the frame built from cached tiles equals a fresh renderer's
    /// frame at the same instant (which draws everything), byte for byte; the second turn is
    /// served from the cache.
    @Test(arguments: [("@0 show \"Loading\"", Int32(15)), ("@0 show \"Loading\"", Int32(60)),
                      ("@0 set animation native\n@0 show \"Loading\"", Int32(15)),
                      ("@0 set mode indeterminate\n@0 show \"Loading\"", Int32(15))])
    func cachedStepsEqualFreshlyDrawnOnes(_ text: String, steps: Int32) throws {
        // Whole tiles, and (no bytes for whole ones) runs against the first.
        for (compact, wholeBytes) in [(true, 2 << 20), (false, 2 << 20), (true, 0), (false, 0)] {
            let cached = try player(text, compact: compact, steps: steps)
            cached.renderer.tiles.wholeBytes = wholeBytes
            cached.render(at: .seconds(1))  // faded in: only the indicator moves from here
            let period = Int64(1_000_000_000), frames = Int64(steps) * 2
            for k in 1...frames {
                let t = Instant.seconds(1) + Interval(nanoseconds: k * period / Int64(steps) + 1_234_567 * (k % 3))
                cached.render(at: t)
                let fresh = try player(text, compact: false, steps: steps)
                fresh.render(at: t)
                let a = cached.renderer.frame.pixels, b = fresh.renderer.frame.pixels
                let differing = pixelDifferences(a, b).count
                #expect(differing == 0, "step \(k): \(differing) pixels differ (compact \(compact), whole bytes \(wholeBytes))")
                if differing != 0 { return }
            }
            #expect(cached.renderer.tiles.count > 0 && cached.renderer.tiles.count <= Int(steps), "\(cached.renderer.tiles.count) tiles")
        }
    }

    /// A turn of the spinner at 75 steps (the refresh rate) keeps every tile whole while they fit
    /// in the cache's `wholeBytes`, and past that the rest as the runs that differ from the first:
    /// with no room for whole ones, well under a fifth of 75 whole tiles. Every step is still the
    /// freshly drawn frame (above).
    @Test(arguments: [2 << 20, 20_000, 0])
    func stepsAreKeptWholeThenAsRunsAgainstTheFirst(wholeBytes: Int) throws {
        let p = try player("@0 show", width: 1280, height: 800, compact: true, steps: 75)
        p.renderer.tiles.wholeBytes = wholeBytes
        p.render(at: .seconds(1))
        let before = p.renderer.pixelBytes
        for k in 1...75 { p.render(at: .seconds(1) + Interval(nanoseconds: Int64(k) * 1_000_000_000 / 75 + 1)) }
        let tiles = p.renderer.tiles
        #expect(tiles.count == 75)
        let box = try #require(p.renderer.indicatorRect)
        let whole = Int(box.width) * Int(box.height) * 4
        let wholeTiles = max(1, wholeBytes / whole)  // the first is always whole: the runs' base
        #expect(75 * whole <= 2 << 20 || wholeBytes < 2 << 20, "the default box's 75 tiles fit whole")
        if wholeTiles >= 75 {
            #expect(tiles.bytes == 75 * whole)
        } else {
            let runs = tiles.bytes - wholeTiles * whole
            #expect(runs > 0 && runs < (75 - wholeTiles) * whole / 5, "\(runs) bytes for \(75 - wholeTiles) steps as runs, of \(whole)")
        }
        #expect(p.renderer.pixelBytes - before <= tiles.bytes)
    }

    /// A stepped spinner shows step k for elapsed times in [k·I, (k+1)·I) of its turn (count·I),
    /// drawn as k/count of the loop: consecutive frames on the grid are consecutive steps, and
    /// `count` frames later the same step (the same phase) comes back.
    @Test func stepsFollowTheFrameGrid() {
        for interval in [Int64(66_666_667), 16_666_667, 16_683_350, 13_333_333, 13_211_000, 3_000_000_000] {
            let steps = SpinnerSteps(frameInterval: interval)
            let n = Int64(steps.count)
            #expect(abs(n * interval - 1_000_000_000) <= interval / 2 || n == 1, "\(interval): \(n) steps")
            for frame in Int64(-200)..<200 {
                for offset in [Int64(0), interval / 3, interval - 1] {
                    let e = Interval(nanoseconds: frame * interval + offset)
                    let k = Int64(steps.index(e))
                    #expect(k == ((frame % n) + n) % n, "\(interval) frame \(frame)")
                    let r = steps.rounded(e)
                    #expect(steps.index(Interval(nanoseconds: (frame + n) * interval + offset)) == Int32(k))
                    // k/count of a turn (16.16), the same a turn later.
                    #expect(abs(Int64(SpinnerIndicator.phase(r).raw) - k * 65536 / n) <= 1, "\(interval) frame \(frame)")
                    #expect(SpinnerIndicator.phase(steps.rounded(Interval(nanoseconds: (frame + n) * interval + offset))) == SpinnerIndicator.phase(r))
                }
            }
        }
    }

    /// Changing anything but the step (the text) empties the cache: no tile of the old HUD is
    /// ever copied into the new one.
    @Test func anotherHUDEmptiesTheCache() throws {
        let p = try player("@0 show \"Loading\"\n@2 status \"Loading more\"", compact: true, steps: 15)
        p.render(at: .seconds(0.9))  // faded in
        for k in 0..<15 { p.render(at: .seconds(1) + Interval(nanoseconds: Int64(k) * 66_666_667)) }
        #expect(p.renderer.tiles.count == 15)
        p.render(at: .seconds(2.01))
        p.render(at: .seconds(2.1))
        #expect(p.renderer.tiles.count <= 1)
    }

    /// A new step count (the cap changed with `set max-fps`) forgets the tiles: step k of 15 a turn
    /// is another phase than step k of 20, and every frame after the change is the freshly drawn one.
    @Test func aNewStepCountDrawsNoOldTile() throws {
        let text = "@0 show \"Loading\""
        let cached = try player(text, compact: true, steps: 15)
        cached.render(at: .seconds(1))
        for k in 0..<15 { cached.render(at: .seconds(1) + Interval(nanoseconds: Int64(k) * 66_666_667)) }
        #expect(cached.renderer.tiles.count >= 12)  // the turn's steps, drawn once
        cached.renderer.spinnerSteps = SpinnerSteps(framesPerSecond: 20)
        for k in 0..<20 {
            let t = Instant.seconds(2) + Interval(nanoseconds: Int64(k) * 50_000_000 + 1_000_000)
            cached.render(at: t)
            let fresh = try player(text, compact: false, steps: 20)
            fresh.render(at: t)
            let differing = pixelDifferences(cached.renderer.frame.pixels, fresh.renderer.frame.pixels).count
            #expect(differing == 0, "step \(k) of 20: \(differing) pixels differ")
            if differing != 0 { return }
        }
        #expect(cached.renderer.tiles.count <= 20)
    }

    /// The renderer's phase-free comparison, which lists HUDPresentation's stored properties by
    /// hand, answers what `==` on the presentations with the phase taken out answers; a property
    /// added to HUDPresentation must be added to it (the count below fails first).
    @Test func equalsIgnoringPhaseIsEqualityWithoutThePhase() {
        #expect(Mirror(reflecting: HUDPresentation()).children.count == 12, "HUDPresentation gained a property: compare it in equalsIgnoringPhase")
        var base = HUDPresentation()
        base.indicator = .spinner(elapsed: Interval(nanoseconds: 5))
        base.status = "Loading"
        var variants: [HUDPresentation] = [base]
        func variant(_ change: (inout HUDPresentation) -> Void) { var v = base; change(&v); variants.append(v) }
        variant { $0.indicator = .spinner(elapsed: Interval(nanoseconds: 700_000_000)) }
        variant { $0.indicator = .activity(elapsed: Interval(nanoseconds: 5)) }
        variant { $0.indicator = .activity(elapsed: Interval(nanoseconds: 300_000_000)) }
        variant { $0.alpha = Fixed16_16(0.5) }
        variant { $0.backdropAlpha = Fixed16_16(0.25) }
        variant { $0.scale = Fixed16_16(1.2) }
        variant { $0.isAnimating.toggle() }
        variant { $0.buttonHighlighted.toggle() }
        variant { $0.status = "Loading more" }
        variant { $0.details = "1 of 3" }
        variant { $0.button = "Cancel" }
        variant { $0.entry = HUDEntry(prompt: "PIN", isSecure: true, characters: 3) }
        variant { $0.entry = HUDEntry(prompt: "PIN", isSecure: true, characters: 4) }
        variant { $0.appearance.backdropColor = Color(rgb: 0x102030) }
        variant { $0.supportCode = "https://s.example/k?device=d&error=x" }
        for a in variants {
            for b in variants {
                let expected = HUDSceneRenderer.withoutPhase(a) == HUDSceneRenderer.withoutPhase(b)
                #expect(a.equalsIgnoringPhase(b) == expected, "\(a) against \(b)")
            }
        }
    }
}
