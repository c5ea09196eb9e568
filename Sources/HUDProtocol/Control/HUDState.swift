// SPDX-License-Identifier: MIT
// What the HUD is doing now, as `state` replies it (mode `prompt` while a passphrase or question prompt is up): one line of key/value words that the command
// language's lexer splits back (a status with spaces or quotes is quoted as the printer quotes it).
//
//     visible yes mode ring progress 0.4 status "Copying files" outputs Virtual-1:1024x768
//
// Keys may be added in later versions; a reader skips the ones it does not know.
import Raster

public struct HUDState: Equatable, Sendable {
    /// One screen the HUD is on.
    public struct Output: Equatable, Sendable {
        public var name: String
        public var width: Int32
        public var height: Int32
        public init(name: String, width: Int32, height: Int32) { self.name = name; self.width = width; self.height = height }
    }

    /// SV's `isVisible` / MB's shown-or-appearing.
    public var visible: Bool
    /// What the HUD draws: hidden, spinner, activity, ring, pie, annular, bar, image, text.
    public var mode: String
    /// The progress of a ring, pie, annular or bar (0...1); nil for the others.
    public var progress: Double?
    public var status: String?
    public var outputs: [Output]

    public init(visible: Bool, mode: String, progress: Double?, status: String?, outputs: [Output]) {
        self.visible = visible; self.mode = mode; self.progress = progress; self.status = status; self.outputs = outputs
    }

    public var line: String {
        var words = ["visible", visible ? "yes" : "no", "mode", mode]
        if let progress { words += ["progress", Self.format(progress)] }
        if let status { words += ["status", CommandParser.quote(status)] }
        words += ["outputs", outputs.isEmpty ? "none" : outputs.map { "\($0.name):\($0.width)x\($0.height)" }.joined(separator: ",")]
        return words.joined(separator: " ")
    }

    /// A state line read back; nil when it is not one.
    public init?(line: String) {
        guard let words = try? CommandLexer.words(line), words.count % 2 == 0 else { return nil }
        var visible: Bool?, mode: String?, progress: Double?, status: String?, outputs: [Output] = []
        for i in stride(from: 0, to: words.count, by: 2) {
            let value = words[i + 1].text
            switch words[i].text {
            case "visible": visible = value == "yes"
            case "mode": mode = value
            case "progress": progress = Double(value)
            case "status": status = value
            case "outputs":
                guard value != "none" else { continue }
                for item in value.split(separator: ",") {
                    guard let colon = item.lastIndex(of: ":") else { return nil }
                    let size = item[item.index(after: colon)...].split(separator: "x")
                    guard size.count == 2, let w = Int32(size[0]), let h = Int32(size[1]) else { return nil }
                    outputs.append(Output(name: String(item[..<colon]), width: w, height: h))
                }
            default: continue
            }
        }
        guard let visible, let mode else { return nil }
        self.init(visible: visible, mode: mode, progress: progress, status: status, outputs: outputs)
    }

    /// The state as a `subscribe state` subscriber reads it: `event T state` and then the `state`
    /// reply's words. A kind no `HUDEvent` has, so a client that never asked for it would not know
    /// it: only those that ask are sent it.
    public func eventLine(time: Instant) -> String { "event \(format3(time.seconds)) state " + line }

    /// A state event line read back; nil when `line` is not one.
    public init?(eventLine: String) {
        guard eventLine.hasPrefix("event ") else { return nil }
        let words = eventLine.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard words.count == 4, words[2] == "state", Double(words[1]) != nil else { return nil }
        self.init(line: String(words[3]))
    }

    /// Four decimals at most, no trailing zeros (0.4, not 0.4000).
    static func format(_ v: Double) -> String {
        let scaled = Int64((min(max(v, -1000), 1000) * 10_000).rounded())
        return CommandParser.decimalString(scaled, decimals: 4)
    }
}

extension HUDEvent {
    /// The event as a subscriber reads it: `event T KIND ["STATUS"] [KEY VALUE]...`, T in seconds
    /// of HUD time. The status is always quoted, details never start with a quote: an odd number of
    /// words after KIND means the first is the status.
    public var line: String {
        "event \(format3(time.seconds)) \(kind.rawValue)" + (status.map { " " + CommandParser.quote($0) } ?? "")
            + details.map { " " + $0.key + " " + CommandParser.word($0.value) }.joined()
    }

    /// An event line read back; nil when `line` is not one. Unknown kinds are skipped (nil), so a
    /// client keeps working when a later daemon adds one.
    public init?(line: String) {
        guard line.hasPrefix("event "), let words = try? CommandLexer.words(line), words.count >= 3,
              let seconds = Double(words[1].text), let kind = Kind(rawValue: words[2].text) else { return nil }
        var rest = words.dropFirst(3)
        var status: String?
        if rest.count % 2 == 1 { status = rest.removeFirst().text }
        var details: [Detail] = []
        while rest.count >= 2 {
            details.append(Detail(rest.removeFirst().text, rest.removeFirst().text))
        }
        self.init(time: .seconds(seconds), kind: kind, status: status, details: details)
    }
}
