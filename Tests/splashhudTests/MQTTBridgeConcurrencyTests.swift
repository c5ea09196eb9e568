// SPDX-License-Identifier: MIT
// splashhud-mqtt's commands run side by side against a real Mosquitto and daemon: a `wait` owed for
// as long as the HUD shows holds only itself, while later commands are answered at once and the
// state follows them (from the bridge's `subscribe state`, not a request of its own); the wait is
// answered when a dismiss hides the HUD. MQTTBridgeCoreTests has the ordering rules in detail.
import Foundation
import HUDClient
import Testing

@Suite("splashhud-mqtt: a wait holds only itself", .serialized)
struct MQTTBridgeConcurrencyTests {
    typealias BridgeProcess = MQTTBridgeTests.BridgeProcess

    @Test func aWaitDoesNotDelayTheCommandsAfterIt() throws {
        let broker = try MosquittoBroker()
        let d = try MQTTBridgeTests.startDaemon()
        defer { d.end() }
        _ = try ControlClient(socket: d.socket, timeoutMilliseconds: 5000).request("show \"Busy\"")
        let b = try BridgeProcess(broker, daemon: d, device: "busy")
        defer { b.end() }
        #expect(b.waitForLog("online at"), "\(b.log)")
        let replies = try LiveSubscriber(broker, topics: ["ops/+"], format: "%t %p")
        func send(_ command: String, _ reply: String) throws {
            try broker.publish(["-V", "mqttv5", "-q", "1", "-t", "splashhud/busy/cmd", "-m", command,
                                "-D", "publish", "response-topic", "ops/" + reply])
        }
        try send("wait", "wait")
        try send("status \"Still busy\"", "status")
        try send("ping", "ping")
        #expect(replies.waitFor(seconds: 5) { $0.contains { $0.hasPrefix("ops/status ok") } && $0.contains("ops/ping ok pong") }, "\(replies.lines)")
        #expect(!replies.lines.contains { $0.hasPrefix("ops/wait") }, "\(replies.lines)")
        #expect(MQTTBridgeTests.eventually {
            (try? broker.subscribe(["-t", "splashhud/busy/state"], count: 1))?.contains(#""status":"Still busy""#) == true
        })
        try send("dismiss", "dismiss")
        #expect(replies.waitFor(seconds: 5) { $0.contains("ops/wait ok hidden") && $0.contains("ops/dismiss ok") }, "\(replies.lines)")
        #expect(b.process.isRunning)
    }
}
