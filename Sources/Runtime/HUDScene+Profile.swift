// SPDX-License-Identifier: MIT
// The HUD scene a board profile asks for: its theme, scale and `[hud]` defaults, the locale's text
// direction, and the fonts (the Debian ones unless given, opened after the first frame).
import Board
import Display
import HUD
import HUDProtocol
import LinuxSystem
import Logging
import Raster

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
        let scale = { (o: DisplayOutput) in scaleSetting.resolve(pixels: o.mode.width, millimetres: o.physicalWidthMM ?? 0) }
        let theme = profile?.sceneTheme(logger: logger) ?? SceneTheme()
        var settings = settings
        if theme.firmwareLogo != nil, let first = outputs.first, !settings.contains(where: { if case .offset = $0 { true } else { false } }) {
            settings.append(.offset(Self.belowFirmwareLogo(frameHeight: first.frameHeight, scale: scale(first))))
        }
        self.init(
            outputs: outputs, origin: origin, theme: theme, resources: resolved,
            appearance: HUDAppearance().applying([.textDirection(LocaleDirection.fromEnvironment())] + settings),
            scale: scale)
        controller.support = profile?.supportAddress(hostName: Files.hostName, logger: logger)
    }
}

extension HUDScene {
    /// The HUD's offset under the firmware's logo (which firmware centres, or puts at 38.2 %): its
    /// centre a quarter of the screen lower than the HUD's own, so at 70 % of the height in SV's
    /// layout, where Plymouth's bgrt theme puts its spinner. A `[hud] offset` replaces it.
    static func belowFirmwareLogo(frameHeight: Int32, scale: Fixed16_16) -> Point {
        let points = Int64(frameHeight) * 65536 / Int64(max(1, scale.raw))
        return Point(x: .zero, y: Fixed16_16(Int32(clamping: points / 4)))
    }
}
