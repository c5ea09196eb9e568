// SPDX-License-Identifier: MIT
// Applying `set` to a HUDAppearance: every key lands in its property, SV's custom-style rule (A1)
// and the switch to MB behaviour (B1).
import Testing
import Raster
@testable import HUD
import HUDProtocol

@Suite struct AppearanceSettingsTests {
    /// The appearance after the given `set` lines, from the defaults.
    func appearance(_ lines: String...) -> HUDAppearance {
        var a = HUDAppearance()
        for line in lines {
            if let setting = settingParsed(line) { a.apply(setting) }
        }
        return a
    }

    @Test func svKeysLandInTheirProperties() {
        let a = appearance(
            "set style dark", "set mask gradient", "set animation native", "set backdrop-color #11223344",
            "set font /f.ttf", "set font-size 17", "set ring-thickness 3", "set ring-radius 20",
            "set ring-no-text-radius 26", "set corner-radius 10", "set min-size 100x50", "set offset 5,-6",
            "set image-size 32x30", "set tint-images off", "set min-dismiss 2", "set max-dismiss 8",
            "set fade-in 0.2", "set fade-out 0.3", "set grace 0.5", "set animated off")
        #expect(a.style == .dark)
        #expect(a.mask == .gradient)
        #expect(a.spinner == .native)
        #expect(a.backdropColor == Color(r: 0x11, g: 0x22, b: 0x33, a: 0x44))
        #expect(a.fontPath == "/f.ttf")
        #expect(a.fontSize == Fixed16_16(17))
        #expect(a.ringThickness == Fixed16_16(3))
        #expect(a.ringRadius == Fixed16_16(20))
        #expect(a.ringNoTextRadius == Fixed16_16(26))
        #expect(a.cornerRadius == Fixed16_16(10))
        #expect(a.minimumSize == Size(100, 50))
        #expect(a.offset == Point(5, -6))
        #expect(a.imageSize == Size(32, 30))
        #expect(a.tintImages == false)
        #expect(a.minimumDismiss == .seconds(2))
        #expect(a.maximumDismiss == .seconds(8))
        #expect(a.fadeIn == .milliseconds(200))
        #expect(a.fadeOut == .milliseconds(300))
        #expect(a.grace == .milliseconds(500))
        #expect(!a.animated)
        // None of these is an MB setting: the HUD still behaves as SVProgressHUD.
        #expect(a.mode == nil)
        #expect(!a.usesMBBehaviour)
    }

    @Test func colourSettersSwitchTheStyleToCustom() {
        // A1: "Setting any of these switches the style to Custom: the foreground colour; the image
        // colour; the background colour".
        #expect(appearance("set style dark", "set foreground-color #FF0000").style == .custom)
        #expect(appearance("set style dark", "set background-color #00FF00").style == .custom)
        let image = appearance("set style light", "set image-color #0000FF")
        #expect(image.style == .custom)
        #expect(image.imageColor == Color(r: 0, g: 0, b: 255))
        // The backdrop colour is not in that list, and does not pick the custom mask either.
        let backdrop = appearance("set style dark", "set backdrop-color #FF000080")
        #expect(backdrop.style == .dark)
        #expect(backdrop.mask == .none)
        // A later style setting wins again.
        #expect(appearance("set foreground-color #FF0000", "set style light").style == .light)
        let custom = appearance("set foreground-color #102030", "set background-color #405060C0")
        #expect(custom.foregroundColor == Color(r: 0x10, g: 0x20, b: 0x30))
        #expect(custom.backgroundColor == Color(r: 0x40, g: 0x50, b: 0x60, a: 0xC0))
    }

    @Test func mbKeysLandInTheirPropertiesAndSwitchToMBBehaviour() {
        let a = appearance(
            "set label Please wait", "set details \"Step 2 of 3\"", "set button Cancel", "set margin 12",
            "set square on", "set min-show 1.5", "set transition zoom-out", "set content-color #FFFFFFB3",
            "set bezel-color #202020")
        #expect(a.label == "Please wait")
        #expect(a.details == "Step 2 of 3")
        #expect(a.button == "Cancel")
        #expect(a.margin == Fixed16_16(12))
        #expect(a.square)
        #expect(a.minShow == .milliseconds(1500))
        #expect(a.transition == .zoomOut)
        #expect(a.contentColor == Color(r: 255, g: 255, b: 255, a: 0xB3))
        #expect(a.bezelColor == Color(r: 0x20, g: 0x20, b: 0x20))
        // B1: MB's default mode is indeterminate.
        #expect(a.mode == .indeterminate)
        #expect(a.usesMBBehaviour)
    }

    @Test func everyMBKeyAloneSwitchesToMBBehaviour() {
        for line in ["set label x", "set details x", "set button x", "set margin 20", "set square off",
                     "set min-show 0", "set transition fade", "set content-color #000000", "set bezel-color #000000"] {
            #expect(appearance(line).mode == .indeterminate, "\(line)")
        }
        for mode in HUDMode.allCases {
            #expect(appearance("set mode \(mode.rawValue)").mode == mode)
        }
    }

    @Test func anMBKeyKeepsAnExplicitMode() {
        #expect(appearance("set mode bar", "set label Copying").mode == .bar)
        #expect(appearance("set label Copying", "set mode annular", "set margin 4").mode == .annular)
    }

    @Test func emptyTextClearsMBLabels() {
        let a = appearance("set label L", "set details D", "set button B", "set label \"\"", "set details ''",
                           "set button \"\"")
        #expect(a.label == nil)
        #expect(a.details == nil)
        #expect(a.button == nil)
        #expect(a.mode == .indeterminate)
    }

    @Test func applyingIsInOrder() {
        let settings: [HUDSetting] = [.fontSize(Fixed16_16(10)), .fontSize(Fixed16_16(12))]
        #expect(HUDAppearance().applying(settings).fontSize == Fixed16_16(12))
        #expect(HUDAppearance().applying([]) == HUDAppearance())
    }
}

/// The setting of a `set` line, nil (and a recorded issue) when it does not parse as one.
private func settingParsed(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> HUDSetting? {
    do {
        guard case .set(let setting)? = try CommandParser.parse(line) else { return nil }
        return setting
    } catch {
        Issue.record("\(line): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
