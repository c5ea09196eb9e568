// SPDX-License-Identifier: MIT
// Applying `set KEY VALUE` to the appearance, with SVProgressHUD's side effects (A1) and the rule
// that decides when MBProgressHUD's behaviour takes over (B1).
import HUDProtocol

extension HUDAppearance {
    /// Applies one setting, as the library's setter would.
    ///
    /// - A1: setting the foreground, background or image colour switches `style` to `.custom`
    ///   (SV's setters do; the backdrop colour does not, and does not change `mask` either).
    /// - MB behaviour: `mode` sets the mode. Any other MB-only setting (label, details, button,
    ///   margin, square, min-show, transition, content and bezel colours) also sets `mode` to
    ///   `.indeterminate` while it is still nil: MB's default mode (B1), so using an MB feature
    ///   puts the HUD in MB behaviour with MB's default indicator. An existing mode is kept.
    /// - An empty label, details or button text clears it (nil), as MB hides empty labels.
    /// - Shared settings (offset, minimum size, grace, colours, font…) never change the mode.
    public mutating func apply(_ setting: HUDSetting) {
        switch setting {
        case .style(let v): style = v
        case .mask(let v): mask = v
        case .spinner(let v): spinner = v
        case .foregroundColor(let c): foregroundColor = c; style = .custom
        case .backgroundColor(let c): backgroundColor = c; style = .custom
        case .imageColor(let c): imageColor = c; style = .custom
        case .backdropColor(let c): backdropColor = c
        case .font(let path): fontPath = path
        case .fontSize(let v): fontSize = v
        case .ringThickness(let v): ringThickness = v
        case .ringRadius(let v): ringRadius = v
        case .ringNoTextRadius(let v): ringNoTextRadius = v
        case .cornerRadius(let v): cornerRadius = v
        case .minimumSize(let v): minimumSize = v
        case .offset(let v): offset = v
        case .imageSize(let v): imageSize = v
        case .tintImages(let v): tintImages = v
        case .minimumDismiss(let v): minimumDismiss = v
        case .maximumDismiss(let v): maximumDismiss = v
        case .fadeIn(let v): fadeIn = v
        case .fadeOut(let v): fadeOut = v
        case .animated(let v): animated = v
        case .grace(let v): grace = v
        case .mode(let v): mode = v
        case .label(let text): label = text.isEmpty ? nil : text
        case .details(let text): details = text.isEmpty ? nil : text
        case .button(let text): button = text.isEmpty ? nil : text
        case .margin(let v): margin = v
        case .promptWidth(let v): promptWidth = v
        case .square(let v): square = v
        case .minShow(let v): minShow = v
        case .transition(let v): transition = v
        case .contentColor(let c): contentColor = c
        case .bezelColor(let c): bezelColor = c
        case .tapDismiss(let v): tapDismiss = v
        case .textDirection(let v): textDirection = v
        case .maxFramesPerSecond: break  // the frame scheduler's pace, not the HUD's look (HUDRuntime)
        }
        if setting.isMBSetting && mode == nil { mode = .indeterminate }
    }

    /// A copy with `settings` applied in order.
    public func applying(_ settings: [HUDSetting]) -> HUDAppearance {
        var copy = self
        for setting in settings { copy.apply(setting) }
        return copy
    }
}
