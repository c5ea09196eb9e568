// SPDX-License-Identifier: MIT
// splashhud-mqtt's state machine, apart from any socket: it reads the broker's and the daemon's
// events from its two transports, runs its timers on the BridgeClock, and calls the transports
// back. The loop (Bridge) calls `step` after every wake and sleeps until `nextDeadline`; the
// tests call it with fakes and a hand-moved clock. One thread, no locks.
//
// The broker connection goes idle → connecting → connected and back to idle with a jittered
// back-off on any loss; every CONNACK re-subscribes and republishes `online` and the last state
// (a restarted broker without persistence has forgotten both). A broker that refuses MQTT 5 is
// tried again in 3.1.1.
//
// The path of a command and the daemon's links are BridgeCore+Commands.swift; the state, the
// events and the heartbeat BridgeCore+State.swift.
import HUDClient
import HUDProtocol

final class BridgeCore {
    let configuration: BridgeConfiguration
    let clock: BridgeClock
    let mqtt: any MQTTTransport
    let daemon: any DaemonTransport
    let log: (String) -> Void

    enum Phase: Equatable { case idle(next: Instant), connecting(since: Instant), connected }
    private(set) var phase: Phase
    private var backoff = Backoff(base: .milliseconds(500), cap: .seconds(30))
    private var nextMisc: Instant
    /// The broker's CONNACK Maximum Packet Size, when it sent one.
    var brokerMaximumPacket: UInt32?
    /// What each CONNACK's subscriptions and `online` were, until the broker answers them: a
    /// refusal there is its ACL refusing this kiosk's identity, which ends the bridge (`refused`).
    private var subscriptionsAsked: [Int32: String] = [:]
    private var onlineAsked: Int32?
    /// Why the broker's ACL refuses this kiosk, once it has: the loop logs it and ends (exit 77).
    private(set) var refused: String?
    private var refusalsLogged = 0
    /// MQTT 3.1.1 has no refusal to report: the bridge reads its own `online` back instead, and
    /// says so when it has not come back by `echoDeadline`.
    private var echoDeadline: Instant?
    var redeliveries = RedeliveryFilter()
    var rate: RateLimit
    /// `error busy` answers are bounded too, so a flood is not answered by a flood.
    var busyAnswers: RateLimit
    let gate: CommandGate
    /// --discovery homeassistant (BridgeCore+Discovery.swift).
    let discovery: HomeAssistantDiscovery?
    var discoveryState = DiscoveryState()

    // The daemon's links and the commands on them (BridgeCore+Commands.swift).
    var ordered = OrderedLane()
    var holding: [Int: Pending] = [:]
    var barrier: [(after: UInt64, line: String, pending: Pending)] = []
    var watcher = Watcher()

    // The state and the heartbeat (BridgeCore+State.swift).
    var lastState: String?
    var statePending = false
    var lastPublished = Instant.zero
    var stamp = StateStamp()

    /// The exit status when the broker's ACL refuses this kiosk's own topics (sysexits' EX_NOPERM).
    static let refusedStatus: Int32 = 77
    /// The status topic's payloads.
    static let online = "online", offline = "offline"

    init(_ configuration: BridgeConfiguration, clock: BridgeClock, mqtt: any MQTTTransport, daemon: any DaemonTransport,
         log: @escaping (String) -> Void) {
        self.configuration = configuration; self.clock = clock; self.mqtt = mqtt; self.daemon = daemon; self.log = log
        gate = CommandGate(allowed: configuration.allowed, topics: configuration.topics)
        discovery = configuration.discovery.map { HomeAssistantDiscovery(topics: configuration.topics, settings: $0, version: SplashHUDVersion.current) }
        let now = clock.now
        rate = RateLimit(perSecond: configuration.commandsPerSecond, burst: configuration.commandsPerSecond * 2, now: now)
        busyAnswers = RateLimit(perSecond: 5, burst: 10, now: now)
        phase = .idle(next: now)
        nextMisc = now
    }

    /// Starts following the daemon; the broker is tried at the first `step`.
    func start() {
        log("bridge for \(configuration.topics.prefix)/\(configuration.topics.device) to \(configuration.broker.url) (\(mqtt.protocolVersion))")
        // --remove-discovery needs the broker only.
        if configuration.removeDiscovery { discoveryState.removalDeadline = clock.now + Self.removalTimeout; return }
        follow(now: clock.now)
    }

