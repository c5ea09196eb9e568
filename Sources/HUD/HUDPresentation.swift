// SPDX-License-Identifier: MIT
// What the HUD looks like at one instant: the controller's answer, the renderer's input. Every
// animated quantity is already evaluated (fades, zoom, spinner phase), so drawing is a pure
// function of this value and the screen.
import HUDProtocol
import Raster

public struct HUDPresentation: Equatable, Sendable {
    public enum Indicator: Equatable, Sendable {
        case none
        /// SV's flat spinner; `elapsed` since it started sets the 1 s loop's phase.
        case spinner(elapsed: Interval)
        /// The 12-petal activity indicator (SV `native`, MB `indeterminate`).
        case activity(elapsed: Interval)
        /// SV's progress ring (strokeEnd = progress, clamped to 0...1 when drawn).
        case ring(progress: Fixed16_16)
        /// MB's round determinate view as MB draws it (a thick arc inside an outline).
        case pie(progress: Fixed16_16)
        /// MB's annular view.
        case annular(progress: Fixed16_16)
        /// MB's 120x10 bar.
        case bar(progress: Fixed16_16)
        case image(HUDImageKind)
    }

    /// Bezel and content opacity, 0...1.
    public var alpha: Fixed16_16 = .zero
    /// The mask's opacity, 0...1 (it fades with the HUD).
    public var backdropAlpha: Fixed16_16 = .zero
    /// The zoom about the bezel's centre (1.3 → 1 on an SV fade-in, MB's zoom variants).
    public var scale: Fixed16_16 = .one
    public var indicator: Indicator = .none
    public var status: String?
    /// MB's details label and button title.
    public var details: String?
    public var button: String?
    /// An address shown as a QR code under the text (a failed update's support address).
    public var supportCode: String?
    /// MB's button is held down (a touch on it, Enter or Space): filled with the title colour at
    /// α0.1, as MBProgressHUDRoundedButton's `setHighlighted:` does.
    public var buttonHighlighted = false
    /// A prompt waiting for its answer: drawn as a form in place of the indicator and texts.
    public var entry: HUDEntry?
    public var appearance = HUDAppearance()
    /// True while something moves (a fade, a zoom, a spinner): the next frame is due at the
    /// display's next refresh. False means the picture is static until the next command or timer.
    public var isAnimating = false

    public init() {}

    /// Nothing to draw.
    public var isHidden: Bool { alpha == .zero && backdropAlpha == .zero }

    /// Whether the two are equal but for the indicator's animation phase (the spinner's or the
    /// petals' elapsed time): what `==` on both with the phase set to zero answers, without
    /// copying either (a copy retains every string in it). Every stored property is compared.
    func equalsIgnoringPhase(_ o: HUDPresentation) -> Bool {
        switch (indicator, o.indicator) {
        case (.spinner, .spinner), (.activity, .activity): break
        default: if indicator != o.indicator { return false }
        }
        return alpha == o.alpha && backdropAlpha == o.backdropAlpha && scale == o.scale
            && isAnimating == o.isAnimating && buttonHighlighted == o.buttonHighlighted
            && status == o.status && details == o.details && button == o.button && entry == o.entry && supportCode == o.supportCode
            && appearance == o.appearance
    }
}
