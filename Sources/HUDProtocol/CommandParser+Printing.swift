// SPDX-License-Identifier: MIT
// Commands back to text: `HUDCommand.description` is a line the parser reads back to the same
// command, for every command the parser can produce (so logs and recorded sessions replay).
// Text is always double-quoted; numbers use the fewest decimals that convert back exactly.
import Raster

extension HUDCommand: CustomStringConvertible {
    /// The command as a line of the command language (`show "Loading"`, `set mask black`).
    public var description: String {
        func withStatus(_ head: String, _ status: String?) -> String {
            status.map { head + " " + CommandParser.quote($0) } ?? head
        }
        switch self {
        case .show(let status): return withStatus("show", status)
        case .progress(let fraction, let status): return withStatus("progress " + CommandParser.format(fraction), status)
        case .image(let kind, let status, let stays, let support):
            let stay = (stays ? " --stay" : "") + (support ? " --support" : "")
            switch kind {
            case .success: return withStatus("success" + stay, status)
            case .error: return withStatus("error" + stay, status)
            case .info: return withStatus("info" + stay, status)
            case .custom(let path): return withStatus("image" + stay + " " + CommandParser.quote(path), status)
            }
        case .status(let text): return "status " + CommandParser.quote(text)
        case .dismiss(let delay): return delay == .zero ? "dismiss" : "dismiss " + CommandParser.format(delay)
        case .pop: return "pop"
        case .reset: return "reset"
        case .set(let setting): return "set " + setting.description
        }
    }
}

extension HUDSetting: CustomStringConvertible {
    /// The `set` key, spelled as the command language spells it.
    public var key: String {
        switch self {
        case .style: "style"
        case .mask: "mask"
        case .spinner: "animation"
        case .foregroundColor: "foreground-color"
        case .backgroundColor: "background-color"
        case .backdropColor: "backdrop-color"
        case .imageColor: "image-color"
        case .font: "font"
        case .fontSize: "font-size"
        case .ringThickness: "ring-thickness"
        case .ringRadius: "ring-radius"
        case .ringNoTextRadius: "ring-no-text-radius"
        case .cornerRadius: "corner-radius"
        case .minimumSize: "min-size"
        case .offset: "offset"
        case .imageSize: "image-size"
        case .tintImages: "tint-images"
        case .minimumDismiss: "min-dismiss"
        case .maximumDismiss: "max-dismiss"
        case .fadeIn: "fade-in"
        case .fadeOut: "fade-out"
        case .animated: "animated"
        case .grace: "grace"
        case .mode: "mode"
        case .label: "label"
        case .details: "details"
        case .button: "button"
        case .margin: "margin"
        case .square: "square"
        case .minShow: "min-show"
        case .transition: "transition"
        case .contentColor: "content-color"
        case .bezelColor: "bezel-color"
        case .tapDismiss: "tap-dismiss"
        case .textDirection: "text-direction"
        case .maxFramesPerSecond: "max-fps"
        case .promptWidth: "prompt-width"
        }
    }

    /// The value as the parser reads it (`#FF0000`, `200x100`, `0.15`, `"Loading"`).
    public var value: String {
        typealias P = CommandParser
        switch self {
        case .style(let v): return v.rawValue
        case .mask(let v): return v.rawValue
        case .spinner(let v): return v.rawValue
        case .mode(let v): return v.rawValue
        case .transition(let v): return v.rawValue
        case .tapDismiss(let v): return v.rawValue
        case .textDirection(let v): return v.rawValue
        case .foregroundColor(let c), .backgroundColor(let c), .backdropColor(let c), .imageColor(let c),
             .contentColor(let c), .bezelColor(let c):
            return P.format(c)
        case .font(let path): return P.quote(path)
        case .label(let text), .details(let text), .button(let text): return P.quote(text)
        case .fontSize(let f), .ringThickness(let f), .ringRadius(let f), .ringNoTextRadius(let f),
             .cornerRadius(let f), .margin(let f), .promptWidth(let f):
            return P.format(f)
        case .minimumSize(let s), .imageSize(let s): return P.format(s.width) + "x" + P.format(s.height)
        case .offset(let p): return P.format(p.x) + "," + P.format(p.y)
        case .tintImages(let on), .square(let on), .animated(let on): return on ? "on" : "off"
        case .minimumDismiss(let i), .maximumDismiss(let i), .fadeIn(let i), .fadeOut(let i), .grace(let i),
             .minShow(let i):
            return P.format(i)
        case .maxFramesPerSecond(let n): return n.map(String.init) ?? "refresh"
        }
    }

    /// `KEY VALUE`, what follows `set`.
    public var description: String { key + " " + value }

    /// True for MBProgressHUD-only settings, which put the HUD in MB behaviour (see
    /// `HUDAppearance.apply(_:)`).
    public var isMBSetting: Bool {
        switch self {
        case .mode, .label, .details, .button, .margin, .square, .minShow, .transition, .contentColor, .bezelColor:
            return true
        default:
            return false
        }
    }
}

extension CommandParser {
    /// `text` as one word of a line: as it is when the lexer reads it back so, else quoted.
    public static func word(_ text: String) -> String {
        let plain = !text.isEmpty && !text.hasPrefix("#") && text.unicodeScalars.allSatisfy {
            !CommandLexer.isBlank($0) && !CommandLexer.isControl($0) && $0 != "\"" && $0 != "'" && $0 != "\\"
        }
        return plain ? text : quote(text)
    }

    /// `text` in double quotes, escaping what the lexer would not read back literally.
    public static func quote(_ text: String) -> String {
        var out = "\""
        for s in text.unicodeScalars {
            switch s {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if CommandLexer.isControl(s) {
                    out += "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(s)
                }
            }
        }
        return out + "\""
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    static func format(_ c: Color) -> String {
        func hex2(_ v: UInt8) -> String { (v < 16 ? "0" : "") + String(v, radix: 16, uppercase: true) }
        return "#" + hex2(c.r) + hex2(c.g) + hex2(c.b) + (c.a == 255 ? "" : hex2(c.a))
    }

    /// The shortest decimal (at most 5 decimals always suffice, since 10⁻⁵ < 2⁻¹⁶) that
    /// `Fixed16_16(Double)` converts back to exactly `f`.
    static func format(_ f: Fixed16_16) -> String {
        let raw = Int64(f.raw)
        var scale: Int64 = 1
        for decimals in 0...5 {
            let n = roundedDivide(raw * scale, 65536)
            let text = decimalString(n, decimals: decimals)
            if let d = Double(text), (d * 65536).rounded(.toNearestOrAwayFromZero) == Double(raw) { return text }
            scale *= 10
        }
        return decimalString(raw * 152_587_890_625, decimals: 16)  // raw / 2^16 exactly
    }

    /// Seconds with up to nine decimals, exactly; `forever` for `.forever`.
    static func format(_ i: Interval) -> String {
        i == .forever ? "forever" : decimalString(i.nanoseconds, decimals: 9)
    }

    /// `n / 10^decimals` written out exactly, without trailing zeros.
    static func decimalString(_ n: Int64, decimals: Int) -> String {
        var digits = String(n.magnitude)
        if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
        var whole = String(digits.dropLast(decimals))
        var fraction = String(digits.suffix(decimals))
        while fraction.last == "0" { fraction.removeLast() }
        if whole.isEmpty { whole = "0" }
        let sign = n < 0 ? "-" : ""
        return sign + whole + (fraction.isEmpty ? "" : "." + fraction)
    }
}
