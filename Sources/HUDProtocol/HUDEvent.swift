// SPDX-License-Identifier: MIT
// Notifications, with the virtual instant they happened at (SV A5, MB B3).

public struct HUDEvent: Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case willAppear = "will-appear"
        case didAppear = "did-appear"
        case willDisappear = "will-disappear"
        case didDisappear = "did-disappear"
        /// MB's completion block and `hudWasHidden:` (always called from `done`).
        case hidden
        /// MB's button was pressed (its action runs); the status is the button's title.
        case buttonPressed = "button"
        /// SV's DidReceiveTouchEvent: a touch went down anywhere while the HUD is visible
        /// (`x`, `y` and `output`: the frame pixel and the output it landed on).
        case touch
        /// SV's DidTouchDownInside: the touch went down on the HUD itself (posted after `touch`).
        case touchInside = "touch-inside"
        /// Escape was pressed while the HUD is visible.
        case cancel
        /// A key press while a client watches keys (`key`: its name; `text`: what it types).
        case key
    }
    public var time: Instant
    public var kind: Kind
    /// The status text at the time (SVProgressHUDStatusUserInfoKey), nil when there is none.
    public var status: String?
    /// What else the event carries, as key/value words in order (a touch's position, a key's name).
    public var details: [Detail]

    public struct Detail: Equatable, Sendable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) { self.key = key; self.value = value }
    }

    public init(time: Instant, kind: Kind, status: String?, details: [Detail] = []) {
        self.time = time; self.kind = kind; self.status = status; self.details = details
    }

    /// The value of detail `key`, nil when the event has none.
    public func detail(_ key: String) -> String? { details.first { $0.key == key }?.value }

    /// `T EVENT STATUS`, T in seconds to the millisecond (the `--events` log line).
    public var description: String {
        "\(format3(time.seconds)) \(kind.rawValue)\(status.map { " " + $0 } ?? "")"
            + details.map { " \($0.key)=\($0.value)" }.joined()
    }
}
