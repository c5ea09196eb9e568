// SPDX-License-Identifier: MIT
// A board profile: which device and connectors to drive, the mode, rotation, scale,
// pixel format and pacing, the theme, and HUD defaults, read from a small INI-like file in `boards/`
// (format: boards/README.md; parser: BoardProfileParser.swift).
//
// The profile only records what was asked for. Turning `auto` and `panel-orientation` into concrete
// values needs the device (connector properties, physical size), so backends resolve them; the one
// pure rule, `scale = auto`, is here so that every backend resolves it the same way.
//
// `[hud]` settings stay key/value text as written; BoardProfile+HUD.swift turns each into a `set`
// line for the command language's parser, which validates it, and DisplayOpener.swift turns the
// device keys into display options: the two places a profile becomes something else.

import Display
import HUD
import Raster

/// What a board needs from the display stack, as read from a profile file.
public struct BoardProfile: Equatable, Sendable {
    /// A display backend, tried in the order the profile lists them.
    public enum Backend: String, CaseIterable, Sendable {
        case drm, fbdev, memory
    }

    /// Which DRM card node to open.
    public enum CardSelection: Equatable, Sendable {
        /// The first card that can modeset (and whose driver is in `drivers`, when given).
        case auto
        /// This node, e.g. "/dev/dri/card1".
        case path(String)
    }

    /// Which connectors to light.
    public enum ConnectorSelection: Equatable, Sendable {
        /// Every connected connector.
        case all
        /// Only these, by the kernel's name ("HDMI-A-1", "DSI-1"), when connected.
        case named([String])
    }

    /// The mode to set.
    public enum ModeRequest: Equatable, Sendable {
        /// The connector's preferred mode (the panel's native mode, EDID's first detailed timing).
        case preferred
        /// A mode of this size; the refresh in thousandths of a hertz when given, else the best one.
        case size(width: Int32, height: Int32, refreshMillihertz: Int32?)
    }

    /// How frames are turned for the panel.
    public enum RotationSetting: Equatable, Sendable {
        /// Follow the connector's `panel orientation` property (no property: as rendered).
        case panelOrientation
        /// Always this rotation (Raster's `Rotation`: clockwise, fbcon `FB_ROTATE_*`).
        case fixed(Rotation)
    }

    /// Points to pixels.
    public enum ScaleSetting: Equatable, Sendable {
        /// From the output's physical size: see `resolve(pixels:millimetres:)`.
        case auto
        /// This many pixels per point.
        case fixed(Fixed16_16)

        /// The scale for an output `pixels` wide and `millimetres` wide: its density over 96 dpi,
        /// rounded to the nearest quarter and kept within 1...4, or 1 when the size is unknown (0) or
        /// implausible (below 50 or above 600 dpi: projectors and EDIDs that store an aspect ratio).
        public func resolve(pixels: Int32, millimetres: Int32) -> Fixed16_16 {
            switch self {
            case .fixed(let scale): return scale
            case .auto:
                guard pixels > 0, millimetres > 0 else { return .one }
                let px = Int64(pixels), mm = Int64(millimetres)
                // dpi = px * 25.4 / mm; quarters = dpi / 96 * 4 = px * 127 / (mm * 120).
                let dpiTimes10 = px * 254 / mm
                guard dpiTimes10 >= 500 && dpiTimes10 <= 6000 else { return .one }
                let quarters = (px * 127 * 2 + mm * 120) / (mm * 120 * 2)
                let clamped = Swift.min(Swift.max(quarters, 4), 16)
                return Fixed16_16(raw: Int32(clamped) << 14)
            }
        }
    }

    /// How the frame loop knows when to draw the next frame.
    public typealias PacingMethod = FramePacing

    /// Where the logo sits on the screen, before `logoOffset` moves it.
    public typealias LogoPlacement = SceneTheme.LogoPlacement

    /// One `[hud]` line: a `set` key of the command language and its value, unvalidated.
    public struct HUDDefault: Equatable, Sendable {
        public var key: String
        /// The value with quotes and escapes removed.
        public var value: String
        /// Whether the value was a quoted string (so spaces and `#` are part of it).
        public var quoted: Bool
        /// The line in the profile, for the caller's error message.
        public var line: Int

        public init(key: String, value: String, quoted: Bool, line: Int) {
            self.key = key; self.value = value; self.quoted = quoted; self.line = line
        }
    }

    /// The file the profile was read from, as given to the parser (names errors and resolves paths).
    public var file: String

