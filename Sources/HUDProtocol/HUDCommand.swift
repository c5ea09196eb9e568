// SPDX-License-Identifier: MIT
// The command language's verbs, as values (the parser turns lines of text into these; the daemon,
// the FIFOs and the Swift API all feed them to a `HUDController`).
import Raster

public enum HUDImageKind: Equatable, Sendable {
    case success, error, info
    /// A PNG file, tinted as a template unless `tint-images` is off.
    case custom(path: String)
}

public enum HUDCommand: Equatable, Sendable {
    /// SV `showWithStatus`: the spinner (count +1).
    case show(status: String?)
    /// SV `showProgress:status:`: the ring at `fraction` (count +1 only when fraction == 0;
    /// a negative fraction shows the spinner, as SV does).
    case progress(fraction: Fixed16_16, status: String?)
    /// SV `showSuccess/Error/Info/Image`: an image, dismissed after SV's display duration, or,
    /// with `stays`, kept until the next command changes the HUD (a failure a person must read;
    /// in MB behaviour every image stays until hidden). With `support`, the daemon adds below the
    /// text a QR code of the board profile's support address carrying the device id and the status
    /// (nothing where the profile names none).
    case image(HUDImageKind, status: String?, stays: Bool = false, support: Bool = false)
    /// SV `setStatus`: changes the text only.
    case status(String)
    /// SV `dismissWithDelay` (not cancellable); MB `hideAnimated:afterDelay:` in MB behaviour.
    case dismiss(delay: Interval)
    /// SV `popActivity`.
    case pop
    /// Back to the defaults, hidden at once, no events.
    case reset
    /// `set KEY VALUE`, already validated.
    case set(HUDSetting)
}

/// One validated appearance setting (`set KEY VALUE`); the key spellings are in `key`.
public enum HUDSetting: Equatable, Sendable {
    case style(HUDStyle)
    case mask(HUDMask)
    case spinner(HUDSpinner)
    case foregroundColor(Color)
    case backgroundColor(Color)
    case backdropColor(Color)
    case imageColor(Color)
    case font(path: String)
    case fontSize(Fixed16_16)
    case ringThickness(Fixed16_16)
    case ringRadius(Fixed16_16)
    case ringNoTextRadius(Fixed16_16)
    case cornerRadius(Fixed16_16)
    case minimumSize(Size)
    case offset(Point)
    case imageSize(Size)
    case tintImages(Bool)
    case minimumDismiss(Interval)
    case maximumDismiss(Interval)
    case fadeIn(Interval)
    case fadeOut(Interval)
    /// `animated on|off`: whether the HUD appears and goes with its transition (on, the default)
    /// or at once: SV's fade-in and fade-out taken as 0, MB's `showAnimated:NO` and
    /// `hideAnimated:NO`. A daemon that takes over a HUD already on screen shows it so.
    case animated(Bool)
    case grace(Interval)
    case mode(HUDMode)
    case label(String)
    case details(String)
    case button(String)
    case margin(Fixed16_16)
    case square(Bool)
    case minShow(Interval)
    case transition(HUDTransition)
    case contentColor(Color)
    case bezelColor(Color)
    case tapDismiss(HUDTapDismiss)
    /// The width of a prompt's entry field, in points (ask-for-password, ask-question).
    case promptWidth(Fixed16_16)
    /// The HUD's writing direction (`text-direction ltr|rtl`): the locale's by default.
    case textDirection(HUDTextDirection)
    /// The most animation frames a second (1...1000; nil: one every display refresh). Not part of
    /// the HUD's look: the frame scheduler paces to it (`set max-fps 15`, `set max-fps refresh`).
    case maxFramesPerSecond(Int32?)
}
