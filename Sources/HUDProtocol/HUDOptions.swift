// SPDX-License-Identifier: MIT
// The choices of the appearance settings (`set style dark`, `set mode bar`…): named values the
// command language parses and prints, and the HUD draws.

/// SVProgressHUD's style. iOS's `Automatic` follows the system's dark mode; a splash screen has
/// none, so the default here is `light` (SVProgressHUD's look in light mode).
public enum HUDStyle: String, Sendable, CaseIterable { case light, dark, custom }

/// SVProgressHUD's mask type: what covers the screen behind the HUD.
public enum HUDMask: String, Sendable, CaseIterable { case none, clear, black, gradient, custom }

/// Which taps dismiss the HUD (JGProgressHUD's tapOnHUDViewBlock and tapOutsideBlock; neither SV
/// nor MB has one): a tap is a touch that goes down and up in the same place (on the HUD, or off it).
public enum HUDTapDismiss: String, Sendable, CaseIterable {
    case off, hud, outside, anywhere
}

/// The direction of text with no strong character of its own ("42 %"), and of what mirrors in a
/// right-to-left HUD (MB's bar); a text's own letters decide its direction otherwise.
public enum HUDTextDirection: String, Sendable, CaseIterable { case ltr, rtl }

/// SVProgressHUD's animation type: the flat two-turn spinner or the system's activity indicator.
public enum HUDSpinner: String, Sendable, CaseIterable { case flat, native }

/// MBProgressHUD's mode.
public enum HUDMode: String, Sendable, CaseIterable {
    case indeterminate, determinate, annular, bar, text
    case customImage = "custom"
}

/// MBProgressHUD's animation type.
public enum HUDTransition: String, Sendable, CaseIterable {
    case fade, zoom
    case zoomIn = "zoom-in"
    case zoomOut = "zoom-out"
}
