// SPDX-License-Identifier: MIT
// docs/fleet.md's "Finding a stuck kiosk", against a real Mosquitto: every state the bridge
// publishes carries the kiosk's wall-clock time and a rising seq, and the heartbeat publishes it
// again while nothing changes. So a kiosk whose HUD is still (fresh time, rising seq), one whose
// daemon has stopped (`"daemon":false`, fresh time) and one whose bridge has gone (the broker's
// will says `offline`, the time stops) each show as what they are. A cut network is
// MQTTBridgeResilienceTests.networkCutNoticedByKeepalive: the will fires after 1.5 × keepalive.
import Foundation
import HUDClient
import Testing

@Suite("splashhud-mqtt: liveness (time, seq, heartbeat)", .serialized)
struct MQTTBridgeLivenessTests {
    struct Stamped { let time: Date; let seq: Int; let daemon: Bool; let status: String? }

    /// The states among `lines` (mosquitto_sub's payloads), read with Foundation's JSON parser.
    static func states(_ lines: [String]) -> [Stamped] {
        let iso = ISO8601DateFormatter()
        return lines.compactMap { line in
            guard line.hasPrefix("{"), let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let time = (o["time"] as? String).flatMap(iso.date), let seq = o["seq"] as? Int, let daemon = o["daemon"] as? Bool
            else { return nil }
            return Stamped(time: time, seq: seq, daemon: daemon, status: o["status"] as? String)
        }
    }

    @Test func aStillHUDAStoppedDaemonAndAGoneBridgeEachShowAsWhatTheyAre() throws {
        let broker = try MosquittoBroker()
        let d = try MQTTBridgeTests.startDaemon()
        defer { d.end() }
        _ = try ControlClient(socket: d.socket, timeoutMilliseconds: 5000).request("show \"Still\"")
        let b = try MQTTBridgeTests.BridgeProcess(broker, daemon: d, device: "live", extra: ["--heartbeat", "1"])
        defer { b.end(signal: SIGKILL) }
        #expect(b.waitForLog("online at"), "\(b.log)")
        let watch = try LiveSubscriber(broker, topics: ["splashhud/live/status", "splashhud/live/state"], format: "%p")

        // A still HUD: its state again every second, the seq rising, the time the kiosk's now.
        #expect(watch.waitFor(seconds: 8) { Self.states($0).filter { $0.status == "Still" }.count >= 3 }, "\(watch.lines)")
        let still = Self.states(watch.lines).filter { $0.status == "Still" }
        #expect(zip(still, still.dropFirst()).allSatisfy { $0.seq < $1.seq && $0.time <= $1.time }, "\(watch.lines)")
        #expect(still.allSatisfy { abs($0.time.timeIntervalSinceNow) < 10 }, "\(watch.lines)")

        // The daemon stopped, the bridge running: absent, with a fresh time and a rising seq; online.
        d.end()
        #expect(watch.waitFor(seconds: 10) { Self.states($0).filter { !$0.daemon }.count >= 2 }, "\(watch.lines)")
        let absent = Self.states(watch.lines).filter { !$0.daemon }
        #expect(absent.last!.seq > still.last!.seq && abs(absent.last!.time.timeIntervalSinceNow) < 10, "\(watch.lines)")
        #expect(watch.lines.last { $0 == "online" || $0 == "offline" } == "online", "\(watch.lines)")

        // The bridge gone without a word (SIGKILL): the broker's will says offline, and no state
        // comes any more, so its time grows old.
        b.end(signal: SIGKILL)
        #expect(watch.waitFor(seconds: 10) { $0.last == "offline" }, "\(watch.lines)")
        let seen = Self.states(watch.lines).count
        Thread.sleep(forTimeInterval: 2.5)
        #expect(Self.states(watch.lines).count == seen, "\(watch.lines)")
    }
}
