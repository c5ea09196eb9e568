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
    }
    public var time: Instant
    public var kind: Kind
    /// The status text at the time (SVProgressHUDStatusUserInfoKey), nil when there is none.
    public var status: String?
    public init(time: Instant, kind: Kind, status: String?) { self.time = time; self.kind = kind; self.status = status }
    /// `T EVENT STATUS`, T in seconds to the millisecond (the `--events` log line).
    public var description: String { "\(format3(time.seconds)) \(kind.rawValue)\(status.map { " " + $0 } ?? "")" }
}
