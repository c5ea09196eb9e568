// SPDX-License-Identifier: MIT
// RAUC's installer (`de.pengutronix.rauc.Installer`, 1.8 on) as one bar (src/service.c, install.c,
// context.c):
// - `Operation` goes "idle" → "installing" when an install is asked for, back to "idle" after
//   `Completed`; `LastError` is emptied when one starts and set before `Completed` when it fails.
// - `Progress` (percentage, message, nesting depth) comes from nested steps; the root step reaches
//   100 with "Installing done." and with "Installing failed." alike, so 100 % can be a failure:
//   the bar holds at 99 until `Completed` (0 success, anything else failure) ends it.
// The bar never goes back within one install; its text is RAUC's message for the step under way.

/// What RAUC's installer said, as the D-Bus source reads it.
public enum RAUCEvent: Equatable, Sendable {
    case operation(String)
    case progress(percent: Int32, message: String, depth: Int32)
    case lastError(String)
    /// `Completed(result)`, with `LastError` as read when it came (nil: it could not be read).
    case completed(result: Int32, lastError: String?)
}

public struct RAUCProgress: Sendable {
    public private(set) var percent = 0
    public private(set) var status = ""
    public private(set) var active = false
    private var lastError = ""

    public init() {}

    /// What the HUD should show after `event`; nil when it changes nothing there.
    public mutating func view(for event: RAUCEvent) -> UpdateView? {
        switch event {
        case .operation(let operation):
            guard operation == "installing", !active else { return nil }
            begin()
            return .progress(percent: 0, status: status)
        case .progress(let p, let message, let depth):
            if !active { begin() }
            // The root step (depth 1: "Installing") keeps "Installing update"; a step's end
            // ("Copying image to rootfs.1 done.") keeps the text of what goes on after it.
            let text = message.trimmingSpaces
            let failed = text.hasSuffix(" failed.")
            if depth >= 2, !text.isEmpty, !text.hasSuffix(" done."), !failed { status = text }
            // A failed step's percentage is none of the update's ("Installing failed." is 100).
            if !failed { percent = max(percent, min(Int(p), 99)) }
            return .progress(percent: percent, status: status)
        case .lastError(let error):
            lastError = error
            return nil
        case .completed(let result, let error):
            active = false
            if result == 0 { return .succeeded(status: "Update installed") }
            return .failed(reason: FailureReason.bounded([error ?? lastError]) ?? "The update failed")
        }
    }

    private mutating func begin() {
        active = true
        percent = 0
        status = "Installing update"
        lastError = ""
    }
}
