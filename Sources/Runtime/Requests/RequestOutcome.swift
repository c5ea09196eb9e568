// SPDX-License-Identifier: MIT
// What became of a request, for a transport that answers its sender (the control socket, the Swift
// API): applied, or refused with the reason (the HUD changed nothing).
import HUDProtocol

public enum RequestOutcome: Equatable, Sendable {
    case applied
    case refused(String)
}

/// A request and whom to tell what became of it, posted from any thread.
public struct Submission: Sendable {
    public var request: Request
    /// Called on the loop's thread once the request is applied or refused.
    public var completion: (@Sendable (RequestOutcome) -> Void)?

    public init(_ request: Request, completion: (@Sendable (RequestOutcome) -> Void)? = nil) {
        self.request = request; self.completion = completion
    }
}

/// Which requests of one turn's batch a later one makes pointless: a progress value followed at
/// once by another with the same text (the later one alone leaves the HUD, its count and its
/// events exactly as both would). Everything else - shows, images, dismissals, text, settings,
/// service verbs - is applied, in order.
enum RequestCoalescing {
    static func superseded(_ requests: [Request]) -> [Bool] {
        var out = [Bool](repeating: false, count: requests.count)
        guard requests.count > 1 else { return out }
        for i in 0..<(requests.count - 1) { out[i] = replaces(requests[i + 1], requests[i]) }
        return out
    }

    private static func replaces(_ later: Request, _ earlier: Request) -> Bool {
        switch (earlier, later) {
        // Only positive values: 0 counts an activity (SV A3) and a negative one shows the spinner.
        case (.hud(.progress(let a, let s)), .hud(.progress(let b, let t))): return a > .zero && b > .zero && s == t
        case (.progressKeepingStatus(let a), .progressKeepingStatus(let b)): return a > .zero && b > .zero
        default: return false
        }
    }
}
