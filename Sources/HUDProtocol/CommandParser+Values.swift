// SPDX-License-Identifier: MIT
// `set KEY VALUE` and the value syntaxes: numbers, durations, colours, pairs, choices, switches.
// Every value is range-checked before it is converted, so no input can trap a conversion.
import Raster

extension CommandParser {
    /// Every `set` key, SV's then MB's.
    public static let keys = [
        "style", "mask", "animation", "foreground-color", "background-color", "backdrop-color",
        "image-color", "font", "font-size", "ring-thickness", "ring-radius", "ring-no-text-radius",
        "corner-radius", "min-size", "offset", "image-size", "tint-images", "min-dismiss",
        "max-dismiss", "fade-in", "fade-out", "grace", "animated",
        "mode", "label", "details", "button", "margin", "square", "min-show", "transition",
        "content-color", "bezel-color",
        "tap-dismiss", "max-fps", "prompt-width", "text-direction",
    ]

    /// The largest `max-fps`.
    public static let maxFramesPerSecond: Int32 = 1000

    /// Largest length or offset in points. At the largest board scale (4) a HUD of such lengths
    /// on the largest screen (8192 px) still fits Fixed16_16's ±32767 px with room for the sums
    /// layout makes (centre + offset + half a size).
    public static let maxLength = 2048.0
    /// Largest font size in points: a glyph at scale 4 is then at most 2048 px tall, a coverage
    /// mask of a few megabytes (at 32767 pt one mask neared a gigabyte and overflowed 16.16).
    public static let maxFontSize = 512.0
    /// Longest duration in seconds (about 11.6 days; `forever` is separate).
    static let maxSeconds: Int64 = 1_000_000

