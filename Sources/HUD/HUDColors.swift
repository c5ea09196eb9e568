// SPDX-License-Identifier: MIT
// Style → colours (hud-behaviour.md A1 for SVProgressHUD, B1/B4 for MBProgressHUD).
//
// iOS draws the bezel as a frosted blur of what lies behind it with a tint on top. SplashHUD has no
// blur: the bezel is a translucent fill over whatever is behind it, nothing more. For SV's light and
// dark styles that fill is the tint SV itself lays over the blur (white / black at α0.6), so the
// bezel reads lighter or darker than iOS's over busy backgrounds, where the blur would have
// washed the background out.
import Raster

public struct HUDColors: Equatable, Sendable {
    /// Status, label, details and button title.
    public var text: Color
    /// Spinner, ring, petals, MB progress views, icons and tinted images.
    public var indicator: Color
    /// The ring's / annular view's track: the indicator colour with alpha 0.1 (SV
    /// `colorWithAlphaComponent:0.1`, MB `backgroundTintColor`), which replaces its alpha.
    public var track: Color
    /// The bezel's fill.
    public var bezel: Color

    public init(text: Color, indicator: Color, track: Color, bezel: Color) {
        self.text = text; self.indicator = indicator; self.track = track; self.bezel = bezel
    }

    /// Alpha 0.1 as a byte (25.5 rounded up, as Core Graphics converts 0.1).
    public static let trackAlpha: UInt8 = 26
    /// SV's tint over the blur in the light and dark styles: α0.6.
    public static let svFillAlpha: UInt8 = 153
    /// MB's default content colour: `labelColor` (black in light mode) at α0.7.
    public static let mbDefaultContent = Color.black.withAlpha(179)
    /// MB's default bezel is the `SystemThickMaterial` blur with no colour. Without a blur we use
    /// its light-mode look as a flat fill: a light grey (#F2F2F2) at α0.9.
    public static let mbDefaultBezel = Color(r: 242, g: 242, b: 242, a: 230)

    /// The colours `appearance` asks for, in SV's rules or, with an MB mode, in MB's.
    public static func resolve(_ appearance: HUDAppearance) -> HUDColors {
        if appearance.usesMBBehaviour {
            // B1: everything in the content colour; B4: the track is it at α0.1.
            let content = appearance.contentColor ?? mbDefaultContent
            return HUDColors(text: content, indicator: content, track: content.withAlpha(trackAlpha),
                             bezel: appearance.bezelColor ?? mbDefaultBezel)
        }
        // A1: colours per style; foregroundImageColor tints the spinner, ring and images, not text.
        let foreground: Color, fill: Color
        switch appearance.style {
        case .light: foreground = .black; fill = Color.white.withAlpha(svFillAlpha)
        case .dark: foreground = .white; fill = Color.black.withAlpha(svFillAlpha)
        case .custom: foreground = appearance.foregroundColor; fill = appearance.backgroundColor
        }
        let indicator = appearance.imageColor ?? foreground
        return HUDColors(text: foreground, indicator: indicator, track: indicator.withAlpha(trackAlpha), bezel: fill)
    }
}
