// SPDX-License-Identifier: MIT
// splashhud-mqtt when the network misbehaves, against a real Mosquitto: the broker not there yet
// when the bridge starts; a network cut that leaves the connection half-open (nothing closed,
// nothing delivered: only keepalive notices); and a QoS 1 command redelivered after a reconnect
// because our PUBACK was lost, which must be applied once.
//
// The cut is made by `TCPRelay` (TCPRelay.swift), a small forwarder between the bridge and the
// broker that the test tells to stall (no byte passes either way, every connection stays open, new
// ones are closed at once like a refused route) or to drop the bridge's side only. No root, no
// netns, no iptables.
import Foundation
import HUDClient
import HUDProtocol
import Testing

@Suite("splashhud-mqtt: broker down at start, a network cut, redelivered commands", .serialized)
struct MQTTBridgeResilienceTests {
    typealias Daemon = DaemonProcessTests.Running
    typealias BridgeProcess = MQTTBridgeTests.BridgeProcess

    static func state(_ d: Daemon) throws -> HUDState? { try MQTTBridgeTests.state(d) }

    /// Started before its broker: it retries with back-off, and once the broker listens says
    /// `online` and publishes the daemon's state, both retained.
    @Test func brokerDownAtStart() throws {
        let broker = try MosquittoBroker(start: false)
        let d = try MQTTBridgeTests.startDaemon()
        defer { d.end() }
        _ = try ControlClient(socket: d.socket, timeoutMilliseconds: 5000).request("show \"Early\"")
        let b = try BridgeProcess(broker, daemon: d, device: "early")
        defer { b.end(signal: SIGKILL) }
        #expect(b.waitForLog("cannot connect", count: 2, seconds: 10), "\(b.log)")
        #expect(!b.log.contains("online at"))
        try broker.start()
        #expect(b.waitForLog("online at", seconds: 15), "\(b.log)")
        let retained = try broker.subscribe(["-t", "splashhud/early/status", "-t", "splashhud/early/state", "-v"], count: 2)
        #expect(retained.contains("splashhud/early/status online") && retained.contains("\"status\":\"Early\""), "\(retained)")
        // And it takes commands.
        let (s, reply) = try SplashBinary.run("/usr/bin/mosquitto_rr", broker.auth + ["-V", "mqttv5", "-t", "splashhud/early/cmd", "-e", "ops/early", "-m", "ping", "-W", "5"], timeout: 10)
        #expect(s == 0 && reply == "ok pong\n", "\(reply)")
    }

