// SPDX-License-Identifier: MIT
// The HUD scene a board profile asks for: its theme, scale and `[hud]` defaults, the locale's text
// direction, and the fonts (the Debian ones unless given, opened after the first frame).
import Board
import Display
import HUD
import HUDProtocol
import LinuxSystem
import Logging

extension HUDScene {
    /// The scene on `outputs` as `profile` configures it, with `settings` (its `[hud]` entries)
    /// applied. A profile font that cannot be used is logged and the default kept.
    convenience init(outputs: [DisplayOutput], profile: BoardProfile?, settings: [HUDSetting], resources: HUDResources?,
                     origin: Int64, logger: Logger) {
        // The default fonts open after the first frame (`whenReady`) or when text needs them
        // first: the spinner alone needs none.
        let resolved = resources ?? HUDResources.systemOnFirstUse()
        for case .font(let path) in settings {
            if case .failure(let e) = resolved.chain(fontAt: path) { logger.error("\(profile?.file ?? "profile"): \(e); using the default font") }
        }
        let scaleSetting = profile?.scale ?? .fixed(.one)
        self.init(
            outputs: outputs, origin: origin, theme: profile?.sceneTheme(logger: logger) ?? SceneTheme(), resources: resolved,
            appearance: HUDAppearance().applying([.textDirection(LocaleDirection.fromEnvironment())] + settings),
            scale: { scaleSetting.resolve(pixels: $0.mode.width, millimetres: $0.physicalWidthMM ?? 0) })
        controller.support = profile?.supportAddress(hostName: Files.hostName, logger: logger)
    }
}
