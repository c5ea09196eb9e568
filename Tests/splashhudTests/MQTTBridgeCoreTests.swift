// SPDX-License-Identifier: MIT
// The bridge's state machine (BridgeCore) through fake transports on a hand-moved clock: commands
// run concurrently (a slow `wait` holds only itself), one daemon request per command with the
// state from the watcher's `subscribe state`, replies matched to their requests, the rate bound
// and the gate, reconnects on both sides, the heartbeat, the ACL checks, the MQTT 5 → 3.1.1
// fallback and the CONNACK timeout. The link reader is fed a byte at a time. MQTTBridgeTests and
// its neighbours run the same behaviour against a real Mosquitto and daemon.
import HUDClient
import HUDProtocol
import Testing
@testable import MQTTBridge

@Suite("splashhud-mqtt's state machine (fake transports)")
struct MQTTBridgeCoreTests {
    final class Harness {
        let clock = ManualBridgeClock()
        let broker: FakeBroker
        let daemon = FakeDaemon()
        final class Lines { var all: [String] = [] }
        private let lines = Lines()
        let core: BridgeCore
        let topics: Topics

        init(_ extra: [String] = [], version: MQTTProtocol = .v5) throws {
            let c = try #require(try BridgeOptions.parse(["--broker", "mqtt://127.0.0.1", "--device", "k1", "--config", "/dev/null"] + extra))
            topics = c.topics
            broker = FakeBroker(version: version)
            core = BridgeCore(c, clock: clock, mqtt: broker, daemon: daemon, log: { [lines] in lines.all.append($0) })
        }

        /// What the bridge logged.
        var logs: [String] { lines.all }

        /// Started, connected to the broker, the watcher subscribed and the daemon's state in.
        static func online(_ extra: [String] = [], version: MQTTProtocol = .v5) throws -> Harness {
            let h = try Harness(extra, version: version)
            h.core.start()
            h.core.step()
            #expect(h.broker.connects == 1)
            h.broker.events.append(.connected(reasonCode: 0, sessionPresent: false, maximumPacketSize: nil))
            h.core.step()
            #expect(h.core.phase == .connected)
            let watcher = try #require(h.daemon.link(owing: "subscribe state"))
            h.daemon.answer("subscribe state", .ok("subscribed"))
            h.daemon.events.append(.state(link: watcher, HUDState(visible: false, mode: "hidden", progress: nil, status: nil, outputs: [])))
            h.core.step()
            return h
        }

        var watcher: Int { daemon.sent.first { $0.line.hasPrefix("subscribe") }!.link }
        func command(_ text: String, response: String? = nil, correlation: String? = nil) {
            broker.deliver(topics.command, text, responseTopic: response, correlation: correlation)
            core.step()
        }
        func answer(_ line: String, _ reply: ControlReply) {
            daemon.answer(line, reply)
            core.step()
        }
        var replies: [String] { broker.texts(topics.reply) }
        var states: [String] { broker.texts(topics.state) }
    }

    @Test func aSlowWaitHoldsOnlyItselfAndSeesWhatCameBefore() throws {
        let h = try Harness.online()
        h.command("show \"Updating\"")
        h.command("wait")
        // The wait is not sent before the show is applied (it would see the HUD hidden).
        #expect(h.daemon.commands == ["show \"Updating\""])
        h.answer("show \"Updating\"", .ok(nil))
        #expect(h.daemon.commands == ["show \"Updating\"", "wait"])
        let waitLink = try #require(h.daemon.link(owing: "wait"))
        // A dismiss after the wait goes out at once, on the shared link, and is answered while the wait is owed.
        h.command("dismiss")
        let dismissLink = try #require(h.daemon.link(owing: "dismiss"))
        #expect(dismissLink != waitLink)
        h.answer("dismiss", .ok(nil))
        #expect(h.replies == ["ok", "ok"])
        h.clock.advance(.seconds(15))
        h.core.step()
        h.answer("wait", .ok("hidden"))
        #expect(h.replies == ["ok", "ok", "ok hidden"])
        // The wait's own link is closed with its reply; the shared one stays.
        #expect(h.daemon.closed == [waitLink])
        #expect(!h.daemon.closed.contains(dismissLink))
    }