    /// A cut that closes nothing: only keepalive (5 s here) notices. Meanwhile the broker gives up
    /// on the kiosk too (1.5 keepalives) and publishes its will; once the network is back the bridge
    /// reconnects and says `online` again, with the state that changed during the cut.
    @Test func networkCutNoticedByKeepalive() throws {
        let broker = try MosquittoBroker()
        let relay = try TCPRelay(to: broker.port)
        defer { relay.end() }
        let d = try MQTTBridgeTests.startDaemon()
        defer { d.end() }
        let b = try BridgeProcess(broker, daemon: d, device: "cut", url: "mqtt://127.0.0.1:\(relay.port)")
        defer { b.end(signal: SIGKILL) }
        #expect(b.waitForLog("online at"), "\(b.log)")
        let watch = try LiveSubscriber(broker, topics: ["splashhud/cut/status", "splashhud/cut/state"], format: "%p")
        #expect(watch.waitFor(seconds: 5) { $0.contains("online") }, "\(watch.lines)")

        let cut = Date()
        relay.send("stall")
        _ = try ControlClient(socket: d.socket, timeoutMilliseconds: 5000).request("show \"During the cut\"")
        #expect(b.waitForLog("lost mqtt://127.0.0.1:\(relay.port)", seconds: 15), "\(b.log)")
        let noticed = Date().timeIntervalSince(cut)
        #expect(noticed < 12, "keepalive 5 s noticed the cut after \(noticed) s")
        #expect(watch.waitFor(seconds: 5) { $0.last == "offline" }, "the broker's will: \(watch.lines)")
        #expect(!watch.lines.contains { $0.contains("During the cut") })

        relay.send("heal")
        #expect(b.waitForLog("online at", count: 2, seconds: 15), "\(b.log)")
        #expect(watch.waitFor(seconds: 5) { $0.last(where: { $0 == "online" || $0 == "offline" }) == "online" && $0.contains { $0.contains("\"status\":\"During the cut\"") } },
                "\(watch.lines)")
        let (s, reply) = try SplashBinary.run("/usr/bin/mosquitto_rr", broker.auth + ["-V", "mqttv5", "-t", "splashhud/cut/cmd", "-e", "ops/cut", "-m", "ping", "-W", "5"], timeout: 10)
        #expect(s == 0 && reply == "ok pong\n", "\(reply)")
    }

    /// The broker's PUBLISH arrives and is applied, but our PUBACK never reaches it; the connection
    /// then dies and the broker resends the command on the next one (same session): taken once.
    @Test func redeliveredCommandAppliedOnce() throws {
        let broker = try MosquittoBroker()
        let relay = try TCPRelay(to: broker.port)
        defer { relay.end() }
        let d = try MQTTBridgeTests.startDaemon()
        defer { d.end() }
        let b = try BridgeProcess(broker, daemon: d, device: "dup", url: "mqtt://127.0.0.1:\(relay.port)")
        defer { b.end(signal: SIGKILL) }
        #expect(b.waitForLog("online at"), "\(b.log)")
        let replies = try LiveSubscriber(broker, topics: ["ops/dup"], format: "%D|%p")
        let events = try ControlClient(socket: d.socket, timeoutMilliseconds: 5000)
        _ = try events.request("subscribe")

        relay.send("mute-up")
        try broker.publish(["-V", "mqttv5", "-q", "1", "-t", "splashhud/dup/cmd", "-m", "show \"Once\"",
                            "-D", "publish", "response-topic", "ops/dup", "-D", "publish", "correlation-data", "once-1"])
        // Once it has appeared (after the grace time), put away locally: a second `show "Once"`
        // would bring it back.
        var appeared: [String?] = []
        let shown = try MQTTBridgeTests.eventually {
            if let e = try events.nextEvent(timeoutMilliseconds: 50), e.kind == .didAppear { appeared.append(e.status) }
            return !appeared.isEmpty
        }
        #expect(shown && appeared == ["Once"], "\(appeared)")
        _ = try ControlClient(socket: d.socket, timeoutMilliseconds: 5000).request("dismiss 0")
        #expect(try MQTTBridgeTests.eventually { try Self.state(d)?.visible == false })
        relay.send("heal")
        #expect(b.waitForLog("online at", count: 2, seconds: 15), "\(b.log)")
        #expect(b.waitForLog("dropped a redelivered command on splashhud/dup/cmd", seconds: 5), "the broker resent nothing, or the bridge took it: \(b.log)")
        // A command after it is answered, so anything before it was handled: the HUD never came back.
        try broker.publish(["-V", "mqttv5", "-q", "1", "-t", "splashhud/dup/cmd", "-m", "ping",
                            "-D", "publish", "response-topic", "ops/dup", "-D", "publish", "correlation-data", "after"])
        #expect(replies.waitFor(seconds: 5) { $0.contains("after|ok pong") }, "\(replies.lines)")
        while let e = try events.nextEvent(timeoutMilliseconds: 300), appeared.count < 100 {
            if e.kind == .didAppear { appeared.append(e.status) }
        }
        #expect(appeared == ["Once"], "\(appeared)")
        #expect(try Self.state(d)?.visible == false)
        // The reply to the one application arrives once (libmosquitto resends it on the new connection).
        #expect(replies.lines.filter { $0 == "once-1|ok" }.count == 1, "\(replies.lines)")
    }
}