    // [device]
    public var backends: [Backend] = [.drm, .fbdev]
    public var card: CardSelection = .auto
    /// DRM driver names (`drmVersion.name`: "vc4", "i915") a card must be driven by; empty: any.
    public var drivers: [String] = []
    public var connectors: ConnectorSelection = .all
    public var fbdevPath: String = "/dev/fb0"

    // [output]
    public var mode: ModeRequest = .preferred
    public var rotation: RotationSetting = .panelOrientation
    public var scale: ScaleSetting = .fixed(.one)
    /// The scanout format to ask for; nil: the best the device offers (XRGB8888, else RGB565...).
    public var pixelFormat: PixelFormat?
    /// Scanout buffers: 2 (page flips / panning) or 1 (drawn on screen: boards whose video memory
    /// or CMA pool holds one frame only).
    public var buffers: Int = 2

    // [pacing]
    public var pacing: PacingMethod = .auto
    /// Overrides the mode's refresh rate for timer pacing, in thousandths of a hertz.
    public var refreshMillihertz: Int32?

    // [theme]
    /// What fills the screen behind the logo and the HUD.
    public var screenColor: Color = .black
    /// HUD `set foreground-color`, `background-color`, `backdrop-color`; nil: the HUD's defaults.
    public var foregroundColor: Color?
    public var backgroundColor: Color?
    public var backdropColor: Color?
    /// HUD `set font`; nil: the HUD's default font.
    public var fontPath: String?
    /// A PNG drawn on the screen behind the HUD.
    public var logoPath: String?
    /// `logo = firmware`: the firmware's boot logo (ACPI BGRT) where the firmware drew it, the HUD
    /// below it (placement and offset do not apply).
    public var logoFromFirmware = false
    public var logoPlacement: LogoPlacement = .center
    /// Moves the logo from its placement, in points (x right, y down).
    public var logoOffsetX: Int32 = 0
    public var logoOffsetY: Int32 = 0

    // [input]
    /// Which evdev devices to read.
    public enum InputDevices: Equatable, Sendable {
        /// Every /dev/input/event* that is a touchscreen, tablet, mouse or keyboard, as they come.
        case auto
        /// No input at all.
        case none
        /// Only these device nodes (e.g. "/dev/input/by-path/platform-ft5x06-event").
        case paths([String])
    }
    /// A pointing device (by a part of its name, as EVIOCGNAME reports it) and the output its
    /// surface covers.
    public struct InputAssignment: Equatable, Sendable {
        public var device: String
        public var output: String
        public init(device: String, output: String) { self.device = device; self.output = output }
    }
    public var inputDevices: InputDevices = .auto
    /// The output pointing devices cover unless `inputAssignments` names one; nil: the first.
    public var inputOutput: String?
    public var inputAssignments: [InputAssignment] = []
    /// libinput's calibration matrix (a b c d e f) for every touchscreen and tablet; nil: identity.
    public var inputCalibration: [Double]?
    /// Take the devices for the HUD alone (EVIOCGRAB), so nothing behind it sees the input.
    public var grabInput = false
    /// When a passphrase prompt shows the on-screen keyboard.
    public enum OnScreenKeyboard: String, Equatable, Sendable, CaseIterable {
        /// When no keyboard is attached and a touchscreen is.
        case auto
        case never
        /// On every prompt, even before a touchscreen has appeared (touch drivers load late).
        case always
    }
    public var onScreenKeyboard: OnScreenKeyboard = .auto
    /// The on-screen keyboard's layout (a KeyboardLayout name); nil: the console's keymap.
    public var keymap: String?

    // [modes]
    /// The HUD's text in each of Plymouth's modes (`plymouth change-mode`), by mode name; an empty
    /// text shows none. Modes not named keep SplashHUD's own titles.
    public var modeTitles: [String: String] = [:]

    // [updates]
    /// Where a failed update's QR code sends a person (`support-url`, checked by SupportAddress),
    /// and the device id it carries (`device-id`; nil: the kernel's host name).
    public var supportURL: String?
    public var deviceID: String?

    // [handover]
    /// After `deactivate` hands the display to the next program: seconds until the daemon takes
    /// it back when no other program has drawn; nil: never.
    public var handoverWatchdog: Double?

    // [hud]
    /// Applied in file order after the theme's colours and font, so a `[hud]` line wins.
    public var hudDefaults: [HUDDefault] = []

    /// A profile with every default (what an empty file gives).
    public init(file: String) { self.file = file }

    /// `path` as given when absolute, else relative to the profile's directory (font and logo
    /// paths in `boards/` can then name files beside the profile).
    public func resolve(path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let slash = file.lastIndex(of: "/") else { return path }
        return String(file[...slash]) + path
    }
}
