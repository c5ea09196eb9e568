// SPDX-License-Identifier: MIT
// What Debian's systemd-fsckd (systemd 252, debian/patches: fsckd.c) writes to Plymouth's socket
// while file systems are checked, as plymouthd 22.02 passes it to its theme: an update
// `fsckd:DEVICES:PERCENT:TEXT` at every change ("%d:%3.1f:%s"; TEXT is systemd's translated
// "Checking in progress on 1 disks (37.2% complete)"; DEVICES 0 when the last check ended), a
// message `fsckd-cancel-msg:TEXT` (how to cancel: "Press Ctrl+C ...") with a keystroke watch for
// Ctrl+C (0x03) before the first update, and an empty message that clears it at the end.

/// One `fsckd:` update.
public struct FsckdUpdate: Equatable, Sendable {
    public static let prefix = "fsckd:"
    /// The message prefix of fsckd's cancel hint.
    public static let cancelHintPrefix = "fsckd-cancel-msg:"

    /// Devices being checked; 0 once the last one is done.
    public var devices: Int
    /// The least complete check's percentage, 0...100.
    public var percent: Double
    /// systemd's sentence for people (may be translated).
    public var text: String

    public init(devices: Int, percent: Double, text: String) {
        self.devices = devices; self.percent = percent; self.text = text
    }

    /// `status` parsed; nil when it is no fsckd update (systemd's unit names) or a malformed one.
    public init?(status: String) {
        guard status.hasPrefix(Self.prefix) else { return nil }
        let fields = status.dropFirst(Self.prefix.count).split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, let devices = Int(fields[0]), devices >= 0,
              let percent = Double(fields[1]), percent.isFinite else { return nil }
        self.devices = devices
        self.percent = min(max(percent, 0), 100)
        text = String(fields[2])
    }

    /// The hint in a `fsckd-cancel-msg:` message, nil for any other message.
    public static func cancelHint(inMessage message: String) -> String? {
        message.hasPrefix(cancelHintPrefix) ? String(message.dropFirst(cancelHintPrefix.count).drop { $0 == " " }) : nil
    }
}