    /// `KEY VALUE` after `set`.
    static func setting(_ words: ArraySlice<CommandWord>) throws(CommandError) -> HUDSetting {
        guard let keyWord = words.first else {
            throw CommandError(.missingArgument(command: "set", expected: "a key and a value"), column: nil)
        }
        let key = keyWord.text
        guard keys.contains(key) else {
            throw CommandError(.unknownKey(key, suggestion: suggestion(for: key, among: keys)), column: keyWord.column)
        }
        let command = "set " + key
        let values = words.dropFirst()
        // Text values take the rest of the line; every other value is exactly one word.
        switch key {
        case "label", "details", "button":
            _ = try required(values, for: command, expected: "a text")
            let text = try text(values, for: command) ?? ""
            return key == "label" ? .label(text) : key == "details" ? .details(text) : .button(text)
        default: break
        }
        let expected = choices(forKey: key).map { "one of " + $0.joined(separator: ", ") } ?? "a value"
        let word = try required(values, for: command, expected: expected)
        try end(values.dropFirst(), for: command)
        switch key {
        case "style": return .style(try choice(word, for: command))
        case "mask": return .mask(try choice(word, for: command))
        case "animation": return .spinner(try choice(word, for: command))
        case "mode": return .mode(try choice(word, for: command))
        case "transition": return .transition(try choice(word, for: command))
        case "tap-dismiss": return .tapDismiss(try choice(word, for: command))
        case "text-direction": return .textDirection(try choice(word, for: command))
        case "foreground-color": return .foregroundColor(try colour(word, for: command))
        case "background-color": return .backgroundColor(try colour(word, for: command))
        case "backdrop-color": return .backdropColor(try colour(word, for: command))
        case "image-color": return .imageColor(try colour(word, for: command))
        case "content-color": return .contentColor(try colour(word, for: command))
        case "bezel-color": return .bezelColor(try colour(word, for: command))
        case "font":
            if word.text.isEmpty { throw CommandError(.missingArgument(command: command, expected: "a path"), column: word.column) }
            return .font(path: word.text)
        case "font-size":
            // A font below 1 pt draws nothing legible; FreeType rejects 0.
            return .fontSize(try fixed(word, for: command, in: 1...maxFontSize, range: "1...512"))
        case "ring-thickness": return .ringThickness(try length(word, for: command))
        case "ring-radius": return .ringRadius(try length(word, for: command))
        case "ring-no-text-radius": return .ringNoTextRadius(try length(word, for: command))
        case "corner-radius": return .cornerRadius(try length(word, for: command))
        case "margin": return .margin(try length(word, for: command))
        case "prompt-width": return .promptWidth(try length(word, for: command))
        case "min-size", "image-size":
            let (w, h) = try pair(word, separators: ["x", "X"], for: command, format: "WxH, e.g. 200x100",
                                  in: 0...maxLength, range: "0...2048")
            let size = Size(width: w, height: h)
            return key == "min-size" ? .minimumSize(size) : .imageSize(size)
        case "offset":
            let (x, y) = try pair(word, separators: [","], for: command, format: "X,Y, e.g. 0,-40",
                                  in: -maxLength...maxLength, range: "-2048...2048")
            return .offset(Point(x: x, y: y))
        case "tint-images": return .tintImages(try onOff(word, for: command))
        case "animated": return .animated(try onOff(word, for: command))
        case "square": return .square(try onOff(word, for: command))
        case "min-dismiss": return .minimumDismiss(try duration(word, for: command))
        case "max-dismiss":
            if word.text == "inf" || word.text == "forever" { return .maximumDismiss(.forever) }
            return .maximumDismiss(try duration(word, for: command))
        case "fade-in": return .fadeIn(try duration(word, for: command))
        case "fade-out": return .fadeOut(try duration(word, for: command))
        case "grace": return .grace(try duration(word, for: command))
        case "min-show": return .minShow(try duration(word, for: command))
        case "max-fps":
            if word.text == "refresh" { return .maxFramesPerSecond(nil) }
            guard !word.text.isEmpty, word.text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
                throw CommandError(.notANumber(command: command, word: word.text), column: word.column)
            }
            // Checked as text first: no number of digits can overflow the conversion.
            guard word.text.count <= 4, let n = Int32(word.text), (1...maxFramesPerSecond).contains(n) else {
                throw CommandError(.outOfRange(command: command, word: word.text, range: "1...\(maxFramesPerSecond) or refresh"), column: word.column)
            }
            return .maxFramesPerSecond(n)
        default: preconditionFailure("key '\(key)' is in `keys` but has no parser")
        }
    }

    /// The allowed spellings of a choice key's value.
    static func choices(forKey key: String) -> [String]? {
        switch key {
        case "style": return HUDStyle.allCases.map(\.rawValue)
        case "mask": return HUDMask.allCases.map(\.rawValue)
        case "animation": return HUDSpinner.allCases.map(\.rawValue)
        case "mode": return HUDMode.allCases.map(\.rawValue)
        case "transition": return HUDTransition.allCases.map(\.rawValue)
        case "tap-dismiss": return HUDTapDismiss.allCases.map(\.rawValue)
        case "text-direction": return HUDTextDirection.allCases.map(\.rawValue)
        case "tint-images", "square", "animated": return ["on", "off"]
        default: return nil
        }
    }

    // MARK: Value syntaxes

    static func choice<T: RawRepresentable & CaseIterable>(_ word: CommandWord, for command: String) throws(CommandError) -> T
    where T.RawValue == String {
        if let value = T(rawValue: word.text) { return value }
        throw CommandError(.notOneOf(command: command, word: word.text, choices: T.allCases.map(\.rawValue)), column: word.column)
    }

    static func onOff(_ word: CommandWord, for command: String) throws(CommandError) -> Bool {
        switch word.text {
        case "on": return true
        case "off": return false
        default: throw CommandError(.notOneOf(command: command, word: word.text, choices: ["on", "off"]), column: word.column)
        }
    }

    /// `#RRGGBB` or `#RRGGBBAA`.
    static func colour(_ word: CommandWord, for command: String) throws(CommandError) -> Color {
        let s = Array(word.text.unicodeScalars)
        var value: UInt32 = 0
        guard s.first == "#", s.count == 7 || s.count == 9 else {
            throw CommandError(.badColour(command: command, word: word.text), column: word.column)
        }
        for c in s.dropFirst() {
            guard let d = CommandLexer.hexValue(c) else {
                throw CommandError(.badColour(command: command, word: word.text), column: word.column)
            }
            value = value << 4 | d
        }
        if s.count == 7 { value = value << 8 | 0xFF }
        return Color(r: UInt8(truncatingIfNeeded: value >> 24), g: UInt8(truncatingIfNeeded: value >> 16),
                     b: UInt8(truncatingIfNeeded: value >> 8), a: UInt8(truncatingIfNeeded: value))
    }

    /// A plain decimal's parts, or nil when `text` is not one: `-?(D+(.D*)?|.D+)`.
    static func decimalParts(_ text: String) -> (negative: Bool, whole: Substring, fraction: Substring)? {
        var body = Substring(text)
        let negative = body.first == "-"
        if negative { body = body.dropFirst() }
        let dot = body.firstIndex(of: ".")
        let whole = body[..<(dot ?? body.endIndex)]
        let fraction = dot.map { body[body.index(after: $0)...] } ?? ""
        let isDigits = { (s: Substring) in s.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
        guard isDigits(whole), isDigits(fraction), !(whole.isEmpty && fraction.isEmpty) else { return nil }
        return (negative, whole, fraction)
    }

    /// A decimal number in `limits` (checked before any conversion), as the nearest Fixed16_16.
    static func fixed(_ word: CommandWord, for command: String, in limits: ClosedRange<Double>,
                      range: String) throws(CommandError) -> Fixed16_16 {
        let value = try number(word.text, word: word, for: command)
        guard limits.contains(value) else {
            throw CommandError(.outOfRange(command: command, word: word.text, range: range), column: word.column)
        }
        return Fixed16_16(value)
    }

    /// `text` (part of `word`) as a Double, if it has the plain decimal syntax.
    static func number(_ text: String, word: CommandWord, for command: String) throws(CommandError) -> Double {
        guard decimalParts(text) != nil, let value = Double(text), value.isFinite else {
            throw CommandError(.notANumber(command: command, word: word.text), column: word.column)
        }
        return value
    }

    /// A length in points, 0...2048.
    static func length(_ word: CommandWord, for command: String) throws(CommandError) -> Fixed16_16 {
        try fixed(word, for: command, in: 0...maxLength, range: "0...2048")
    }

    /// A percentage 0...100 as a fraction (psplash's PROGRESS, fbsplash's bare number).
    static func percent(_ word: CommandWord, for command: String) throws(CommandError) -> Fixed16_16 {
        let value = try number(word.text, word: word, for: command)
        guard (0...100).contains(value) else {
            throw CommandError(.outOfRange(command: command, word: word.text, range: "0...100"), column: word.column)
        }
        return Fixed16_16(value / 100)
    }

    /// `A<sep>B`, each a number in `limits`.
    static func pair(_ word: CommandWord, separators: [Character], for command: String, format: String,
                     in limits: ClosedRange<Double>, range: String) throws(CommandError) -> (Fixed16_16, Fixed16_16) {
        let parts = word.text.split(omittingEmptySubsequences: false, whereSeparator: { separators.contains($0) })
        guard parts.count == 2, decimalParts(String(parts[0])) != nil, decimalParts(String(parts[1])) != nil,
              let a = Double(String(parts[0])), let b = Double(String(parts[1])), a.isFinite, b.isFinite else {
            throw CommandError(.badPair(command: command, word: word.text, format: format), column: word.column)
        }
        guard limits.contains(a), limits.contains(b) else {
            throw CommandError(.outOfRange(command: command, word: word.text, range: range), column: word.column)
        }
        return (Fixed16_16(a), Fixed16_16(b))
    }

    /// Non-negative seconds, read exactly to the nanosecond (half up at the tenth decimal).
    static func duration(_ word: CommandWord, for command: String) throws(CommandError) -> Interval {
        if let ns = nanoseconds(word.text) { return Interval(nanoseconds: ns) }
        if decimalParts(word.text) == nil {
            throw CommandError(.notANumber(command: command, word: word.text), column: word.column)
        }
        throw CommandError(.outOfRange(command: command, word: word.text, range: "0...\(maxSeconds)"), column: word.column)
    }

    /// A decimal number of seconds in 0...maxSeconds as nanoseconds, or nil.
    static func nanoseconds(_ text: String) -> Int64? {
        guard let (negative, whole, fraction) = decimalParts(text) else { return nil }
        let significant = whole.drop(while: { $0 == "0" })
        guard significant.count <= 7 else { return nil }
        var ns = (Int64(significant) ?? 0) * 1_000_000_000
        var scale: Int64 = 100_000_000
        for (k, digit) in fraction.unicodeScalars.enumerated() {
            let d = Int64(digit.value - 0x30)
            if k == 9 {
                if d >= 5 { ns += 1 }
                break
            }
            ns += d * scale
            scale /= 10
        }
        if negative && ns != 0 { return nil }
        return ns <= maxSeconds * 1_000_000_000 ? ns : nil
    }
}
