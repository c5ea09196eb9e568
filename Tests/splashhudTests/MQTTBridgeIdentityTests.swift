// SPDX-License-Identifier: MIT
// One ACL for a fleet, against a real Mosquitto holding 1,000 kiosk accounts: each kiosk's user
// name is its device id (the bridge's device id defaults to --username), so the one line
// `pattern readwrite splashhud/%u/#` grants every kiosk its own topics and none of another's;
// groups and the operators' response topics are one line each, for the whole fleet. A kiosk whose
// device id is not its user name is refused by that ACL: over MQTT 5 the bridge says so at start
// and exits 77 rather than run deaf; over 3.1.1, which cannot say, it reads its own `online` back
// and says so when that does not come.
import Foundation
import HUDClient
import HUDProtocol
import Testing

@Suite("splashhud-mqtt: one ACL line for a thousand kiosks", .serialized)
struct MQTTBridgeIdentityTests {
    typealias BridgeProcess = MQTTBridgeTests.BridgeProcess

    /// docs/fleet.md's ACL, as written there.
    static let acl = """
        # every kiosk: its own topics, by its user name
        pattern readwrite splashhud/%u/#
        # every kiosk: the groups' commands (which groups it follows is its own --group)
        pattern read splashhud/group/+/cmd
        # every kiosk: MQTT 5 replies to the operators' response topics
        pattern write ops/#

        user fleet
        topic readwrite splashhud/#
        topic readwrite ops/#

        """

    @Test func oneACLServesAThousandKiosksAndAMismatchIsAClearErrorAtStart() throws {
        let kiosks = (1...1000).map { "kiosk-" + String(repeating: "0", count: 4 - String($0).count) + String($0) }
        let broker = try MosquittoBroker(accounts: kiosks, acl: Self.acl)
        let d = try MQTTBridgeTests.startDaemon()
        defer { d.end() }

        // No --device: the user name is the device id, and the ACL's one line lets it in.
        let b = try BridgeProcess(broker, daemon: d, device: nil, user: "kiosk-0042", extra: ["--group", "lobby"])
        defer { b.end(signal: SIGKILL) }
        #expect(b.waitForLog("online at"), "\(b.log)")
        #expect(b.log.contains("bridge for splashhud/kiosk-0042 "), "\(b.log)")
        let (s, reply) = try SplashBinary.run("/usr/bin/mosquitto_rr", broker.auth + ["-V", "mqttv5", "-t", "splashhud/kiosk-0042/cmd",
                                                                                      "-e", "ops/r42", "-m", "ping", "-W", "5"], timeout: 10)
        #expect(s == 0 && reply == "ok pong\n", "\(reply)\n\(b.log)")
        try broker.publish(["-t", "splashhud/group/lobby/cmd", "-q", "1", "-m", "show \"Lobby\""])
        #expect(try MQTTBridgeTests.eventually { try MQTTBridgeTests.state(d)?.status == "Lobby" }, "\(b.log)")
        #expect(try MQTTBridgeTests.eventually {
            try broker.subscribe(["-t", "splashhud/kiosk-0042/state"], count: 1).contains(#""status":"Lobby""#)
        })

        // Another kiosk's account can neither drive it nor read it.
        let other = ["-h", "127.0.0.1", "-p", "\(broker.port)", "-u", "kiosk-0043", "-P", MosquittoBroker.kioskPassword("kiosk-0043")]
        _ = try SplashBinary.run("/usr/bin/mosquitto_pub", other + ["-V", "mqttv5", "-q", "1", "-t", "splashhud/kiosk-0042/cmd", "-m", "show \"Intruder\""], timeout: 10)
        let (_, peeked) = try SplashBinary.run("/usr/bin/mosquitto_sub", other + ["-t", "splashhud/kiosk-0042/state", "-C", "1", "-W", "2"], timeout: 10)
        #expect(!peeked.contains("Lobby"), "\(peeked)")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try MQTTBridgeTests.state(d)?.status == "Lobby")

        // A device id that is not the user name. MQTT 5: the broker refuses its `online` (0x87),
        // and the bridge says why at start and ends (77) rather than run deaf.
        let m = try BridgeProcess(broker, daemon: d, device: "kiosk-0099", user: "kiosk-0043")
        defer { m.end(signal: SIGKILL) }
        let deadline = Date() + 15
        while m.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!m.process.isRunning && m.process.terminationStatus == 77, "\(m.log)")
        #expect(m.log.contains("the broker refused its online on splashhud/kiosk-0099/status (reason 0x87)"), "\(m.log)")
        #expect(m.log.contains("user 'kiosk-0043'") && m.log.contains("pattern readwrite splashhud/%u/#"), "\(m.log)")
        // MQTT 3.1.1 cannot say: the bridge reads its own `online` back, and when it does not come
        // says so within 5 s (an ACL may let a kiosk write without reading: it keeps running).
        // It stays quiet where the ACL holds (its own user name), started beside it.
        let v3 = try BridgeProcess(broker, daemon: d, device: "kiosk-0098", user: "kiosk-0043", extra: ["--protocol", "3.1.1"])
        defer { v3.end(signal: SIGKILL) }
        let fine = try BridgeProcess(broker, daemon: d, device: nil, user: "kiosk-0044", extra: ["--protocol", "3.1.1"])
        defer { fine.end(signal: SIGKILL) }
        #expect(fine.waitForLog("online at"), "\(fine.log)")
        #expect(v3.waitForLog("did not come back within 5 s", seconds: 15), "\(v3.log)")
        #expect(v3.log.contains("user 'kiosk-0043'") && v3.process.isRunning, "\(v3.log)")
        Thread.sleep(forTimeInterval: 1)
        #expect(!fine.log.contains("did not come back") && fine.process.isRunning, "\(fine.log)")
    }
}
