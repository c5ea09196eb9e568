// SPDX-License-Identifier: MIT
// splashhud-mqtt connecting to brokers that do not simply say yes, with the real Mosquitto behind
// a TCPRelay: one that speaks only MQTT 3.1.1 (the bridge falls back from MQTT 5) and one that
// never answers the CONNECT (libmosquitto gives up on it after a keepalive, the bridge says so and
// tries again; the bridge's own bound, max(10 s, keepalive), is for the case libmosquitto misses).
//
// Debian 12's Mosquitto (2.0.11) speaks MQTT 5 and has no setting that refuses it (its listener's
// `protocol` chooses between mqtt and websockets; a plugin's refusal is "not authorized", 0x87, not
// a version refusal), so the refusal is the relay's, worded as a 3.1.1-only broker words it (a
// 3.1.1 CONNACK, return code 1). Everything after it, the 3.1.1 session included, is the real
// broker's. BridgeCore's side of both is in MQTTBridgeCoreTests.
import Foundation
import HUDClient
import Testing

@Suite("splashhud-mqtt: a broker without MQTT 5, a broker that never answers", .serialized)
struct MQTTBridgeConnectTests {
    typealias BridgeProcess = MQTTBridgeTests.BridgeProcess

    @Test func aBrokerThatRefusesMQTT5IsUsedInMQTT311() throws {
        let broker = try MosquittoBroker()
        let relay = try TCPRelay(to: broker.port)
        relay.send("refuse-v5")
        let d = try MQTTBridgeTests.startDaemon()
        defer { d.end() }
        let b = try BridgeProcess(broker, daemon: d, device: "old", url: "mqtt://127.0.0.1:\(relay.port)")
        defer { b.end() }
        #expect(b.waitForLog("online at", seconds: 15), "\(b.log)\n\(relay.lines)")
        #expect(relay.lines.contains("refused v5"), "\(relay.lines)")
        #expect(b.log.contains("mqtt://127.0.0.1:\(relay.port) refused MQTT 5; using MQTT 3.1.1"), "\(b.log)")
        #expect(b.log.contains("online at mqtt://127.0.0.1:\(relay.port) (MQTT 3.1.1)"), "\(b.log)")

        // Commands over 3.1.1 (no response topic: the reply goes to P/DEVICE/reply).
        let replies = try LiveSubscriber(broker, topics: ["splashhud/old/reply"], format: "%p", version: "mqttv311")
        try broker.publish(["-V", "mqttv311", "-q", "1", "-t", "splashhud/old/cmd", "-m", "ping"])
        #expect(replies.waitFor(seconds: 5) { $0.contains("ok pong") }, "\(replies.lines)")
        // It read its own online back (3.1.1 cannot say it was refused): no error 5 s on.
        #expect(try broker.subscribe(["-t", "splashhud/old/status"], count: 1) == "online\n")
        Thread.sleep(forTimeInterval: 5.5)
        #expect(!b.log.contains("did not come back"), "\(b.log)")
    }

    @Test func aBrokerThatNeverSendsCONNACKIsTriedAgain() throws {
        let broker = try MosquittoBroker()
        let relay = try TCPRelay(to: broker.port)
        relay.send("silent")
        let d = try MQTTBridgeTests.startDaemon()
        defer { d.end() }
        let started = Date()
        let b = try BridgeProcess(broker, daemon: d, device: "hung", url: "mqtt://127.0.0.1:\(relay.port)")
        defer { b.end() }
        #expect(relay.wait(seconds: 10) { $0.contains("accepted") }, "\(b.log)")
        // The next connection is passed to the broker; the first stays open and unanswered.
        relay.send("heal")
        #expect(b.waitForLog("no CONNACK from mqtt://127.0.0.1:\(relay.port) (", seconds: 15), "\(b.log)")
        // After a keepalive (--keepalive 5) without an answer.
        #expect(Date().timeIntervalSince(started) >= 4.5)
        #expect(b.waitForLog("online at", seconds: 10), "\(b.log)")
        #expect(relay.accepted == 2, "\(relay.lines)")
        let (s, reply) = try SplashBinary.run("/usr/bin/mosquitto_rr", broker.auth + ["-V", "mqttv5", "-t", "splashhud/hung/cmd", "-e", "ops/hung", "-m", "ping", "-W", "5"], timeout: 10)
        #expect(s == 0 && reply == "ok pong\n", "\(reply)")
    }
}
