// SPDX-License-Identifier: MIT
// The JSON the bridge publishes: the HUD's state and its events, written by hand (no Foundation
// in a program that stays resident on every kiosk). Keys come out in a fixed order, so the same
// state is the same bytes and an unchanged state is never republished.
import HUDProtocol

enum JSONText {
    /// `s` as a JSON string (RFC 8259: quote, backslash and control characters escaped).
    static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    static func optional(_ s: String?) -> String { s.map(string) ?? "null" }

    /// A number with at most four decimals (the state line's precision), never an exponent.
    static func number(_ v: Double) -> String {
        let scaled = Int64((min(max(v, -1e9), 1e9) * 10_000).rounded())
        let sign = scaled < 0 ? "-" : ""
        let a = scaled.magnitude
        let whole = a / 10_000, frac = a % 10_000
        guard frac != 0 else { return sign + String(whole) }
        var f = String(frac)
        f = String(repeating: "0", count: 4 - f.count) + f
        while f.hasSuffix("0") { f.removeLast() }
        return "\(sign)\(whole).\(f)"
    }

    /// `{"visible":…,"status":…,"progress":…,"mode":…,"outputs":[{"name":…,"width":…,"height":…}],"daemon":true}`;
    /// with no daemon answering, `{"visible":false,…,"mode":"absent","outputs":[],"daemon":false}`.
    static func state(_ s: HUDState?) -> String {
        guard let s else {
            return #"{"visible":false,"status":null,"progress":null,"mode":"absent","outputs":[],"daemon":false}"#
        }
        let outputs = s.outputs.map { #"{"name":\#(string($0.name)),"width":\#($0.width),"height":\#($0.height)}"# }
        return #"{"visible":\#(s.visible),"status":\#(optional(s.status)),"progress":\#(s.progress.map(number) ?? "null"),"#
            + #""mode":\#(string(s.mode)),"outputs":[\#(outputs.joined(separator: ","))],"daemon":true}"#
    }

    /// `{"kind":"did-appear","status":…,"time":…}` and the event's details as further keys
    /// (a touch's `x`, `y`, `output`; a key's `key`, `text`), `time` in seconds of HUD time.
    static func event(_ e: HUDEvent) -> String {
        var fields = [#""kind":\#(string(e.kind.rawValue))"#, #""status":\#(optional(e.status))"#, #""time":\#(number(e.time.seconds))"#]
        for d in e.details where !["kind", "status", "time"].contains(d.key) {
            fields.append("\(string(d.key)):\(string(d.value))")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}
