// SPDX-License-Identifier: MIT
// Stand-ins for BridgeCore's two transports and its clock, for MQTTBridgeCoreTests: they record
// what the state machine asked of them and hand it what a test makes the broker or the daemon do.
// Only the unit tests use them; every end-to-end test runs the real Mosquitto and daemon.
import HUDClient
import HUDProtocol
@testable import MQTTBridge

final class ManualBridgeClock: BridgeClock, @unchecked Sendable {
    var now = Instant(nanoseconds: 1_000_000_000)
    /// 2026-11-29T18:12:00Z.
    var wallNanoseconds: Int64 = 1_795_975_920 * 1_000_000_000
    func advance(_ i: Interval) { now = now + i; wallNanoseconds += i.nanoseconds }
}

final class FakeBroker: MQTTTransport {
    struct Publish: Equatable {
        var topic: String
        var text: String
        var qos: Int32
        var retain: Bool
        var properties: PublishProperties?
        var mid: Int32
    }
    var protocolVersion: MQTTProtocol
    let clientID = "splashhud-k1"
    var connects = 0
    var fallbacks = 0
    var refuseConnect: MQTTError?
    var published: [Publish] = []
    var subscribed: [(mid: Int32, topic: String)] = []
    var unsubscribed: [String] = []
    var events: [MQTTEvent] = []
    var disconnects = 0
    private var mid: Int32 = 0

    init(version: MQTTProtocol = .v5) { protocolVersion = version }

    func connect() throws(MQTTError) {
        connects += 1
        if let refuseConnect { throw refuseConnect }
    }
    func fallBackToV311() -> Bool { fallbacks += 1; protocolVersion = .v311; return true }
    func subscribe(_ pattern: String, qos: Int32) throws(MQTTError) -> Int32 {
        mid += 1
        subscribed.append((mid, pattern))
        return mid
    }
    func unsubscribe(_ pattern: String) throws(MQTTError) { unsubscribed.append(pattern) }
    func publish(_ topic: String, _ payload: [UInt8], qos: Int32, retain: Bool, properties: PublishProperties?) throws(MQTTError) -> Int32 {
        mid += 1
        published.append(Publish(topic: topic, text: String(decoding: payload, as: UTF8.self), qos: qos, retain: retain, properties: properties, mid: mid))
        return mid
    }
    func takeEvents() -> [MQTTEvent] {
        defer { events.removeAll() }
        return events
    }
    func takeLastError() -> String? { nil }
    func misc() {}
    func disconnectAndFlush() { disconnects += 1 }

    /// A command or request from the operator.
    func deliver(_ topic: String, _ text: String, responseTopic: String? = nil, correlation: String? = nil, packetID: Int32 = 0) {
        events.append(.message(MQTTMessage(topic: topic, payload: Array(text.utf8), qos: 1, retained: false, packetID: packetID,
                                           responseTopic: responseTopic, correlationData: correlation.map { Array($0.utf8) })))
    }

    /// What went to `topic`, in order.
    func texts(_ topic: String) -> [String] { published.filter { $0.topic == topic }.map(\.text) }
}

final class FakeDaemon: DaemonTransport {
    /// Each link's requests not answered yet, oldest first.
    private(set) var owed: [Int: [String]] = [:]
    private(set) var sent: [(link: Int, line: String)] = []
    private(set) var closed: [Int] = []
    var refuse: ControlClientError?
    var events: [DaemonEvent] = []
    private var next = 1

    func open() throws(ControlClientError) -> Int {
        if let refuse { throw refuse }
        defer { next += 1 }
        owed[next] = []
        return next
    }
    func send(_ line: String, on link: Int, snapshot: Bool) {
        sent.append((link, line))
        owed[link, default: []].append(line)
    }
    func close(_ link: Int) {
        owed[link] = nil
        closed.append(link)
    }
    func takeEvents() -> [DaemonEvent] {
        defer { events.removeAll() }
        return events
    }

    var openLinks: [Int] { owed.keys.sorted() }
    /// The requests sent, the watcher's subscription left out.
    var commands: [String] { sent.map(\.line).filter { !$0.hasPrefix("subscribe") } }

    /// The link whose oldest owed request is `line`.
    func link(owing line: String) -> Int? { owed.first { $0.value.first == line }?.key }

    /// The daemon answers `line` (the oldest owed on its link).
    func answer(_ line: String, _ reply: ControlReply) {
        guard let link = link(owing: line) else { fatalError("nothing owes \(line): \(owed)") }
        owed[link]!.removeFirst()
        events.append(.reply(link: link, reply))
    }

    /// The daemon answers the `snapshot` owed on `link` with `png`.
    func answer(snapshot link: Int, png: [UInt8], output: String) {
        owed[link]!.removeFirst()
        events.append(.snapshot(link: link, png: png, output: output, size: ""))
    }
}