    /// Everything due: the broker's and the daemon's events, then the timers.
    func step() {
        let now = clock.now
        // The daemon's first: a link it closed is forgotten before a command could be sent on it.
        for event in daemon.takeEvents() { handle(event, now: now) }
        for event in mqtt.takeEvents() { handle(event, now: now) }
        if now >= nextMisc {
            mqtt.misc()
            nextMisc = now + .seconds(1)
            for event in mqtt.takeEvents() { handle(event, now: now) }
        }
        switch phase {
        case .idle(let next) where now >= next: attempt(now)
        case .connecting(let since) where now - since > connackTimeout:
            log("no CONNACK from \(configuration.broker.url) in time; trying again")
            phase = .idle(next: now + backoff.next())
        default: break
        }
        expireCommands(now: now)
        if let next = watcher.retryAt, now >= next { follow(now: now) }
        stateTimers(now: now)
        imageTimers(now: now)
        if let deadline = echoDeadline, now >= deadline, phase == .connected {
            // Not fatal: an ACL may let a kiosk write its status without reading it back.
            echoDeadline = nil
            log("error: its own \(Self.online) on \(configuration.topics.status) did not come back within 5 s. Over MQTT 3.1.1 a broker "
                + "drops what its ACL refuses without a word: if commands never arrive, \(identity)")
        }
    }

    /// How long a CONNECT may go unanswered before it is tried again.
    var connackTimeout: Interval { .seconds(Double(max(10, configuration.keepalive))) }

    /// The earliest instant something is due (the loop sleeps until then).
    var nextDeadline: Instant {
        var until = nextMisc
        func consider(_ i: Instant?) { if let i, i < until { until = i } }
        switch phase {
        case .idle(let next): consider(next)
        case .connecting(let since): consider(since + connackTimeout + .milliseconds(1))
        case .connected: consider(echoDeadline)
        }
        consider(commandDeadline)
        consider(watcher.retryAt)
        consider(stateDeadline)
        consider(discoveryState.nextImage)
        consider(discoveryState.removalDeadline)
        return until
    }

    private func attempt(_ now: Instant) {
        do {
            try mqtt.connect()
            phase = .connecting(since: now)
        } catch {
            let delay = backoff.next()
            let detail = mqtt.takeLastError().map { " (\($0))" } ?? ""
            log("cannot connect to \(configuration.broker.url): \(error)\(detail); next try in \(format3(delay.seconds)) s")
            phase = .idle(next: now + delay)
        }
    }

    // MARK: The broker's events

    private func handle(_ event: MQTTEvent, now: Instant) {
        switch event {
        case .connected(0, let sessionPresent, let maximum):
            phase = .connected
            backoff.reset()
            brokerMaximumPacket = maximum
            redeliveries.connected(sessionPresent: sessionPresent)
            online(now: now)
        case .connected(let rc, _, _):
            // 1 (3.1.1) and 132 (MQTT 5): the broker does not speak this version.
            if rc == 1 || rc == 132, mqtt.protocolVersion == .v5, mqtt.fallBackToV311() {
                log("\(configuration.broker.url) refused MQTT 5; using MQTT 3.1.1")
                phase = .idle(next: now)
            } else {
                log("\(configuration.broker.url) refused the connection (reason \(rc))")
            }
        case .disconnected(let rc):
            if case .idle = phase { return }  // already waiting for the next attempt
            let delay = backoff.next()
            if phase == .connected {
                log("lost \(configuration.broker.url) (reason \(rc)); reconnecting in \(format3(delay.seconds)) s")
            } else {
                // Before the CONNACK: the broker closed it, or libmosquitto gave up after a keepalive
                // without an answer (MOSQ_ERR_KEEPALIVE), sooner than `connackTimeout`.
                log("no CONNACK from \(configuration.broker.url) (\(MQTTError(call: "CONNACK", code: rc).reason)); next try in \(format3(delay.seconds)) s")
            }
            phase = .idle(next: now + delay)
        case .failed(let error):
            // Once connected, libmosquitto reports a loss itself; before the CONNACK (a TLS
            // handshake refused) only as this, so the attempt ends here.
            guard case .connecting = phase else { return }
            let delay = backoff.next()
            let detail = mqtt.takeLastError().map { " (\($0))" } ?? ""
            log("cannot connect to \(configuration.broker.url): \(error)\(detail); next try in \(format3(delay.seconds)) s")
            phase = .idle(next: now + delay)
        case .message(let m):
            handle(m, now: now)
        case .subscribed(let mid, let granted):
            guard let topic = subscriptionsAsked.removeValue(forKey: mid), let code = granted.first(where: { $0 >= 0x80 }) else { return }
            refuse("the broker refused to let it read \(topic) (reason \(hex(code)))")
        case .published(let mid, let code) where configuration.removeDiscovery:
            if code >= 0x80 { log("the broker refused a removal (reason \(hex(code))): see its ACL") }
            removalAcknowledged(mid)
        case .published(let mid, let code) where code >= 0x80:
            if mid == onlineAsked { return refuse("the broker refused its \(Self.online) on \(configuration.topics.status) (reason \(hex(code)))") }
            // One later refusal of many is logged, not each (a flood would flood the log too).
            if refusalsLogged < 5 { refusalsLogged += 1; log("the broker refused a publish (reason \(hex(code))): see its ACL") }
        case .published: break
        }
    }

