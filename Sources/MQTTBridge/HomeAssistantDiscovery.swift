// SPDX-License-Identifier: MIT
// Home Assistant MQTT discovery (--discovery homeassistant, docs/home-assistant.md): one retained
// config per entity on PREFIX/COMPONENT/NODE/OBJECT/config, each with the same device block, so
// that every kiosk shows up as one device. Per-entity messages rather than Home Assistant's
// one-message device discovery: every release takes them, the device form only 2024.11 and later.
//
// Nothing here is published state of its own: the entities read the bridge's retained state and
// status (their templates pick the fields), the image entity the snapshot topic, the buttons write
// the command and snapshot-request topics. Removal is an empty retained payload on each topic.
import HUDProtocol

/// What --discovery asks for.
struct DiscoveryConfiguration: Equatable, Sendable {
    /// The first topic level Home Assistant listens on (its own option of that name).
    var prefix = "homeassistant"
    /// A snapshot for the image entity this often while the HUD is visible; nil: only on request.
    var imageInterval: Interval?
    /// The largest PNG the image entity is sent (a larger one is halved until it fits).
    var imageMaxBytes: UInt32 = 65_536
}

/// One entity's retained config.
struct DiscoveryMessage: Equatable, Sendable {
    var topic: String
    var payload: String
}

struct HomeAssistantDiscovery {
    let topics: Topics
    let settings: DiscoveryConfiguration
    let version: String

    /// The topic level Home Assistant accepts for node and object ids ([a-zA-Z0-9_-]+): the device
    /// id with anything else as `_`.
    var node: String {
        String(String.UnicodeScalarView(topics.device.unicodeScalars.map { u in
            (("0"..."9").contains(u) || ("a"..."z").contains(u) || ("A"..."Z").contains(u) || u == "_" || u == "-") ? u : "_"
        }))
    }

    /// (component, object id) of every entity, in the order they are published.
    static let entities: [(component: String, object: String)] = [
        ("sensor", "status"), ("sensor", "progress"), ("sensor", "mode"), ("sensor", "outputs"),
        ("binary_sensor", "visible"), ("update", "update"), ("image", "screen"),
        ("button", "dismiss"), ("button", "snapshot"),
    ]

    func configTopic(_ component: String, _ object: String) -> String { "\(settings.prefix)/\(component)/\(node)/\(object)/config" }

    /// Home Assistant's birth topic: it publishes `online` there when it starts.
    var birthTopic: String { "\(settings.prefix)/status" }

    /// Every entity's config.
    var messages: [DiscoveryMessage] {
        Self.entities.map { DiscoveryMessage(topic: configTopic($0.component, $0.object), payload: config($0.component, $0.object)) }
    }

    /// The empty retained payloads that remove every entity.
    var removals: [DiscoveryMessage] { Self.entities.map { DiscoveryMessage(topic: configTopic($0.component, $0.object), payload: "") } }

    private func config(_ component: String, _ object: String) -> String {
        let q = JSONText.string
        // Both ways of naming the entity id: `object_id` for the older releases (their schemas
        // drop unknown keys); `default_entity_id` for the newest, which deprecate the first.
        var fields: [String] = [
            #""name":\#(q(Self.names[object] ?? object))"#,
            #""unique_id":\#(q("splashhud_\(node)_\(object)"))"#,
            #""object_id":\#(q("\(node)_\(object)"))"#,
            #""default_entity_id":\#(q("\(component).\(String(node.lowercased().map { $0 == "-" ? "_" : $0 }))_\(object)"))"#,
            #""availability_topic":\#(q(topics.status))"#,
            #""qos":1"#,
        ]
        fields += entityFields(object).map { "\(q($0.0)):\($0.1)" }
        fields.append(#""device":{"identifiers":[\#(q("splashhud_\(node)"))],"name":\#(q(topics.device)),"manufacturer":"SplashHUD","#
            + #""model":"SplashHUD","sw_version":\#(q(version))}"#)
        fields.append(#""origin":{"name":"splashhud-mqtt","sw_version":\#(q(version))}"#)
        return "{" + fields.joined(separator: ",") + "}"
    }

    static let names = [
        "status": "Status", "progress": "Progress", "mode": "Mode", "outputs": "Outputs", "visible": "HUD visible",
        "update": "Update on the HUD", "screen": "Screen", "dismiss": "Dismiss", "snapshot": "Snapshot now",
    ]

    /// The keys particular to each entity, values as JSON.
    private func entityFields(_ object: String) -> [(String, String)] {
        let q = JSONText.string
        let state = ("state_topic", q(topics.state))
        // A state longer than 255 characters is refused by Home Assistant; `None` is its unknown.
        switch object {
        case "status":
            return [state, ("value_template", q("{{ value_json.status[:255] if value_json.status is not none else 'None' }}")), ("icon", q("mdi:message-text"))]
        case "progress":
            return [state, ("value_template", q("{{ (value_json.progress * 100) | round(1) if value_json.progress is not none else 'None' }}")),
                    ("unit_of_measurement", q("%")), ("state_class", q("measurement")), ("icon", q("mdi:progress-helper"))]
        case "mode":
            return [state, ("value_template", q("{{ value_json.mode }}")), ("icon", q("mdi:monitor-dashboard"))]
        case "outputs":
            return [state, ("value_template", q("{{ (value_json.outputs | map(attribute='name') | join(', '))[:255] }}")),
                    ("entity_category", q("diagnostic")), ("icon", q("mdi:monitor-multiple"))]
        case "visible":
            return [state, ("value_template", q("{{ 'ON' if value_json.visible else 'OFF' }}"))]
        case "update":
            return [state, ("value_template", q(updateTemplate)), ("device_class", q("firmware"))]
        case "screen":
            return [("image_topic", q(topics.snapshot)), ("content_type", q("image/png"))]
        case "dismiss":
            return [("command_topic", q(topics.command)), ("payload_press", q("dismiss")), ("icon", q("mdi:close-box"))]
        case "snapshot":
            // An empty request: the first output's PNG goes to the snapshot topic, the image's.
            return [("command_topic", q(topics.snapshotRequest)), ("payload_press", q("")), ("icon", q("mdi:camera")),
                    ("entity_category", q("diagnostic"))]
        default:
            return []
        }
    }

    /// The update entity's JSON state, made by Home Assistant from ours: an update runs while the
    /// HUD is visible with a progress. Its versions are the bridge's (no other is known here),
    /// equal, so the entity is `off` (up to date) and only its progress moves. Home Assistant
    /// 2024.11 and later validate this JSON strictly (an unknown key, or a number for
    /// `in_progress`, drops it) and read the percentage from `update_percentage`; earlier releases
    /// read only the versions and the title and ignore the rest (their MQTT update entity has no
    /// progress: 2024.3.3's and 2024.10.4's update.py), so one form serves every release.
    var updateTemplate: String {
        let v = JSONText.string(version)
        let running = "value_json.visible and value_json.progress is not none"
        let percent = "(value_json.progress * 100) | round(0) | int"
        return #"{"installed_version":\#(v),"latest_version":\#(v),"title":"SplashHUD","#
            + #""in_progress":{{ 'true' if \#(running) else 'false' }},"update_percentage":{{ \#(percent) if \#(running) else 'null' }}}"#
    }
}
