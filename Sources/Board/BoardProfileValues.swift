// SPDX-License-Identifier: MIT
// The value syntaxes of board profiles: lists, paths, modes, decimals, colours, choices. Each
// failure names the key, the value and what was expected, e.g.
// `rotation: '45' is not one of 0, 90, 180, 270, panel-orientation`.
// Numbers are range-checked as digits before conversion, so no input can trap.

import HUD
import HUDProtocol
import Raster

struct BoardProfileValues {
    let key: String
    let value: String
    let quoted: Bool
    let line: Int
    let file: String

    /// The kernel's connector type names (drm_connector.c `drm_connector_enum_list`); a connector is
    /// named TYPE-N, e.g. HDMI-A-1.
    static let connectorTypes = [
        "Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO", "LVDS", "Component", "DIN",
        "DP", "HDMI-A", "HDMI-B", "TV", "eDP", "Virtual", "DSI", "DPI", "Writeback", "SPI", "USB",
    ]

    func bad(_ expected: String) -> BoardProfileError {
        BoardProfileError(file: file, line: line, problem: .badValue(key: key, value: value, expected: expected))
    }

    mutating func apply(section: String, to p: inout BoardProfile) throws(BoardProfileError) {
        if value.isEmpty && !quoted {
            throw BoardProfileError(file: file, line: line, problem: .missingValue(key: key, expected: expected(section)))
        }
        switch (section, key) {
        case ("device", "backend"):
            var backends: [BoardProfile.Backend] = []
            for item in try list() {
                guard let b = BoardProfile.Backend(rawValue: item), !backends.contains(b) else { throw bad(expected(section)) }
                backends.append(b)
            }
            p.backends = backends
        case ("device", "card"):
            p.card = value == "auto" ? .auto : .path(try path(expected(section)))
        case ("device", "driver"):
            let names = try list()
            guard names.allSatisfy(Self.isName) else { throw bad(expected(section)) }
            p.drivers = names
        case ("device", "connectors"):
            if value == "all" { p.connectors = .all; return }
            let names = try list()
            guard names.allSatisfy(Self.isConnectorName) else { throw bad(expected(section)) }
            p.connectors = .named(names)
        case ("device", "fbdev"):
            p.fbdevPath = try path(expected(section))
        case ("output", "mode"):
            p.mode = try mode()
        case ("output", "rotation"):
            switch value {
            case "panel-orientation": p.rotation = .panelOrientation
            case "0": p.rotation = .fixed(.r0)
            case "90": p.rotation = .fixed(.r90)
            case "180": p.rotation = .fixed(.r180)
            case "270": p.rotation = .fixed(.r270)
            default: throw bad(expected(section))
            }
        case ("output", "scale"):
            if value == "auto" { p.scale = .auto; return }
            // Up to 4 decimals: 0.0001 is below one Fixed16_16 step's worth of visible difference.
            guard let tenThousandths = Self.decimal(value, fractionDigits: 4), tenThousandths > 0, tenThousandths <= 80_000
            else { throw bad(expected(section)) }
            p.scale = .fixed(Fixed16_16(raw: Int32((tenThousandths * 65536 + 5_000) / 10_000)))
        case ("output", "pixel-format"):
            if value == "auto" { p.pixelFormat = nil; return }
            guard let format = PixelFormat(name: value) else { throw bad(expected(section)) }
            p.pixelFormat = format
        case ("output", "buffers"):
            guard value == "1" || value == "2" else { throw bad(expected(section)) }
            p.buffers = value == "1" ? 1 : 2
        case ("pacing", "method"):
            guard let method = BoardProfile.PacingMethod(rawValue: value) else { throw bad(expected(section)) }
            p.pacing = method
        case ("pacing", "refresh"):
            p.refreshMillihertz = value == "auto" ? nil : try refresh(expected(section))
        case ("theme", "screen"): p.screenColor = try colour()
        case ("theme", "foreground"): p.foregroundColor = try colour()
        case ("theme", "background"): p.backgroundColor = try colour()
        case ("theme", "backdrop"): p.backdropColor = try colour()
        case ("theme", "font"): p.fontPath = try nonEmpty()
        case ("theme", "logo"):
            // `firmware` is the BGRT's logo; a file of that name is written ./firmware.
            let v = try nonEmpty()
            p.logoFromFirmware = v == "firmware"
            p.logoPath = p.logoFromFirmware ? nil : v
        case ("theme", "logo-placement"):
            guard let placement = BoardProfile.LogoPlacement(rawValue: value) else { throw bad(expected(section)) }
            p.logoPlacement = placement
        case ("theme", "logo-offset"):
            let parts = value.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let x = Self.integer(Self.strip(parts[0])), let y = Self.integer(Self.strip(parts[1]))
            else { throw bad(expected(section)) }
            p.logoOffsetX = x; p.logoOffsetY = y
        case ("input", "devices"):
            switch value {
            case "auto": p.inputDevices = .auto
            case "none": p.inputDevices = .none
            default:
                let paths = try list()
                guard paths.allSatisfy({ $0.hasPrefix("/") }) else { throw bad(expected(section)) }
                p.inputDevices = .paths(paths)
            }
        case ("input", "output"):
            guard Self.isConnectorName(value) else { throw bad(expected(section)) }
            p.inputOutput = value
        case ("input", "assign"):
            var assignments: [BoardProfile.InputAssignment] = []
            for item in try list() {
                guard let arrow = item.firstRange(ofText: "->") else { throw bad(expected(section)) }
                let device = Self.strip(item[..<arrow.lowerBound]), output = Self.strip(item[arrow.upperBound...])
                guard !device.isEmpty, Self.isConnectorName(output) else { throw bad(expected(section)) }
                assignments.append(BoardProfile.InputAssignment(device: device, output: output))
            }
            p.inputAssignments = assignments
        case ("input", "calibration"):
            let words = value.split(separator: " ", omittingEmptySubsequences: true)
            let numbers = words.compactMap { Double($0) }.filter { $0.isFinite && abs($0) <= 100 }
            guard words.count == 6, numbers.count == 6 else { throw bad(expected(section)) }
            p.inputCalibration = numbers
        case ("input", "grab"):
            guard value == "on" || value == "off" else { throw bad(expected(section)) }
            p.grabInput = value == "on"
        case ("input", "on-screen-keyboard"):
            guard let mode = BoardProfile.OnScreenKeyboard(rawValue: value) else { throw bad(expected(section)) }
            p.onScreenKeyboard = mode
        case ("input", "keymap"):
            guard let layout = KeyboardLayout.named(value), layout.name == value else { throw bad(expected(section)) }
            p.keymap = layout.name
        case ("modes", _):
            p.modeTitles[key] = value
        case ("updates", "support-url"):
            do { try SupportAddress.check(url: value) } catch { throw bad(expected(section) + " (\(error.reason))") }
            p.supportURL = value
        case ("updates", "device-id"):
            do { try SupportAddress.check(deviceID: value) } catch { throw bad(expected(section) + " (\(error.reason))") }
            p.deviceID = value
        case ("handover", "watchdog"):
            guard let seconds = Double(value), seconds.isFinite, seconds >= 0, seconds <= 3600 else { throw bad(expected(section)) }
            p.handoverWatchdog = seconds == 0 ? nil : seconds
        case ("hud", _):
            // The HUD's `set` keys are lowercase words joined by '-'; the HUD validates the rest.
            guard key.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
                throw BoardProfileError(file: file, line: line, problem: .badValue(
                    key: key, value: value, expected: "a HUD setting: keys are the command language's lowercase `set` keys"))
            }
            p.hudDefaults.append(BoardProfile.HUDDefault(key: key, value: value, quoted: quoted, line: line))
        default:
            preconditionFailure("key '\(key)' is listed in [\(section)] but has no parser")
        }
    }

    /// What `key` in `section` takes, for messages.
    func expected(_ section: String) -> String {
        switch (section, key) {
        case ("device", "backend"): return "a list of drm, fbdev, memory (each once, in the order to try)"
        case ("device", "card"): return "auto or a device path like /dev/dri/card1"
        case ("device", "driver"): return "a list of DRM driver names like vc4, i915"
        case ("device", "connectors"):
            return "all or a list of connector names like HDMI-A-1, DSI-1 (TYPE-N, TYPE one of "
                + Self.connectorTypes.joined(separator: ", ") + ")"
        case ("device", "fbdev"): return "a device path like /dev/fb0"
        case ("output", "mode"): return "preferred, WxH or WxH@HZ like 1920x1080@60 (1...16384 pixels, 1...1000 Hz)"
        case ("output", "rotation"): return "one of 0, 90, 180, 270, panel-orientation"
        case ("output", "scale"): return "auto or a decimal above 0 and at most 8 like 1.5"
        case ("output", "buffers"): return "1 or 2"
        case ("output", "pixel-format"): return "auto or one of " + PixelFormat.allCases.map(\.name).joined(separator: ", ")
        case ("pacing", "method"): return "one of " + BoardProfile.PacingMethod.allCases.map(\.rawValue).joined(separator: ", ")
        case ("pacing", "refresh"): return "auto or a rate in Hz from 1 to 1000 like 59.94"
        case ("theme", "logo-placement"):
            return "one of " + BoardProfile.LogoPlacement.allCases.map(\.rawValue).joined(separator: ", ")
        case ("theme", "logo-offset"): return "X,Y in points like 0,-40 (each -32767...32767)"
        case ("theme", "logo"): return "firmware or a PNG file path"
        case ("theme", "font"): return "a file path"
        case ("theme", _): return "a colour #RRGGBB or #RRGGBBAA"
        case ("input", "devices"): return "auto, none or a list of device paths like /dev/input/event2"
        case ("input", "output"): return "a connector name like DSI-1"
        case ("input", "assign"): return "a list of DEVICE-NAME -> CONNECTOR like ft5x06 -> DSI-1"
        case ("input", "calibration"): return "six numbers a b c d e f (libinput's calibration matrix) like 0 1 0 -1 0 1"
        case ("input", "grab"): return "on or off"
        case ("input", "on-screen-keyboard"): return "one of " + BoardProfile.OnScreenKeyboard.allCases.map(\.rawValue).joined(separator: ", ")
        case ("input", "keymap"): return "the on-screen keyboard's layout, one of " + KeyboardLayout.names.joined(separator: ", ")
        case ("modes", _): return "the HUD's text in that mode (quoted when it has spaces at its ends; empty: none)"
        case ("updates", "support-url"):
            return "an http:// or https:// address without spaces, fragment or non-ASCII bytes, at most \(SupportAddress.maxURLBytes) bytes"
        case ("updates", "device-id"): return "a name of 1 to \(SupportAddress.maxDeviceIDBytes) bytes without control characters"
        case ("handover", "watchdog"): return "seconds, 0...3600 (0: none)"
        default: return "a value"
        }
    }

    // MARK: Syntaxes

    /// Comma-separated items; a quoted value is one item.
    func list() throws(BoardProfileError) -> [String] {
        if quoted { return [value] }
        let items = value.split(separator: ",", omittingEmptySubsequences: false).map(Self.strip)
        if items.contains(where: \.isEmpty) { throw bad("a list of items separated by commas") }
        return items
    }

    func path(_ expected: String) throws(BoardProfileError) -> String {
        guard value.hasPrefix("/") else { throw bad(expected) }
        return value
    }

    func nonEmpty() throws(BoardProfileError) -> String {
        guard !value.isEmpty else { throw bad("a file path") }
        return value
    }

    func mode() throws(BoardProfileError) -> BoardProfile.ModeRequest {
        if value == "preferred" { return .preferred }
        let expected = expected("output")
        let atParts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard atParts.count <= 2 else { throw bad(expected) }
        let size = atParts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Self.decimal(String(size[0]), fractionDigits: 0), let h = Self.decimal(String(size[1]), fractionDigits: 0),
              (1...16384).contains(w), (1...16384).contains(h)
        else { throw bad(expected) }
        var mHz: Int32?
        if atParts.count == 2 {
            guard let r = Self.decimal(String(atParts[1]), fractionDigits: 3), (1_000...1_000_000).contains(r) else { throw bad(expected) }
            mHz = Int32(r)
        }
        return .size(width: Int32(w), height: Int32(h), refreshMillihertz: mHz)
    }

    func refresh(_ expected: String) throws(BoardProfileError) -> Int32 {
        guard let r = Self.decimal(value, fractionDigits: 3), (1_000...1_000_000).contains(r) else { throw bad(expected) }
        return Int32(r)
    }

    /// `#RRGGBB` or `#RRGGBBAA`.
    func colour() throws(BoardProfileError) -> Color {
        let s = Array(value.unicodeScalars)
        guard s.first == "#", s.count == 7 || s.count == 9 else { throw bad("a colour #RRGGBB or #RRGGBBAA") }
        var v: UInt32 = 0
        for c in s.dropFirst() {
            guard let d = Self.hexDigit(c) else { throw bad("a colour #RRGGBB or #RRGGBBAA") }
            v = v << 4 | d
        }
        if s.count == 7 { v = v << 8 | 0xFF }
        return Color(r: UInt8(truncatingIfNeeded: v >> 24), g: UInt8(truncatingIfNeeded: v >> 16),
                     b: UInt8(truncatingIfNeeded: v >> 8), a: UInt8(truncatingIfNeeded: v))
    }

    // MARK: Scalars

    static func strip(_ s: Substring) -> String {
        String(BoardProfileParser.string(BoardProfileParser.trimmed(Array(s.unicodeScalars)[...])))
    }

    static func hexDigit(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": return c.value - 48
        case "a"..."f": return c.value - 87
        case "A"..."F": return c.value - 55
        default: return nil
        }
    }

    /// DIGITS[.DIGITS] times 10^fractionDigits, with at most that many decimals and 9 integer digits.
    static func decimal(_ s: String, fractionDigits: Int) -> Int64? {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, (1...9).contains(whole.count),
              whole.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        var value = Int64(whole)!
        var fraction = parts.count == 2 ? Array(parts[1].unicodeScalars) : []
        guard parts.count == 1 || !fraction.isEmpty, fraction.count <= fractionDigits,
              fraction.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        while fraction.count < fractionDigits { fraction.append("0") }
        for d in fraction { value = value * 10 + Int64(d.value - 48) }
        return value
    }

    /// [-]DIGITS within -32767...32767.
    static func integer(_ s: String) -> Int32? {
        let negative = s.hasPrefix("-")
        guard let magnitude = decimal(negative ? String(s.dropFirst()) : s, fractionDigits: 0), magnitude <= 32767 else { return nil }
        return Int32(negative ? -magnitude : magnitude)
    }

    /// A driver name: letters, digits, '-' and '_'.
    static func isName(_ s: String) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy(BoardProfileParser.isKeyScalar)
    }

    /// TYPE-N with TYPE a kernel connector type name and N from 1.
    static func isConnectorName(_ s: String) -> Bool {
        guard let dash = s.lastIndex(of: "-"), let n = decimal(String(s[s.index(after: dash)...]), fractionDigits: 0), n >= 1
        else { return false }
        return connectorTypes.contains(String(s[..<dash]))
    }
}