    /// The broker's ACL refuses this kiosk's own topics: no command would ever arrive, or no state
    /// leave, so the bridge says why and ends rather than run deaf.
    private func refuse(_ what: String) {
        guard refused == nil else { return }
        refused = "\(what): \(identity)"
    }

    /// Who the broker sees, and how the fleet's ACL expects it.
    var identity: String {
        let user = configuration.username.map { "user '\($0)'" } ?? "no user name"
        return "it connects with \(user), client id '\(mqtt.clientID)' and device id "
            + "'\(configuration.topics.device)'. The fleet's ACL grants each kiosk its own topics by user name "
            + "(pattern readwrite \(configuration.topics.prefix)/%u/#): give the device id as the user name "
            + "(--device defaults to --username), or grant this user its topics (docs/fleet.md, ACLs)"
    }

    private func hex(_ code: Int32) -> String { "0x" + String(code, radix: 16) }

    /// After every CONNACK: subscriptions, the retained `online`, the last state.
    private func online(now: Instant) {
        if configuration.removeDiscovery { return sendRemovals() }
        do {
            subscriptionsAsked.removeAll()
            for topic in configuration.topics.subscriptions { subscriptionsAsked[try mqtt.subscribe(topic, qos: 1)] = topic }
            // Not among those checked: an ACL that hides Home Assistant's birth costs only the
            // republish at its restart, not the bridge.
            if let discovery { _ = try mqtt.subscribe(discovery.birthTopic, qos: 1) }
            // The configs before `online` and the state, so the entities exist when they come.
            publishDiscovery()
            onlineAsked = try mqtt.publish(configuration.topics.status, Array(Self.online.utf8), qos: 1, retain: true, properties: nil)
            if mqtt.protocolVersion == .v311 {
                _ = try mqtt.subscribe(configuration.topics.status, qos: 1)
                echoDeadline = now + .seconds(5)
            }
            publishState(now: now)
            log("online at \(configuration.broker.url) (\(mqtt.protocolVersion)\(brokerMaximumPacket.map { ", packets up to \($0) bytes" } ?? ""))")
        } catch { log("after connecting: \(error)") }
    }

    /// Our own `online` read back (3.1.1): the ACL lets us read our topics.
    func echoed(_ m: MQTTMessage) -> Bool {
        guard m.topic == configuration.topics.status, echoDeadline != nil else { return false }
        echoDeadline = nil
        do { try mqtt.unsubscribe(m.topic) } catch { log("\(error)") }
        return true
    }

    // MARK: Ending

    /// The daemon's links closed, `offline` (retained) and a clean DISCONNECT (which sends no will).
    func shutdown() -> Int32 {
        closeLinks()
        guard phase == .connected else { return 0 }
        // --remove-discovery never said `online`, so it says nothing of the kiosk's status.
        if configuration.removeDiscovery {
            mqtt.disconnectAndFlush()
            return 0
        }
        do { _ = try mqtt.publish(configuration.topics.status, Array(Self.offline.utf8), qos: 1, retain: true, properties: nil) } catch {
            log("offline: \(error)")
        }
        mqtt.disconnectAndFlush()
        log("offline")
        return 0
    }
}
