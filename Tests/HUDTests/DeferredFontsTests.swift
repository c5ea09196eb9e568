// SPDX-License-Identifier: MIT
// The default fonts opened on first use (what the daemon does, so its first frame opens no font):
// nothing is opened for a HUD without text, text opens them, and fonts that do not load leave the
// text out with an issue while the rest of the HUD is laid out as before.
import Assets
import HUD
import Raster
import Testing

@Suite("Deferred fonts")
struct DeferredFontsTests {
    typealias H = DrawHarness
    let screen = Size(320, 240)

    @Test func aSpinnerWithoutTextOpensNoFont() {
        let resources = HUDResources.systemOnFirstUse()
        let l = HUDLayout.compute(H.presentation(.spinner(elapsed: .zero)), screen: screen, resources: resources)
        #expect(!resources.fontsLoaded)
        #expect(l.issues.isEmpty && l.texts.isEmpty)
    }

    /// The same layout as with fonts opened at once.
    @Test func textOpensThemAndLaysOutAsBefore() throws {
        let resources = HUDResources.systemOnFirstUse()
        let p = H.presentation(.spinner(elapsed: .zero), status: "Loading")
        let deferred = HUDLayout.compute(p, screen: screen, resources: resources)
        #expect(resources.fontsLoaded)
        let eager = HUDLayout.compute(p, screen: screen, resources: try HUDResources.system())
        #expect(deferred.bezel == eager.bezel && deferred.texts.map(\.frame) == eager.texts.map(\.frame))
        #expect(deferred.texts.count == 1 && deferred.issues.isEmpty)
    }

    @Test func fontsThatDoNotLoadAreReportedEveryTime() {
        let resources = HUDResources.systemOnFirstUse(regularPaths: ["/nonexistent/regular.ttf"])
        for _ in 0..<2 {
            #expect(throws: FontError.noUsableFont(searched: ["/nonexistent/regular.ttf"], reasons: ["font file not found: /nonexistent/regular.ttf"])) {
                try resources.loadFonts()
            }
        }
        #expect(resources.regular == nil && resources.bold == nil)
        #expect(resources.fontFailure?.contains("/nonexistent/regular.ttf") == true)
    }

    /// SV: the label is left out with an issue naming the text; the spinner is laid out as without text.
    @Test func withoutFontsSVLeavesTheTextOut() throws {
        let resources = HUDResources.systemOnFirstUse(regularPaths: ["/nonexistent/regular.ttf"])
        let l = HUDLayout.compute(H.presentation(.spinner(elapsed: .zero), status: "Loading"), screen: screen, resources: resources)
        let plain = HUDLayout.compute(H.presentation(.spinner(elapsed: .zero)), screen: screen, resources: try HUDResources.system())
        #expect(l.texts.isEmpty)
        #expect(l.bezel == plain.bezel && l.contentFrame == plain.contentFrame)
        guard case .text(let text, let reason)? = l.issues.first else { Issue.record("no text issue: \(l.issues)"); return }
        #expect(text == "Loading" && reason.contains("no usable font"))
    }

    /// MB: every text is left out, each with its issue.
    @Test func withoutFontsMBLeavesTheTextsOut() {
        let resources = HUDResources.systemOnFirstUse(regularPaths: ["/nonexistent/regular.ttf"])
        var p = H.presentation(.spinner(elapsed: .zero), status: "Loading") { $0.mode = .indeterminate }
        p.details = "3 of 7"
        let l = HUDLayout.compute(p, screen: screen, resources: resources)
        #expect(l.texts.isEmpty)
        #expect(l.issues.count == 2)
    }
}
