// SPDX-License-Identifier: MIT
// What crosses between the bridge's threads: jobs for the daemon (in the order they arrived from
// the broker) and what goes back out to the broker.
import HUDProtocol

/// Where a request's answer goes: the MQTT 5 response topic with its correlation data, or (3.1.1,
/// or a request that named none) the device's reply or snapshot topic.
struct ReplyRoute: Equatable, Sendable {
    var topic: String
    var correlationData: [UInt8]?
}

enum Job: Sendable {
    /// A line for the control socket (already through the gate).
    case command(String, ReplyRoute)
    /// `snapshot [OUTPUT]`, fitted into `budget` bytes of payload.
    case snapshot(output: String?, route: ReplyRoute, budget: Int)
}

enum Outgoing: Sendable {
    case reply(ReplyRoute, String)
    /// The state JSON, and when the `state` request that read it was sent (a later ask wins).
    case state(String, asked: Instant)
    case event(String)
    case snapshot(ReplyRoute, FittedSnapshot, output: String)

    var isState: Bool { if case .state = self { return true } else { return false } }
}