    @Test func oneDaemonRequestPerCommandAndTheStateFromTheSubscription() throws {
        let h = try Harness.online()
        #expect(h.daemon.sent.first?.line == "subscribe state")
        #expect(h.states.count == 1 && h.states[0].contains(#""mode":"hidden""#))
        for c in ["show \"A\"", "progress 0.5", "ping"] { h.command(c) }
        #expect(h.daemon.commands == ["show \"A\"", "progress 0.5", "ping"])
        for c in ["show \"A\"", "progress 0.5"] { h.answer(c, .ok(nil)) }
        h.answer("ping", .ok("pong"))
        // No `state` request: the state arrives as the watcher's event.
        #expect(!h.daemon.sent.contains { $0.line == "state" })
        h.clock.advance(.seconds(1))
        h.daemon.events.append(.state(link: h.watcher, HUDState(visible: true, mode: "ring", progress: 0.5, status: "A", outputs: [])))
        h.core.step()
        #expect(h.states.count == 2 && h.states[1].contains(#""progress":0.5"#) && h.states[1].contains(#""status":"A""#))
        // The events the watcher brings go to the event topic.
        h.daemon.events.append(.event(link: h.watcher, HUDEvent(time: .seconds(2), kind: .didAppear, status: "A")))
        h.core.step()
        #expect(h.broker.texts(h.topics.event).count == 1)
    }

    @Test func repliesGoToTheirRequestsTopicsWithTheirCorrelationData() throws {
        let h = try Harness.online()
        h.command("ping", response: "ops/a", correlation: "1")
        h.command("progress lots", response: "ops/b", correlation: "2")  // the gate answers: never sent
        h.command("wait", response: "ops/c", correlation: "3")
        h.command("version", response: "ops/d", correlation: "4")
        #expect(h.daemon.commands == ["ping", "version"])  // the wait waits for the ping's answer
        h.answer("ping", .ok("pong"))
        h.answer("version", .ok("protocol 1 splashhud 1.0"))
        h.answer("wait", .ok("hidden"))
        let got = h.broker.published.filter { $0.topic.hasPrefix("ops/") }
            .map { "\($0.topic) \(String(decoding: $0.properties?.correlationData ?? [], as: UTF8.self)) \($0.text.split(separator: " ").prefix(2).joined(separator: " "))" }
        #expect(got == ["ops/b 2 error syntax", "ops/a 1 ok pong", "ops/d 4 ok protocol", "ops/c 3 ok hidden"])
    }

    @Test func rateBoundGateAndLimitsOnWhatIsInFlight() throws {
        let h = try Harness.online(["--rate", "3", "--allow", "ask-password"])
        // Burst 6, then busy (answered, themselves bounded).
        for i in 0..<8 { h.command("status \"\(i)\"") }
        #expect(h.daemon.commands.count == 6)
        #expect(h.replies.filter { $0.hasPrefix("error busy more than 3 commands a second") }.count == 2)
        for i in 0..<6 { h.answer("status \"\(i)\"", .ok(nil)) }
        // Refused by the gate without reaching the daemon.
        h.clock.advance(.seconds(5))
        h.command("quit")
        #expect(h.replies.last?.hasPrefix("error denied") == true)
        h.command("subscribe")
        #expect(h.replies.last == "ok subscribed splashhud/k1/event")
        #expect(h.daemon.commands.count == 6)
        // Five requests that hold a link each: the fifth is busy; the daemon's 8 links a user are never all taken.
        h.clock.advance(.seconds(5))
        for _ in 0..<4 { h.command("wait") }
        h.command("ask-password \"PIN\"")
        #expect(h.daemon.commands.filter { $0 == "wait" }.count == 4)
        #expect(h.replies.last?.hasPrefix("error busy 4 requests that wait") == true)
        #expect(h.daemon.openLinks.count == 1 + 1 + 4)
    }

    @Test func aWedgedDaemonFailsTheCommandsOnItsLinkAfterTheirTimeout() throws {
        let h = try Harness.online()
        h.command("show \"x\"")
        h.command("progress 0.2")
        h.clock.advance(.seconds(6))
        h.core.step()
        #expect(h.replies.count == 2 && h.replies.allSatisfy { $0.hasPrefix("error failed") && $0.contains("did not answer within 5000 ms") }, "\(h.replies)")
        // The next command opens a new link.
        h.command("ping")
        let link = try #require(h.daemon.link(owing: "ping"))
        h.answer("ping", .ok("pong"))
        #expect(h.replies.last == "ok pong")
        // Closed by the bridge after 20 s with nothing owed, before the daemon's 30 s.
        h.clock.advance(.seconds(19))
        h.core.step()
        #expect(!h.daemon.closed.contains(link))
        #expect(h.core.nextDeadline <= h.clock.now + .seconds(1))
        h.clock.advance(.seconds(1))
        h.core.step()
        #expect(h.daemon.closed.contains(link))
    }

