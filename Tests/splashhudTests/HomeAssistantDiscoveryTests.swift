// SPDX-License-Identifier: MIT
// --discovery homeassistant read by a real Home Assistant core (2024.3.3, the newest that runs on
// Debian 12's Python 3.11; scripts/home-assistant.sh installs it) with its MQTT integration on
// the test's Mosquitto, beside a real daemon on a memory display and the real bridge: the
// entities appear through HA's REST API on one device with the daemon's state, follow a progress
// from 0 to 100 %, the image entity gets snapshots while the HUD is visible, the dismiss button
// hides the HUD, and --remove-discovery takes every entity away. 2024.3.3's MQTT update entity
// reads no progress (its update.py reads versions and title only); the keys 2024.11 validates are
// checked in HomeAssistantDiscoveryUnitTests. scripts/home-assistant.py is the test's HTTP side.
import Foundation
import HUDClient
import HUDProtocol
import Testing

@Suite("splashhud-mqtt's discovery in a real Home Assistant", .serialized)
struct HomeAssistantDiscoveryTests {
    typealias Bridge = MQTTBridgeTests.BridgeProcess

    static let venv = ProcessInfo.processInfo.environment["SPLASHHUD_HASS_VENV"] ?? "/opt/splashhud-test/hass"
    static var installed: Bool { FileManager.default.isExecutableFile(atPath: "\(venv)/bin/hass") }
    static var helper: String { URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../scripts/home-assistant.py").standardized.path }

    /// One Home Assistant core, its configuration in a fresh directory, its log in DIR/hass.log.
    final class HomeAssistant: @unchecked Sendable {
        let dir: String
        let url: String
        let process = Process()
        private(set) var token = ""

        init(_ broker: MosquittoBroker) throws {
            dir = try temporaryDirectory("hass")
            let port = try freePort()
            url = "http://127.0.0.1:\(port)"
            try HomeAssistant.helper(["prepare", dir, "\(broker.port)", MosquittoBroker.user, MosquittoBroker.password, "\(port)"])
            process.executableURL = URL(fileURLWithPath: "\(HomeAssistantDiscoveryTests.venv)/bin/hass")
            // --skip-pip: everything it needs is in the venv; it never downloads at start.
            process.arguments = ["-c", dir, "--skip-pip"]
            _ = FileManager.default.createFile(atPath: "\(dir)/hass.log", contents: nil)
            let log = FileHandle(forWritingAtPath: "\(dir)/hass.log")
            process.standardOutput = log
            process.standardError = log
            try process.run()
        }

        /// Its directory goes too: the failures quote its log first.
        deinit {
            end()
            try? FileManager.default.removeItem(atPath: dir)
        }

        func end() {
            guard process.isRunning else { return }
            process.terminate()
            let deadline = Date() + 10
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        var log: String { (try? String(contentsOfFile: "\(dir)/hass.log", encoding: .utf8)) ?? "" }

        @discardableResult
        static func helper(_ arguments: [String]) throws -> String {
            let (status, output) = try SplashBinary.run("\(HomeAssistantDiscoveryTests.venv)/bin/python3", [HomeAssistantDiscoveryTests.helper] + arguments, timeout: 30)
            guard status == 0 else { throw HelperFailed(text: output) }
            return output
        }

        struct HelperFailed: Error { var text: String }

        /// Waits until its HTTP API gives a login a token; false after `seconds`.
        func login(seconds: Double) -> Bool {
            let deadline = Date() + seconds
            while Date() < deadline, process.isRunning {
                if let t = try? Self.helper(["token", url]) { token = t.trimmingCharacters(in: .whitespacesAndNewlines); return true }
                Thread.sleep(forTimeInterval: 0.2)
            }
            return false
        }

        /// entity id → (state, attributes).
        func states() -> [String: (state: String, attributes: [String: Any])] {
            guard let text = try? Self.helper(["states", url, token]),
                  let list = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else { return [:] }
            var out: [String: (state: String, attributes: [String: Any])] = [:]
            for s in list {
                if let id = s["entity_id"] as? String { out[id] = (s["state"] as? String ?? "", s["attributes"] as? [String: Any] ?? [:]) }
            }
            return out
        }

        func press(_ entity: String) throws { try Self.helper(["press", url, token, entity]) }

        /// The update entity's state JSON from `state` by `config`'s template, as 2024.11 takes it.
        static func updateState(config: String, state: String) throws -> [String: Any] {
            let text = try helper(["update-state", config, state])
            return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        }
    }

    static let entities = ["sensor.kiosk_1_status", "sensor.kiosk_1_progress", "sensor.kiosk_1_mode", "sensor.kiosk_1_outputs",
                           "binary_sensor.kiosk_1_visible", "update.kiosk_1_update", "image.kiosk_1_screen",
                           "button.kiosk_1_dismiss", "button.kiosk_1_snapshot"]

    @Test(.enabled(if: installed, "no Home Assistant core at \(venv) (scripts/home-assistant.sh installs it)"))
    func entitiesAppearFollowTheHUDAndGoAwayWhenRemoved() throws {
        let broker = try MosquittoBroker(maxPacketSize: 262_144)
        let d = try MQTTBridgeTests.startDaemon("320x200")
        defer { d.end() }
        let bridge = try Bridge(broker, daemon: d, device: "kiosk-1", extra: ["--discovery", "homeassistant", "--image-interval", "1"])
        defer { bridge.end() }
        #expect(bridge.waitForLog("online at"), "\(bridge.log)")

        let started = Date()
        let ha = try HomeAssistant(broker)
        defer { ha.end() }
        #expect(ha.login(seconds: 90), "Home Assistant's API did not answer: \(ha.log.suffix(3000))")
        print("HomeAssistantDiscoveryTests: Home Assistant answered after \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        func until(_ what: String, seconds: Double = 20, _ condition: ([String: (state: String, attributes: [String: Any])]) -> Bool) {
            var last: [String: (state: String, attributes: [String: Any])] = [:]
            let ok = MQTTBridgeTests.eventually(seconds: seconds) { last = ha.states(); return condition(last) }
            #expect(ok, "\(what): \(Self.entities.map { "\($0)=\(last[$0]?.state ?? "absent")" }) \(ha.log.suffix(2000))")
        }

        // Every entity, from the retained configs and state; the HUD hidden.
        until("the entities of a hidden HUD") { s in
            Self.entities.allSatisfy { s[$0] != nil } && s["binary_sensor.kiosk_1_visible"]?.state == "off"
                && s["sensor.kiosk_1_mode"]?.state == "hidden" && s["sensor.kiosk_1_outputs"]?.state == "memory"
        }
        let update = ha.states()["update.kiosk_1_update"]
        #expect(update?.state == "off" && update?.attributes["installed_version"] as? String == SplashHUDVersion.current, "\(String(describing: update))")
        #expect(update?.attributes["in_progress"] as? Bool == false)

        // A progress from 0 to 100 %; the update entity's state from each retained state as
        // 2024.11 would take it (the template's keys and values against its schema).
        let updateConfig = try broker.subscribe(["-t", "homeassistant/update/kiosk-1/update/config"], count: 1)
        func updateState() throws -> [String: Any] {
            let state = try broker.subscribe(["-t", "splashhud/kiosk-1/state"], count: 1)
            return try HomeAssistant.updateState(config: updateConfig, state: state)
        }
        let idle = try updateState()
        #expect(idle["in_progress"] as? Bool == false && idle["update_percentage"] is NSNull, "\(idle)")
        let control = try ControlClient(socket: d.socket, timeoutMilliseconds: 5000)
        for p in [0, 25, 50, 75, 100] {
            _ = try control.request("progress \(Double(p) / 100) \"Installing \(p)\"")
            until("progress \(p) %") { s in
                s["sensor.kiosk_1_progress"]?.state == "\(p).0" && s["sensor.kiosk_1_status"]?.state == "Installing \(p)"
                    && s["binary_sensor.kiosk_1_visible"]?.state == "on"
            }
            let running = try updateState()
            #expect(running["in_progress"] as? Bool == true && running["update_percentage"] as? Int == p, "\(running)")
        }
        let mode = try #require(try MQTTBridgeTests.state(d)).mode
        #expect(ha.states()["sensor.kiosk_1_mode"]?.state == mode)
        // Snapshots every second while visible: the image entity has one (its state is when).
        until("a snapshot in the image entity") { s in (s["image.kiosk_1_screen"]?.state ?? "unknown") != "unknown" }

        // The dismiss button hides the HUD.
        try ha.press("button.kiosk_1_dismiss")
        until("dismissed") { s in s["binary_sensor.kiosk_1_visible"]?.state == "off" }

        // --remove-discovery: every entity gone.
        let remover = try Bridge(broker, daemon: d, device: "kiosk-1-remove", extra: ["--device", "kiosk-1", "--remove-discovery"])
        #expect(MQTTBridgeTests.eventually(seconds: 20) { !remover.process.isRunning }, "\(remover.log)")
        #expect(remover.process.terminationStatus == 0, "\(remover.log)")
        until("removed") { s in Self.entities.allSatisfy { s[$0] == nil } }
    }
}
