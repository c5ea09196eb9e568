// SPDX-License-Identifier: MIT
// --discovery homeassistant through BridgeCore's fake transports (MQTTBridgeCoreTests.Harness):
// the retained configs before `online` after every CONNACK and on Home Assistant's birth, their
// topics and the keys Home Assistant reads, the update entity's state template, the image
// entity's snapshots every --image-interval while visible, and --remove-discovery. The real
// Home Assistant reads them in HomeAssistantDiscoveryTests.
import CommandLineOptions
import Foundation
import HUDClient
import HUDProtocol
import Images
import Testing
@testable import MQTTBridge

@Suite("splashhud-mqtt's Home Assistant discovery (fake transports)")
struct HomeAssistantDiscoveryUnitTests {
    typealias Harness = MQTTBridgeCoreTests.Harness

    static func json(_ text: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    static func png() throws -> [UInt8] {
        try PNGEncoder.encode(samples: [UInt8](repeating: 200, count: 4 * 4 * 3), width: 4, height: 4, colorType: .rgb)
    }

    @Test func configsRetainedBeforeOnlineAndAgainOnHomeAssistantsBirth() throws {
        let h = try Harness.online(["--discovery", "homeassistant", "--discovery-prefix", "ha/test"])
        let configs = h.broker.published.filter { $0.topic.hasSuffix("/config") }
        #expect(configs.map(\.topic) == [
            "ha/test/sensor/k1/status/config", "ha/test/sensor/k1/progress/config", "ha/test/sensor/k1/mode/config",
            "ha/test/sensor/k1/outputs/config", "ha/test/binary_sensor/k1/visible/config", "ha/test/update/k1/update/config",
            "ha/test/image/k1/screen/config", "ha/test/button/k1/dismiss/config", "ha/test/button/k1/snapshot/config",
        ])
        #expect(configs.allSatisfy { $0.retain && $0.qos == 1 })
        let firstOnline = try #require(h.broker.published.firstIndex { $0.topic == h.topics.status })
        #expect(h.broker.published.lastIndex { $0.topic.hasSuffix("/config") }! < firstOnline)
        #expect(h.broker.subscribed.map(\.topic).contains("ha/test/status"))
        for c in configs {
            let j = try #require(Self.json(c.text), "\(c.topic): \(c.text)")
            #expect(j["availability_topic"] as? String == "splashhud/k1/status")
            #expect((j["unique_id"] as? String)?.hasPrefix("splashhud_k1_") == true)
            let device = try #require(j["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["splashhud_k1"] && device["model"] as? String == "SplashHUD")
        }
        let image = try #require(Self.json(configs[6].text))
        #expect(image["image_topic"] as? String == "splashhud/k1/snapshot" && image["content_type"] as? String == "image/png")
        let dismiss = try #require(Self.json(configs[7].text))
        #expect(dismiss["command_topic"] as? String == "splashhud/k1/cmd" && dismiss["payload_press"] as? String == "dismiss")
        let shot = try #require(Self.json(configs[8].text))
        #expect(shot["command_topic"] as? String == "splashhud/k1/snapshot/get" && shot["payload_press"] as? String == "")
        // Home Assistant restarted: everything again, the state with it.
        let before = h.broker.published.count
        h.broker.events.append(.message(MQTTMessage(topic: "ha/test/status", payload: Array("online".utf8), qos: 1, retained: false,
                                                    packetID: 0, responseTopic: nil, correlationData: nil)))
        h.core.step()
        let again = h.broker.published[before...]
        #expect(again.filter { $0.topic.hasSuffix("/config") }.count == 9)
        #expect(again.last?.topic == h.topics.state)
        // Its `offline` (its will) asks nothing.
        let after = h.broker.published.count
        h.broker.events.append(.message(MQTTMessage(topic: "ha/test/status", payload: Array("offline".utf8), qos: 1, retained: false,
                                                    packetID: 0, responseTopic: nil, correlationData: nil)))
        h.core.step()
        #expect(h.broker.published.count == after)
    }

    @Test func theOptionsAndTheConfigurationFile() throws {
        func parse(_ extra: [String]) throws -> BridgeConfiguration? {
            try BridgeOptions.parse(["--broker", "mqtt://127.0.0.1", "--device", "k1", "--config", "/dev/null"] + extra)
        }
        #expect(try parse([])?.discovery == nil)
        let d = try #require(try parse(["--discovery", "homeassistant", "--image-interval", "30", "--image-max-bytes", "10000"])?.discovery)
        #expect(d.prefix == "homeassistant" && d.imageInterval == .seconds(30) && d.imageMaxBytes == 10_000)
        #expect(try parse(["--discovery", "homeassistant", "--image-interval", "0"])?.discovery?.imageInterval == nil)
        #expect(throws: UsageError.self) { try parse(["--discovery", "homie"]) }
        #expect(throws: UsageError.self) { try parse(["--discovery", "homeassistant", "--discovery-prefix", "ha/#"]) }
        #expect(throws: UsageError.self) { try parse(["--discovery", "homeassistant", "--image-max-bytes", "100"]) }
        let text = "broker = mqtt://127.0.0.1\ndiscovery = homeassistant\ndiscovery-prefix = ha\n"
        let fromFile = try ConfigFile.options(text, spec: BridgeOptions.spec, path: "mqtt.conf")
        #expect(fromFile.map(\.name) == ["broker", "discovery", "discovery-prefix"])
        // A one-shot has no place in the file every start reads.
        #expect(throws: UsageError.self) { try ConfigFile.options("remove-discovery\n", spec: BridgeOptions.spec, path: "mqtt.conf") }
    }

    @Test func withoutTheOptionNothingIsAnnounced() throws {
        let h = try Harness.online()
        #expect(!h.broker.published.contains { $0.topic.hasPrefix("homeassistant/") })
        #expect(!h.broker.subscribed.map(\.topic).contains("homeassistant/status"))
    }

    @Test func aDeviceIdHomeAssistantCannotTakeBecomesItsNodeId() throws {
        let c = try #require(try BridgeOptions.parse(["--broker", "mqtt://127.0.0.1", "--device", "lobby.1 east", "--discovery", "homeassistant",
                                                      "--config", "/dev/null"]))
        let d = HomeAssistantDiscovery(topics: c.topics, settings: try #require(c.discovery), version: "1.0")
        #expect(d.node == "lobby_1_east")
        #expect(d.messages[0].topic == "homeassistant/sensor/lobby_1_east/status/config")
        #expect(Self.json(d.messages[0].payload)?["default_entity_id"] as? String == "sensor.lobby_1_east_status")
    }

    @Test func theUpdateTemplateCarriesOnlyKeysHomeAssistantValidates() throws {
        let c = try #require(try BridgeOptions.parse(["--broker", "mqtt://127.0.0.1", "--device", "k1", "--discovery", "homeassistant", "--config", "/dev/null"]))
        let d = HomeAssistantDiscovery(topics: c.topics, settings: try #require(c.discovery), version: "1.2.3")
        // 2024.11's MQTT_JSON_UPDATE_SCHEMA (homeassistant/components/mqtt/update.py): a plain vol.Schema.
        let schemaKeys: Set<String> = ["installed_version", "latest_version", "title", "release_summary", "release_url", "entity_picture",
                                       "in_progress", "update_percentage"]
        let keys = d.updateTemplate.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            .filter { $0.allSatisfy { $0.isLetter || $0 == "_" } && $0.contains("_") }
        #expect(Set(keys).isSubset(of: schemaKeys), "\(keys)")
        #expect(d.updateTemplate.contains(#""in_progress":{{ 'true' if value_json.visible and value_json.progress is not none else 'false' }}"#))
        #expect(d.updateTemplate.contains(#""update_percentage":{{ (value_json.progress * 100) | round(0) | int if"#))
    }

    @Test func theImageEntityGetsASnapshotEveryIntervalWhileVisible() throws {
        let h = try Harness.online(["--discovery", "homeassistant", "--image-interval", "10", "--image-max-bytes", "8192"])
        #expect(h.daemon.link(owing: "snapshot") == nil, "a hidden HUD is not photographed")
        h.daemon.events.append(.state(link: h.watcher, HUDState(visible: true, mode: "ring", progress: 0.5, status: "Updating", outputs: [])))
        h.core.step()
        let link = try #require(h.daemon.link(owing: "snapshot"))
        h.daemon.answer(snapshot: link, png: try Self.png(), output: "memory")
        h.core.step()
        #expect(h.broker.published.last?.topic == "splashhud/k1/snapshot")
        #expect(h.broker.published.last?.retain == false)
        h.clock.advance(.seconds(9))
        h.core.step()
        #expect(h.daemon.link(owing: "snapshot") == nil)
        h.clock.advance(.seconds(1))
        h.core.step()
        #expect(h.daemon.link(owing: "snapshot") != nil)
        // Hidden: no more.
        h.daemon.answer(snapshot: try #require(h.daemon.link(owing: "snapshot")), png: try Self.png(), output: "memory")
        h.daemon.events.append(.state(link: h.watcher, HUDState(visible: false, mode: "hidden", progress: nil, status: nil, outputs: [])))
        h.core.step()
        h.clock.advance(.seconds(30))
        h.core.step()
        #expect(h.daemon.link(owing: "snapshot") == nil)
    }

    @Test func removeDiscoveryPublishesTheEmptyConfigsAndEndsOnceTheBrokerTookThem() throws {
        let h = try Harness(["--remove-discovery"])
        h.core.start()
        h.core.step()
        #expect(h.daemon.sent.isEmpty, "the daemon is not needed")
        h.broker.events.append(.connected(reasonCode: 0, sessionPresent: false, maximumPacketSize: nil))
        h.core.step()
        let removals = h.broker.published
        #expect(removals.count == 9 && removals.allSatisfy { $0.text.isEmpty && $0.retain && $0.topic.hasPrefix("homeassistant/") })
        #expect(h.broker.subscribed.isEmpty && h.broker.texts(h.topics.status).isEmpty)
        #expect(h.core.removalOutcome(now: h.clock.now) == nil)
        for p in removals { h.broker.events.append(.published(mid: p.mid, reasonCode: 0)) }
        h.core.step()
        #expect(h.core.removalOutcome(now: h.clock.now) == 0)
        #expect(h.core.shutdown() == 0 && h.broker.texts(h.topics.status).isEmpty)
    }

    @Test func removeDiscoveryGivesUpOnABrokerThatNeverAnswers() throws {
        let h = try Harness(["--remove-discovery"])
        h.core.start()
        h.core.step()
        h.clock.advance(BridgeCore.removalTimeout)
        h.core.step()
        #expect(h.core.removalOutcome(now: h.clock.now) == BridgeCore.removalFailedStatus)
    }
}
