// SPDX-License-Identifier: MIT
// The bridge's topics under PREFIX/DEVICE (docs/fleet.md has the reference):
//
//     P/DEVICE/cmd             ← one line of the command language (QoS 1, never retained)
//     P/group/GROUP/cmd        ← the same, for every bridge in GROUP
//     P/DEVICE/reply           → replies to requests that named no response topic (3.1.1)
//     P/DEVICE/state           → retained JSON of the HUD's state
//     P/DEVICE/event           → one JSON object per HUD event
//     P/DEVICE/snapshot/get    ← a snapshot request (payload: an output name or empty)
//     P/DEVICE/snapshot        → the PNG, when the request named no response topic
//     P/DEVICE/status          → retained `online`; `offline` as the last will and on a clean exit

struct Topics: Equatable, Sendable {
    let prefix: String
    let device: String
    let groups: [String]

    var command: String { "\(prefix)/\(device)/cmd" }
    var reply: String { "\(prefix)/\(device)/reply" }
    var state: String { "\(prefix)/\(device)/state" }
    var event: String { "\(prefix)/\(device)/event" }
    var snapshotRequest: String { "\(prefix)/\(device)/snapshot/get" }
    var snapshot: String { "\(prefix)/\(device)/snapshot" }
    var status: String { "\(prefix)/\(device)/status" }
    func groupCommand(_ group: String) -> String { "\(prefix)/group/\(group)/cmd" }

    /// What the bridge subscribes to (QoS 1 each).
    var subscriptions: [String] { [command, snapshotRequest] + groups.map(groupCommand) }

    enum Inbound: Equatable { case command(group: String?), snapshotRequest }

    /// Which of our subscriptions `topic` is; nil for anything else (a broker may deliver more).
    func classify(_ topic: String) -> Inbound? {
        if topic == command { return .command(group: nil) }
        if topic == snapshotRequest { return .snapshotRequest }
        for g in groups where topic == groupCommand(g) { return .command(group: g) }
        return nil
    }

    /// A topic level (device or group name, prefix level) must be non-empty UTF-8 without the
    /// wildcards, the separator or NUL, so that it names one topic and cannot widen a subscription.
    static func isValidLevel(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 128 && !s.contains { $0 == "+" || $0 == "#" || $0 == "/" || $0 == "\0" }
    }

    /// A prefix: levels separated by `/`, each valid.
    static func isValidPrefix(_ s: String) -> Bool {
        !s.isEmpty && s.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { isValidLevel(String($0)) }
    }
}

extension Topics {
    /// A topic we may publish to (a request's response topic): no wildcards, no NUL, not empty,
    /// at most 65,535 bytes.
    static func isValidPublishTopic(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 65535 && !s.contains { $0 == "+" || $0 == "#" || $0 == "\0" }
    }
}