    @Test func theDaemonGoneAndBackAndTheBrokerLostAndBack() throws {
        let h = try Harness.online()
        let watcher = h.watcher
        h.command("show \"x\"")
        let shared = try #require(h.daemon.link(owing: "show \"x\""))
        // The daemon ends: the owed command fails, the state says absent.
        h.daemon.events += [.lost(link: shared, .daemonClosed), .lost(link: watcher, .daemonClosed)]
        h.clock.advance(.seconds(1))
        h.core.step()
        #expect(h.replies == [ControlReply.error(.failed, "\(ControlClientError.daemonClosed)").line])
        #expect(h.states.last?.contains(#""daemon":false"#) == true)
        // Looked for again with back-off (at most 5 s), while absent.
        h.daemon.refuse = .notRunning(socket: "/run/splashhud/control", detail: "no socket")
        h.clock.advance(.seconds(1))
        h.core.step()
        h.command("ping")
        #expect(h.replies.last?.hasPrefix("error failed no daemon") == true)
        h.daemon.refuse = nil
        h.clock.advance(.seconds(6))
        h.core.step()
        let again = try #require(h.daemon.link(owing: "subscribe state"))
        #expect(again != watcher)
        h.daemon.answer("subscribe state", .ok("subscribed"))
        h.daemon.events.append(.state(link: again, HUDState(visible: true, mode: "spinner", progress: nil, status: "back", outputs: [])))
        h.clock.advance(.seconds(1))
        h.core.step()
        #expect(h.states.last?.contains(#""status":"back""#) == true)

        // The broker goes: reconnect with back-off, then subscriptions, online and the state again.
        h.broker.events.append(.disconnected(reasonCode: 7))
        h.core.step()
        #expect(h.core.phase != .connected)
        let published = h.broker.published.count
        h.clock.advance(.seconds(31))
        h.core.step()
        #expect(h.broker.connects == 2)
        h.broker.events.append(.connected(reasonCode: 0, sessionPresent: true, maximumPacketSize: nil))
        h.core.step()
        let after = h.broker.published.dropFirst(published)
        #expect(after.map(\.topic) == [h.topics.status, h.topics.state])
        #expect(h.broker.subscribed.suffix(2).map(\.topic) == h.topics.subscriptions)
    }

    @Test func heartbeatAndChangesCoalescedToTheStateInterval() throws {
        let h = try Harness.online(["--heartbeat", "60", "--state-interval", "0.5"])
        #expect(h.states.count == 1)
        // A ramping progress: a state each frame, published at most every 0.5 s, the last one.
        for i in 1...30 {
            h.clock.advance(.milliseconds(16))
            h.daemon.events.append(.state(link: h.watcher, HUDState(visible: true, mode: "bar", progress: Double(i) / 100, status: nil, outputs: [])))
            h.core.step()
        }
        #expect(h.states.count == 1)
        #expect(h.core.nextDeadline <= h.clock.now + .milliseconds(500))
        h.clock.advance(.milliseconds(100))
        h.core.step()
        #expect(h.states.count == 2 && h.states[1].contains(#""progress":0.3"#), "\(h.states)")
        // Unchanged: again every heartbeat, with a later time and the next seq.
        h.clock.advance(.seconds(59))
        h.core.step()
        #expect(h.states.count == 2)
        h.clock.advance(.seconds(1))
        h.core.step()
        #expect(h.states.count == 3 && h.states[2].hasSuffix(#""time":"2026-11-29T18:13:00Z","seq":3}"#), "\(h.states)")
    }

    @Test func anACLThatRefusesTheKioskEndsItWith77() throws {
        #expect(BridgeCore.refusedStatus == 77)
        let h = try Harness.online()
        let online = try #require(h.broker.published.first { $0.topic == h.topics.status })
        h.broker.events.append(.published(mid: online.mid, reasonCode: 0x87))
        h.core.step()
        #expect(h.core.refused?.contains("refused its online on splashhud/k1/status (reason 0x87)") == true)
        #expect(h.core.refused?.contains("pattern readwrite splashhud/%u/#") == true)

        let s = try Harness.online()
        s.broker.events.append(.subscribed(mid: s.broker.subscribed[0].mid, granted: [0x87]))
        s.core.step()
        #expect(s.core.refused?.contains("refused to let it read splashhud/k1/cmd") == true)
    }

