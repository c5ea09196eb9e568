// SPDX-License-Identifier: MIT
// Home Assistant discovery as the state machine runs it: the retained configs after every CONNACK
// and again when Home Assistant says it has started (its birth message: one started without the
// broker's retained messages, or whose broker lost them, learns the kiosk again); the image
// entity's snapshots every --image-interval while the HUD is visible; and --remove-discovery,
// which publishes the empty configs, waits for the broker to take each (QoS 1), and ends.
import HUDProtocol

/// The discovery side's own state.
struct DiscoveryState {
    /// When the image entity's next snapshot is due (only while the HUD is visible).
    var nextImage: Instant?
    /// --remove-discovery: the removals the broker has not acknowledged yet.
    var removalsOwed: Set<Int32> = []
    var removalsSent = false
    /// --remove-discovery gives up when the broker has not taken them by then.
    var removalDeadline: Instant?
}

extension BridgeCore {
    /// How long --remove-discovery waits for the broker, from the start.
    static let removalTimeout = Interval.seconds(15)
    /// The exit status when it could not (sysexits' EX_UNAVAILABLE).
    static let removalFailedStatus: Int32 = 69

    /// The configs, retained, QoS 1.
    func publishDiscovery() {
        guard let discovery, phase == .connected, !configuration.removeDiscovery else { return }
        for m in discovery.messages {
            do { _ = try mqtt.publish(m.topic, Array(m.payload.utf8), qos: 1, retain: true, properties: nil) } catch { log("discovery: \(error)") }
        }
    }

    /// Home Assistant's `online` on its status topic: the configs and the state again (its own
    /// advice to integrations). True when `m` was that topic's.
    func birth(_ m: MQTTMessage, now: Instant) -> Bool {
        guard let discovery, m.topic == discovery.birthTopic else { return false }
        if m.payload == Array(Self.online.utf8) {
            publishDiscovery()
            publishState(now: now)
        }
        return true
    }

    // MARK: The image entity

    /// The HUD's visibility changed: a visible HUD gets its first snapshot at once, then one every
    /// interval; a hidden one none.
    func imageFollows(visible: Bool, now: Instant) {
        guard discovery?.settings.imageInterval != nil else { return }
        if !visible { discoveryState.nextImage = nil } else if discoveryState.nextImage == nil { discoveryState.nextImage = now }
    }

    func imageTimers(now: Instant) {
        guard let interval = discovery?.settings.imageInterval, let due = discoveryState.nextImage, now >= due else { return }
        discoveryState.nextImage = now + interval
        guard phase == .connected, let discovery else { return }
        // The snapshot topic is the image's; a failure goes to the reply topic as any request's.
        let route = ReplyRoute(topic: configuration.topics.snapshot, correlationData: nil)
        let budget = min(Int(packetLimit) - Self.snapshotOverhead(route), Int(discovery.settings.imageMaxBytes))
        let line = ControlRequest.snapshot(output: nil).description
        submit(line, Pending(kind: .snapshot(route: route, errorRoute: ReplyRoute(topic: configuration.topics.reply, correlationData: nil), budget: budget),
                             timeout: Self.requestTimeout), holds: true, errorRoute: route, now: now)
    }

    // MARK: --remove-discovery

    func sendRemovals() {
        guard let discovery, !discoveryState.removalsSent else { return }
        do {
            for m in discovery.removals {
                discoveryState.removalsOwed.insert(try mqtt.publish(m.topic, [], qos: 1, retain: true, properties: nil))
            }
            discoveryState.removalsSent = true
            log("removing \(discovery.removals.count) Home Assistant entities under \(discovery.settings.prefix)/+/\(discovery.node)")
        } catch { log("removal: \(error)") }
    }

    func removalAcknowledged(_ mid: Int32) {
        discoveryState.removalsOwed.remove(mid)
    }

    /// --remove-discovery's exit status once it is over (every removal acknowledged, or too late).
    func removalOutcome(now: Instant) -> Int32? {
        guard configuration.removeDiscovery else { return nil }
        if discoveryState.removalsSent, discoveryState.removalsOwed.isEmpty { return 0 }
        if let deadline = discoveryState.removalDeadline, now >= deadline {
            log("could not remove the Home Assistant entities: \(configuration.broker.url) did not take them in \(Int64(Self.removalTimeout.seconds)) s")
            return Self.removalFailedStatus
        }
        return nil
    }
}
