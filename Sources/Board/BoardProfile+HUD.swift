// SPDX-License-Identifier: MIT
// A board profile's theme and `[hud]` lines in the HUD's terms: settings for the controller's
// appearance (theme colours and font first, then `[hud]` in file order, so `[hud]` wins) and the
// scene theme (screen colour, logo). Every `[hud]` line goes through CommandParser as the `set`
// command it stands for, so the profile accepts exactly what the command language does.
import Assets
import Display
import HUD
import HUDProtocol
import LinuxSystem
import Logging
import Raster

extension BoardProfile.HUDDefault {
    /// The command-language line that applies it: `set KEY VALUE`, a quoted value quoted again the
    /// way the command language prints strings (CommandParser.quote).
    public var setCommand: String {
        "set \(key) " + (quoted ? CommandParser.quote(value) : value)
    }
}

extension BoardProfile {
    /// The theme's colours and font, then every `[hud]` entry, validated. Throws on the first bad
    /// entry, naming file:line:key and the parser's message.
    public func hudSettings() throws(BoardProfileError) -> [HUDSetting] {
        var settings: [HUDSetting] = []
        if let c = foregroundColor { settings.append(.foregroundColor(c)) }
        if let c = backgroundColor { settings.append(.backgroundColor(c)) }
        if let c = backdropColor { settings.append(.backdropColor(c)) }
        if let f = fontPath { settings.append(.font(path: resolve(fonts: f))) }
        for entry in hudDefaults {
            let command: HUDCommand?
            do { command = try CommandParser.parse(entry.setCommand) } catch {
                throw BoardProfileError(file: file, line: entry.line, problem: .refusedHUDSetting(key: entry.key, message: error.message))
            }
            guard case .set(var setting)? = command else {
                throw BoardProfileError(file: file, line: entry.line, problem: .refusedHUDSetting(key: entry.key, message: "not a `set` setting"))
            }
            if case .font(let path) = setting { setting = .font(path: resolve(fonts: path)) }
            settings.append(setting)
        }
        return settings
    }

    /// The support address `[updates]` names, with its device id: `device-id`, else `hostName()`
    /// (called only then), else "unknown", logged; nil without a `support-url`.
    public func supportAddress(hostName: () -> String?, logger: Logger) -> SupportAddress? {
        guard let supportURL else { return nil }
        var device = deviceID ?? hostName() ?? ""
        if (try? SupportAddress.check(deviceID: device)) == nil {
            logger.warning("\(file): no device-id and the host name '\(device)' cannot be one; the support code says device=unknown")
            device = "unknown"
        }
        do { return try SupportAddress(url: supportURL, deviceID: device) } catch {
            logger.error("\(file): \(error); no support code")  // checked when the profile was read
            return nil
        }
    }

    /// The screen colour and logo. A logo that will not load is logged as an error naming the file
    /// and the reason, and left out: the splash still runs. The firmware's logo is read from
    /// `firmwareDirectory`; none there is a notice (a board without one), a bad one an error.
    /// `SPLASHHUD_BGRT` names a copy of a device's BGRT directory, to render its look elsewhere.
    public func sceneTheme(
        logger: Logger, firmwareDirectory: String = Environment.value("SPLASHHUD_BGRT") ?? FirmwareLogoFile.sysfsDirectory
    ) -> SceneTheme {
        var theme = SceneTheme(screenColor: screenColor, logoPlacement: logoPlacement, logoOffsetX: logoOffsetX, logoOffsetY: logoOffsetY)
        if logoFromFirmware {
            switch FirmwareLogoFile.read(directory: firmwareDirectory) {
            case .success(let logo):
                logger.info("\(file): the firmware's logo, \(logo.image.width)x\(logo.image.height) at \(logo.x),\(logo.y) turned \(logo.orientation.name)")
                theme.firmwareLogo = logo
            case .failure(let absence):
                if case .invalid = absence { logger.error("\(file): \(absence); the splash runs without it") } else {
                    logger.notice("\(file): \(absence); the splash runs without it")
                }
            }
        }
        if let logoPath {
            let path = resolve(path: logoPath)
            do { theme.logo = try PNGDecoder.decode(contentsOf: path) } catch {
                logger.error("\(file): logo \(path) cannot be shown: \(error); the splash runs without it")
            }
        }
        return theme
    }
}

extension BoardProfile {
    /// A font chain spec with each relative file resolved against the profile's directory (a spec
    /// that cannot be read is left as it is, for the HUD to refuse with its reason).
    func resolve(fonts spec: String) -> String {
        guard let sources = try? FontSource.parse(spec) else { return resolve(path: spec) }
        return FontSource.spec(sources.map { var s = $0; s.path = resolve(path: s.path); return s })
    }
}