    @Test func overMQTT311TheBridgeReadsItsOwnOnlineBack() throws {
        let h = try Harness.online(version: .v311)
        #expect(h.broker.subscribed.last?.topic == h.topics.status)
        h.broker.deliver(h.topics.status, "online")
        h.core.step()
        #expect(h.broker.unsubscribed == [h.topics.status])
        h.clock.advance(.seconds(6))
        h.core.step()
        #expect(h.core.refused == nil)
        #expect(!h.logs.contains { $0.contains("did not come back") })

        // An ACL that drops it without a word: said in the log, not fatal.
        let silent = try Harness.online(version: .v311)
        silent.clock.advance(.seconds(6))
        silent.core.step()
        #expect(silent.logs.contains { $0.hasPrefix("error: its own online on splashhud/k1/status did not come back within 5 s") }, "\(silent.logs)")
        #expect(silent.core.refused == nil)
    }

    @Test func aBrokerThatRefusesMQTT5IsTriedIn311AndASilentOneAgain() throws {
        let h = try Harness()
        h.core.start()
        h.core.step()
        h.broker.events.append(.connected(reasonCode: 132, sessionPresent: false, maximumPacketSize: nil))
        h.core.step()
        #expect(h.broker.fallbacks == 1 && h.broker.protocolVersion == .v311 && h.broker.connects == 2)
        #expect(h.logs.contains("mqtt://127.0.0.1:1883 refused MQTT 5; using MQTT 3.1.1"), "\(h.logs)")
        // No CONNACK: tried again after max(10 s, keepalive) and a back-off.
        h.clock.advance(.seconds(31))
        h.core.step()
        #expect(h.core.phase != .connected && h.broker.connects == 2)
        #expect(h.logs.last == "no CONNACK from mqtt://127.0.0.1:1883 in time; trying again")
        #expect(h.core.nextDeadline <= h.clock.now + .milliseconds(1500))
        h.clock.advance(.seconds(2))
        h.core.step()
        #expect(h.broker.connects == 3)
        // libmosquitto giving up first (a keepalive without an answer) is said too.
        h.broker.events.append(.disconnected(reasonCode: 19))
        h.core.step()
        #expect(h.logs.last?.hasPrefix("no CONNACK from mqtt://127.0.0.1:1883 (") == true, "\(h.logs)")
        h.clock.advance(.seconds(5))
        h.core.step()
        #expect(h.broker.connects == 4)
        h.broker.events.append(.connected(reasonCode: 0, sessionPresent: false, maximumPacketSize: nil))
        h.core.step()
        #expect(h.core.phase == .connected && h.broker.fallbacks == 1)
    }

    @Test func theLinkReaderTakesRepliesEventsStatesAndSnapshotsAByteAtATime() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0A, 0x0D, 0x00]
        let text = "ok\nevent 1.500 did-appear \"Hi\"\nevent 1.600 state visible yes mode ring progress 0.4 status \"a b\" outputs V:200x120\n"
            + "event 1.700 some-later-kind x y\nok png \(png.count) V 200x120\n"
        var reader = DaemonLinkReader()
        reader.expect(snapshot: false)
        reader.expect(snapshot: true)
        var events: [DaemonEvent] = []
        for b in Array(text.utf8) + png + Array("error busy later\n".utf8) {
            events += try [b].withUnsafeBytes { try reader.take($0, link: 3) }
        }
        #expect(events == [
            .reply(link: 3, .ok(nil)),
            .event(link: 3, HUDEvent(time: .seconds(1.5), kind: .didAppear, status: "Hi")),
            .state(link: 3, HUDState(visible: true, mode: "ring", progress: 0.4, status: "a b", outputs: [.init(name: "V", width: 200, height: 120)])),
            .snapshot(link: 3, png: png, output: "V", size: "200x120"),
            .reply(link: 3, .error(.busy, "later")),
        ])
        var bad = DaemonLinkReader()
        #expect(throws: ControlClientError.self) { try Array("hello\n".utf8).withUnsafeBytes { try bad.take($0, link: 1) } }
    }
}
