// SPDX-License-Identifier: MIT
// The bridge's parts without a broker: options and the configuration file, the gate in front of
// the daemon, the JSON it publishes, the back-off, the rate bound, the snapshot's halving and the
// filter of redelivered commands.
import CommandLineOptions
import HUDClient
import HUDProtocol
import Testing
@testable import MQTTBridge

@Suite("splashhud-mqtt's parts")
struct MQTTBridgeUnitTests {
    let topics = Topics(prefix: "splashhud", device: "k1", groups: ["lobby"])

    @Test func brokerAddresses() {
        #expect(BrokerAddress("mqtt://broker.example") == BrokerAddress(host: "broker.example", port: 1883, tls: false))
        #expect(BrokerAddress("mqtts://broker.example:8884") == BrokerAddress(host: "broker.example", port: 8884, tls: true))
        #expect(BrokerAddress("mqtts://[::1]") == BrokerAddress(host: "::1", port: 8883, tls: true))
        #expect(BrokerAddress("tcp://x") == nil && BrokerAddress("mqtt://x:0") == nil && BrokerAddress("mqtt://") == nil)
    }

    @Test func configFileMergesUnderTheCommandLine() throws {
        let text = "# fleet\nbroker = mqtt://a:1883\ngroup lobby\nallow \"set font\"\ndevice=k9\n"
        let file = try ConfigFile.options(text, spec: BridgeOptions.spec, path: "mqtt.conf")
        var o = try OptionParser.parse(["--device", "k1", "--group", "north", "--allow", "quit"], spec: BridgeOptions.spec)
        o.given = file + o.given
        let c = try BridgeOptions.configuration(o)
        #expect(c.topics == Topics(prefix: "splashhud", device: "k1", groups: ["lobby", "north"]))
        #expect(c.allowed == [.setFont, .quit] && c.broker.port == 1883 && c.keepalive == 30)
        #expect(c.heartbeat == .seconds(60))
        var beat = try OptionParser.parse(["--broker", "mqtt://a", "--device", "a"], spec: BridgeOptions.spec)
        beat.given = try ConfigFile.options("heartbeat = 5\n", spec: BridgeOptions.spec, path: "mqtt.conf") + beat.given
        #expect(try BridgeOptions.configuration(beat).heartbeat == .seconds(5))
        for bad in ["0", "86401", "soon"] {
            #expect(throws: UsageError.self, "\(bad)") {
                try BridgeOptions.configuration(OptionParser.parse(["--broker", "mqtt://a", "--device", "a", "--heartbeat", bad], spec: BridgeOptions.spec))
            }
        }
        #expect(throws: UsageError.self) { try ConfigFile.options("brokr = x\n", spec: BridgeOptions.spec, path: "m") }
        #expect(throws: UsageError.self) { try BridgeOptions.configuration(OptionParser.parse(["--broker", "mqtt://a", "--device", "a/b"], spec: BridgeOptions.spec)) }
        #expect(throws: UsageError.self) { try BridgeOptions.configuration(OptionParser.parse(["--broker", "mqtt://a", "--device", "a", "--ca-file", "x"], spec: BridgeOptions.spec)) }
        #expect(throws: UsageError.self) { try BridgeOptions.configuration(OptionParser.parse(["--broker", "mqtt://a", "--device", "a", "--allow", "everything"], spec: BridgeOptions.spec)) }
    }

    /// Every publish of the state carries the wall-clock time (RFC 3339, UTC) and a rising seq.
    @Test func theStateStamp() {
        for (seconds, text) in [(0, "1970-01-01T00:00:00Z"), (-1, "1969-12-31T23:59:59Z"), (951_782_400, "2000-02-29T00:00:00Z"),
                                (1_796_000_000, "2026-11-30T00:53:20Z"), (2_147_483_648, "2038-01-19T03:14:08Z"),
                                (4_102_444_800, "2100-01-01T00:00:00Z"), (9_223_372_035, "2262-04-11T23:47:15Z")] as [(Int64, String)] {
            #expect(StateStamp.utc(seconds * 1_000_000_000 + 999_999_999) == text, "\(seconds)")
        }
        #expect(StateStamp.utc(-1) == "1969-12-31T23:59:59Z")
        var stamp = StateStamp()
        let state = JSONText.state(nil)
        #expect(stamp.stamp(state, wallNanoseconds: 1_796_000_000_000_000_000)
                == String(state.dropLast()) + #","time":"2026-11-30T00:53:20Z","seq":1}"#)
        #expect(stamp.stamp(state, wallNanoseconds: 0).hasSuffix(#","time":"1970-01-01T00:00:00Z","seq":2}"#))
        #expect(stamp.stamp("{}", wallNanoseconds: 0) == #"{"time":"1970-01-01T00:00:00Z","seq":3}"#)
    }

    @Test func theGate() {
        let gate = CommandGate(allowed: [.image], topics: topics)
        #expect(gate.decide(Array("show \"Hi\"".utf8)) == .forward("show \"Hi\""))
        #expect(gate.decide(Array("ping\n".utf8)) == .forward("ping"))
        #expect(gate.decide(Array("image /srv/logo.png Hi".utf8)) == .forward("image /srv/logo.png Hi"))
        #expect(gate.decide(Array("success Done".utf8)) == .forward("success Done"))
        #expect(gate.decide([]) == .answer(.ok(nil)))
        for denied in ["quit", "QUIT", "exit", "set font /x.ttf", "subscribe keys", "ask-password PIN"] {
            guard case .answer(.error(.denied, _)) = gate.decide(Array(denied.utf8)) else { Issue.record("\(denied) passed"); continue }
        }
        guard case .answer(.error(.badLine, _)) = gate.decide([0xFF, 0x41]) else { Issue.record("non-UTF-8 passed"); return }
        guard case .answer(.error(.badLine, _)) = gate.decide(Array("ping\nquit".utf8)) else { Issue.record("two lines passed"); return }
        guard case .answer(.error(.badLine, _)) = gate.decide([UInt8](repeating: 0x61, count: 4096)) else { Issue.record("4096 bytes passed"); return }
        guard case .answer(.error(.syntax, _)) = gate.decide(Array("progress lots".utf8)) else { Issue.record("syntax passed"); return }
        #expect(gate.decide(Array("subscribe".utf8)) == .answer(.ok("subscribed splashhud/k1/event")))
    }

    @Test func json() {
        let s = HUDState(visible: true, mode: "ring", progress: 0.4, status: "Say \"hi\"\n", outputs: [.init(name: "HDMI-A-1", width: 1920, height: 1080)])
        #expect(JSONText.state(s) == #"{"visible":true,"status":"Say \"hi\"\n","progress":0.4,"mode":"ring","outputs":[{"name":"HDMI-A-1","width":1920,"height":1080}],"daemon":true}"#)
        #expect(JSONText.state(nil).contains(#""mode":"absent""#))
        let e = HUDEvent(time: .seconds(1.5), kind: .touch, status: nil, details: [.init("x", "10"), .init("output", "DSI-1")])
        #expect(JSONText.event(e) == #"{"kind":"touch","status":null,"time":1.5,"x":"10","output":"DSI-1"}"#)
        #expect(JSONText.string("\u{1}") == #""\u0001""#)
        #expect(JSONText.number(-0.25) == "-0.25" && JSONText.number(3) == "3")
    }

    @Test func backoffStaysBetweenBaseAndCap() {
        var b = Backoff(base: .milliseconds(500), cap: .seconds(30))
        #expect(b.next(unit: 0) == .milliseconds(500))
        var last = Interval.zero
        for _ in 0..<20 { last = b.next(unit: 0.999) }
        #expect(last <= .seconds(30) && last > .seconds(29))
        b.reset()
        #expect(b.next(unit: 0.5) <= .milliseconds(1500))
    }

    @Test func rateLimit() {
        var r = RateLimit(perSecond: 10, burst: 20, now: .zero)
        #expect((0..<25).filter { _ in r.admit(at: .zero) }.count == 20)
        #expect(r.admit(at: .seconds(0.1)) && !r.admit(at: .seconds(0.1)))
        #expect((0..<30).filter { _ in r.admit(at: .seconds(100)) }.count == 20)
    }

    @Test func halving() {
        let rgba: [UInt8] = [0, 0, 0, 255, 100, 100, 100, 255, 200, 0, 0, 255]  // 3x1
        let h = SnapshotFitter.halve(rgba, width: 3, height: 1)
        #expect(h.width == 2 && h.height == 1 && h.rgba == [50, 50, 50, 255, 200, 0, 0, 255])
    }

    /// udev/splashhud-mqtt.service: after the network (and the splash), its command line one the
    /// bridge accepts.
    @Test func systemdUnit() throws {
        let e = try ServiceUnitTests.entries("splashhud-mqtt.service")
        func values(_ key: String) -> [String] { e.filter { $0.key == key }.flatMap { $0.value.split(separator: " ").map(String.init) } }
        #expect(values("After").contains("network-online.target") && values("Wants") == ["network-online.target"])
        #expect(values("After").contains("splashhud.service") && values("WantedBy") == ["multi-user.target"])
        let argv = ServiceUnitTests.words(e.first { $0.key == "ExecStart" }?.value ?? "")
        #expect(argv.first == "/usr/bin/splashhud-mqtt")
        let o = try OptionParser.parse(Array(argv.dropFirst()), spec: BridgeOptions.spec)
        #expect(o.value("config") == ConfigFile.defaultPath)
    }

    /// A QoS 1 command sent again after a reconnect of the same session is dropped; a new one with
    /// an identifier seen before, the same command on a new session, or after something new, is not.
    @Test func redeliveredCommandsAreTakenOnce() {
        func message(_ id: Int32, _ payload: String, correlation: String? = nil) -> MQTTMessage {
            MQTTMessage(topic: "splashhud/k1/cmd", payload: Array(payload.utf8), qos: 1, retained: false, packetID: id,
                        correlationData: correlation.map { Array($0.utf8) })
        }
        var f = RedeliveryFilter(capacity: 4)
        // `#expect` cannot take a mutating call: each answer is taken first.
        func dropped(_ m: MQTTMessage) -> Bool { f.isRedelivery(m) }
        f.connected(sessionPresent: false)
        let first = [dropped(message(7, "show A")), dropped(message(8, "show B")), dropped(message(9, "show C"))]
        #expect(first == [false, false, false])
        f.connected(sessionPresent: true)
        // 8 and 9 again, first on the new connection of the same session: copies; then 10 is new.
        let again = [dropped(message(8, "show B")), dropped(message(9, "show C")), dropped(message(10, "show D"))]
        #expect(again == [true, true, false])
        // The window closed at the first new message: an old identifier now is a new command.
        let late = dropped(message(7, "show A"))
        #expect(!late)
        // Same identifier, another command or another correlation: new.
        f.connected(sessionPresent: true)
        let otherPayload = dropped(message(10, "show E"))
        f.connected(sessionPresent: true)
        let otherCorrelation = dropped(message(10, "show E", correlation: "r2"))
        #expect(!otherPayload && !otherCorrelation)
        // No session kept: nothing can be resent, nothing is dropped.
        f.connected(sessionPresent: false)
        let noSession = dropped(message(10, "show E", correlation: "r2"))
        #expect(!noSession)
        // QoS 0 has no identifier and is never dropped.
        f.connected(sessionPresent: true)
        var q0 = message(0, "show E", correlation: "r2"); q0.qos = 0
        let qos0 = dropped(q0)
        #expect(!qos0)
        // At most `capacity` remembered.
        var g = RedeliveryFilter(capacity: 2)
        g.connected(sessionPresent: false)
        for id in Int32(1)...3 { _ = g.isRedelivery(message(id, "x\(id)")) }
        g.connected(sessionPresent: true)
        let forgotten = g.isRedelivery(message(1, "x1"))
        #expect(!forgotten)
    }
}
