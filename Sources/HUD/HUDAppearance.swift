// SPDX-License-Identifier: MIT
// Every appearance setting of both libraries, with their defaults (shared/reference/hud-behaviour.md
// A1 and B1). Sizes and offsets are in points; the board's scale maps points to pixels.
import HUDProtocol
import Raster

public struct HUDAppearance: Equatable, Sendable {
    // MARK: SVProgressHUD (A1)
    public var style: HUDStyle = .light
    public var mask: HUDMask = .none
    public var spinner: HUDSpinner = .flat
    /// Text and indicators in the custom style.
    public var foregroundColor: Color = .black
    /// The bezel's fill in the custom style.
    public var backgroundColor: Color = .white
    /// The custom mask's colour (`backgroundLayerColor`).
    public var backdropColor: Color = Color.black.withAlpha(102)
    /// Tints spinner, ring and images (not text); nil means the style's foreground colour.
    public var imageColor: Color?
    /// A font file; nil means the default chain (DejaVu Sans, then a CJK fallback).
    public var fontPath: String?
    public var fontSize: Fixed16_16 = Fixed16_16(15)
    public var ringThickness: Fixed16_16 = Fixed16_16(2)
    public var ringRadius: Fixed16_16 = Fixed16_16(18)
    public var ringNoTextRadius: Fixed16_16 = Fixed16_16(24)
    public var cornerRadius: Fixed16_16 = Fixed16_16(14)
    public var minimumSize = Size(width: .zero, height: .zero)
    public var offset = Point.zero
    public var imageSize = Size(width: Fixed16_16(28), height: Fixed16_16(28))
    public var tintImages = true
    public var minimumDismiss: Interval = .seconds(5)
    public var maximumDismiss: Interval = .forever
    public var fadeIn: Interval = .milliseconds(150)
    public var fadeOut: Interval = .milliseconds(150)
    public var grace: Interval = .zero
    /// False: shows and hides happen at once (SV's fades as 0, MB's `showAnimated:NO`).
    public var animated = true

    // MARK: MBProgressHUD (B1); any MB setting puts the HUD in MB behaviour
    /// MBProgressHUD's mode; nil while the HUD behaves as SVProgressHUD.
    public var mode: HUDMode?
    public var label: String?
    public var details: String?
    public var button: String?
    public var margin: Fixed16_16 = Fixed16_16(20)
    /// A prompt's entry field: at least this wide, wider for a longer prompt (`prompt-width`).
    public var promptWidth: Fixed16_16 = Fixed16_16(200)
    public var square = false
    /// Which taps dismiss the HUD (`set tap-dismiss`; touch input only).
    public var tapDismiss = HUDTapDismiss.off
    /// The direction of text with no strong character, and what mirrors (`set text-direction`).
    public var textDirection = HUDTextDirection.ltr
    public var minShow: Interval = .zero
    public var transition: HUDTransition = .fade
    /// nil means MB's default, the label colour at α0.7.
    public var contentColor: Color?
    /// nil means MB's default bezel (a translucent material).
    public var bezelColor: Color?

    public init() {}

    /// True once any MBProgressHUD-only setting is in use: MB's layout and timing rules apply.
    public var usesMBBehaviour: Bool { mode != nil }
}
