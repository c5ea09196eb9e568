// SPDX-License-Identifier: MIT
// splashhud-mqtt's event loop: one thread owns the broker connection (libmosquitto, never called
// from another thread), an epoll set holds its socket, the outbox's eventfd and the signal pipe,
// level-triggered (libmosquitto reads a bounded number of packets per call, so an edge could be
// lost with data still buffered and keepalive would then fail).
//
// The path of a command: the broker delivers PUBLISH on P/DEVICE/cmd → `MQTTClient.read` queues
// it → `handle` checks the rate and the gate (size, UTF-8, one line, privileged verbs) and either
// answers at once or queues a job → the `CommandWorker` thread sends it to the daemon and posts
// the reply line and the new state to the outbox → its eventfd wakes this loop → `flush`
// publishes the reply to the request's response topic (or P/DEVICE/reply) and the state,
// retained, if it changed; an unchanged state is published again every `heartbeat`, each publish
// stamped with the time and a rising seq (StateStamp).
//
// The broker connection goes idle → connecting → connected and back to idle with a jittered
// back-off on any loss; every CONNACK re-subscribes and republishes `online` and the last state
// (a restarted broker without persistence has forgotten both).
import CMosquitto
import CommandLineOptions
import HUDClient
import HUDProtocol
import LinuxSystem
import SystemPackage

final class Bridge {
    let configuration: BridgeConfiguration
    private let clock: BridgeClock
    private var client: MQTTClient
    private let epoll: Epoll
    private let signals: FileDescriptor
    private let jobs: Mailbox<Job>
    private let outbox: Mailbox<Outgoing>
    private let worker: CommandWorker
    private let watcher: DaemonWatcher
    private let gate: CommandGate
    private var rate: RateLimit
    /// `error busy` answers are bounded too, so a flood is not answered by a flood.
    private var busyAnswers: RateLimit

    private enum Phase: Equatable { case idle(next: Instant), connecting(since: Instant), connected }
    private var phase: Phase
    private var backoff = Backoff(base: .milliseconds(500), cap: .seconds(30))
    private var nextMisc: Instant
    private var registered: (fd: Int32, write: Bool)?
    /// The broker's CONNACK Maximum Packet Size, when it sent one.
    private var brokerMaximumPacket: UInt32?
    /// The daemon's state as last read (unstamped: an unchanged state is not a change), and when
    /// it was last published (the heartbeat's start).
    private var lastState: String?
    private var lastStateAsked = Instant.zero
    private var lastPublished = Instant.zero
    private var stamp = StateStamp()
    /// What each CONNACK's subscriptions and `online` were, until the broker answers them: a
    /// refusal there is its ACL refusing this kiosk's identity, which ends the bridge (`refused`).
    private var subscriptionsAsked: [Int32: String] = [:]
    private var onlineAsked: Int32?
    private var refused: String?
    private var refusalsLogged = 0
    /// MQTT 3.1.1 has no refusal to report: the bridge reads its own `online` back instead, and
    /// says so when it has not come back by `echoDeadline`.
    private var echoDeadline: Instant?

    /// The exit status when the broker's ACL refuses this kiosk's own topics (sysexits' EX_NOPERM).
    static let refusedStatus: Int32 = 77
    private var redeliveries = RedeliveryFilter()

    /// The status topic's payloads.
    static let online = "online", offline = "offline"

    init(_ configuration: BridgeConfiguration, clock: BridgeClock = MonotonicBridgeClock()) throws {
        self.configuration = configuration
        self.clock = clock
        client = try MQTTClient(Self.settings(configuration, version: configuration.protocolVersion))
        epoll = try Epoll()
        Files.ignoreBrokenPipe()
        signals = try SignalPipe.open()
        try SignalPipe.catch(Signal.terminate)
        try SignalPipe.catch(Signal.interrupt)
        jobs = try Mailbox(capacity: 32)
        outbox = try Mailbox(capacity: 256)
        worker = CommandWorker(socket: configuration.socket, jobs: jobs, outbox: outbox, clock: clock)
        watcher = try DaemonWatcher(socket: configuration.socket, keys: configuration.allowed.contains(.subscribeKeys),
                                    stateInterval: configuration.stateInterval, outbox: outbox, clock: clock)
        gate = CommandGate(allowed: configuration.allowed, topics: configuration.topics)
        let now = clock.now
        rate = RateLimit(perSecond: configuration.commandsPerSecond, burst: configuration.commandsPerSecond * 2, now: now)
        busyAnswers = RateLimit(perSecond: 5, burst: 10, now: now)
        phase = .idle(next: now)
        nextMisc = now
        try epoll.add(signals.rawValue, read: true, write: false)
        try epoll.add(outbox.wakeup.descriptor.rawValue, read: true, write: false)
    }

    static func settings(_ c: BridgeConfiguration, version: MQTTProtocol) -> MQTTClient.Settings {
        MQTTClient.Settings(
            clientID: "splashhud-\(c.topics.device)", host: c.broker.host, port: c.broker.port, keepalive: c.keepalive,
            protocolVersion: version, username: c.username, password: c.password, caFile: c.caFile, certFile: c.certFile,
            keyFile: c.keyFile, tls: c.broker.tls, sessionExpirySeconds: c.sessionExpirySeconds,
            maximumIncomingPacket: UInt32(ControlProtocol.maxLineBytes) + 1024,
            willTopic: c.topics.status, willPayload: offline)
    }

    static func log(_ text: String) { CommandLineTool.printError("splashhud-mqtt: " + text) }

    /// Runs until SIGTERM or SIGINT; then publishes `offline` and disconnects cleanly.
    func run() throws -> Int32 {
        guard worker.start(), watcher.start() else { throw SystemError("pthread_create", .resourceTemporarilyUnavailable, "bridge threads") }
        Self.log("bridge for \(configuration.topics.prefix)/\(configuration.topics.device) to \(configuration.broker.url) (\(client.settings.protocolVersion))")
        var ready: [Epoll.Event] = []
        while true {
            try epoll.wait(timeoutMilliseconds: timeout(), into: &ready)
            for event in ready {
                if event.descriptor == signals.rawValue {
                    if try !SignalPipe.read(signals, timeoutMilliseconds: 0).isEmpty { return shutdown() }
                } else if event.descriptor == registered?.fd {
                    do {
                        if event.readable || event.hangup || event.error { try client.read() }
                        if event.writable { try client.write() }
                    } catch { failed(error) }
                }
            }
            step()
            if let refused {
                Self.log(refused)
                _ = shutdown()
                return Self.refusedStatus
            }
        }
    }

    /// Everything that is not a descriptor: timers, the broker's events, the outbox.
    private func step() {
        let now = clock.now
        if now >= nextMisc {
            client.misc()
            nextMisc = now + .seconds(1)
        }
        switch phase {
        case .idle(let next) where now >= next: attempt(now)
        case .connecting(let since) where now - since > .seconds(Double(max(10, configuration.keepalive))):
            Self.log("no CONNACK from \(configuration.broker.url) in time; trying again")
            phase = .idle(next: now + backoff.next())
        default: break
        }
        for event in client.takeEvents() { handle(event, now: now) }
        flush()
        if now - lastPublished >= configuration.heartbeat { publishState(now: now) }
        if let deadline = echoDeadline, now >= deadline, phase == .connected {
            // Not fatal: an ACL may let a kiosk write its status without reading it back.
            echoDeadline = nil
            Self.log("error: its own \(Self.online) on \(configuration.topics.status) did not come back within 5 s. Over MQTT 3.1.1 a broker "
                + "drops what its ACL refuses without a word: if commands never arrive, \(identity)")
        }
        register()
    }

    /// A read or write failed. Once connected, libmosquitto reports the loss itself; before the
    /// CONNACK (a TLS handshake refused) only here, so the attempt ends here.
    private func failed(_ error: MQTTError) {
        guard case .connecting = phase else { return }
        forgetSocket()
        let delay = backoff.next()
        let detail = client.takeLastError().map { " (\($0))" } ?? ""
        Self.log("cannot connect to \(configuration.broker.url): \(error)\(detail); next try in \(format3(delay.seconds)) s")
        phase = .idle(next: clock.now + delay)
    }

    private func timeout() -> Int32 {
        var until = nextMisc
        if case .idle(let next) = phase { until = min(until, next) }
        return Int32(clamping: max(0, (until - clock.now).nanoseconds + 999_999) / 1_000_000)
    }

    private func attempt(_ now: Instant) {
        forgetSocket()
        do {
            try client.connect()
            phase = .connecting(since: now)
        } catch {
            let delay = backoff.next()
            let detail = client.takeLastError().map { " (\($0))" } ?? ""
            Self.log("cannot connect to \(configuration.broker.url): \(error)\(detail); next try in \(format3(delay.seconds)) s")
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
            online()
        case .connected(let rc, _, _):
            // 1 (3.1.1) and 132 (MQTT 5): the broker does not speak this version.
            if (rc == 1 || rc == 132), client.settings.protocolVersion == .v5, let c = try? MQTTClient(Self.settings(configuration, version: .v311)) {
                Self.log("\(configuration.broker.url) refused MQTT 5; using MQTT 3.1.1")
                forgetSocket()
                client = c
                phase = .idle(next: now)
            } else {
                Self.log("\(configuration.broker.url) refused the connection (reason \(rc))")
            }
        case .disconnected(let rc):
            forgetSocket()
            if case .idle = phase { return }  // already waiting for the next attempt
            let delay = backoff.next()
            if phase == .connected { Self.log("lost \(configuration.broker.url) (reason \(rc)); reconnecting in \(format3(delay.seconds)) s") }
            phase = .idle(next: now + delay)
        case .message(let m):
            handle(m, now: now)
        case .subscribed(let mid, let granted):
            guard let topic = subscriptionsAsked.removeValue(forKey: mid), let code = granted.first(where: { $0 >= 0x80 }) else { return }
            refuse("the broker refused to let it read \(topic) (reason \(hex(code)))")
        case .published(let mid, let code) where code >= 0x80:
            if mid == onlineAsked { return refuse("the broker refused its \(Self.online) on \(configuration.topics.status) (reason \(hex(code)))") }
            // One later refusal of many is logged, not each (a flood would flood the log too).
            if refusalsLogged < 5 { refusalsLogged += 1; Self.log("the broker refused a publish (reason \(hex(code))): see its ACL") }
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
    private var identity: String {
        let user = configuration.username.map { "user '\($0)'" } ?? "no user name"
        return "it connects with \(user), client id '\(client.settings.clientID)' and device id "
            + "'\(configuration.topics.device)'. The fleet's ACL grants each kiosk its own topics by user name "
            + "(pattern readwrite \(configuration.topics.prefix)/%u/#): give the device id as the user name "
            + "(--device defaults to --username), or grant this user its topics (docs/fleet.md, ACLs)"
    }

    private func hex(_ code: Int32) -> String { "0x" + String(code, radix: 16) }

    /// After every CONNACK: subscriptions, the retained `online`, the last state.
    private func online() {
        do {
            subscriptionsAsked.removeAll()
            for topic in configuration.topics.subscriptions { subscriptionsAsked[try client.subscribe(topic, qos: 1)] = topic }
            onlineAsked = try client.publish(configuration.topics.status, Array(Self.online.utf8), qos: 1, retain: true)
            if client.settings.protocolVersion == .v311 {
                try client.subscribe(configuration.topics.status, qos: 1)
                echoDeadline = clock.now + .seconds(5)
            }
            publishState(now: clock.now)
            Self.log("online at \(configuration.broker.url) (\(client.settings.protocolVersion)\(brokerMaximumPacket.map { ", packets up to \($0) bytes" } ?? ""))")
        } catch { Self.log("after connecting: \(error)") }
    }

    private func handle(_ m: MQTTMessage, now: Instant) {
        if m.topic == configuration.topics.status, echoDeadline != nil {
            echoDeadline = nil
            do { try client.unsubscribe(m.topic) } catch { Self.log("\(error)") }
            return
        }
        guard let kind = configuration.topics.classify(m.topic) else { return }
        // A retained command would fire again at every reconnect of every kiosk: never obeyed.
        guard !m.retained else { return }
        // A QoS 1 command sent again after a reconnect (our PUBACK was lost): applied once only.
        guard !redeliveries.isRedelivery(m) else {
            return Self.log("dropped a redelivered command on \(m.topic) (packet \(m.packetID), already taken)")
        }
        let snapshotTopic = kind == .snapshotRequest ? configuration.topics.snapshot : configuration.topics.reply
        let route = ReplyRoute(topic: m.responseTopic.flatMap { Topics.isValidPublishTopic($0) ? $0 : nil } ?? snapshotTopic,
                               correlationData: m.correlationData)
        let errorRoute = kind == .snapshotRequest && m.responseTopic == nil ? ReplyRoute(topic: configuration.topics.reply, correlationData: nil) : route
        guard rate.admit(at: now) else { return busy(errorRoute, now: now, "more than \(configuration.commandsPerSecond) commands a second") }
        switch kind {
        case .command:
            switch gate.decide(m.payload) {
            case .forward(let line):
                if !jobs.post(.command(line, route)) { busy(errorRoute, now: now, "\(jobs.capacity) commands are waiting already") }
            case .answer(let reply):
                answer(route, reply.line)
            }
        case .snapshotRequest:
            guard m.payload.count <= 255, let name = String(validating: m.payload, as: UTF8.self),
                  !name.contains(where: { $0 == "\n" || $0 == "\0" }) else {
                return answer(errorRoute, ControlReply.error(.badLine, "a snapshot request's payload is an output name (UTF-8, at most 255 bytes) or empty").line)
            }
            let budget = Int(packetLimit) - Self.snapshotOverhead(route)
            if !jobs.post(.snapshot(output: name.isEmpty ? nil : name, route: route, budget: budget)) {
                busy(errorRoute, now: now, "\(jobs.capacity) requests are waiting already")
            }
        }
    }

    /// The smaller of our cap and the broker's Maximum Packet Size.
    private var packetLimit: UInt32 { min(configuration.maxPacketSize, brokerMaximumPacket ?? .max) }

    /// A generous bound on a snapshot PUBLISH's bytes besides the PNG: fixed header (5), topic
    /// (2 + length), packet id (2), properties (4 + content type, correlation data, four user properties).
    static func snapshotOverhead(_ route: ReplyRoute) -> Int {
        5 + 2 + route.topic.utf8.count + 2 + 4 + 12 + 3 + (route.correlationData?.count ?? 0) + 4 * 64
    }

    private func busy(_ route: ReplyRoute, now: Instant, _ why: String) {
        if busyAnswers.admit(at: now) { answer(route, ControlReply.error(.busy, why).line) }
    }

    // MARK: Publishing

    private func answer(_ route: ReplyRoute, _ line: String) {
        guard phase == .connected else { return }
        let properties = MQTTProperties()
        if let data = route.correlationData { properties.addBinary(MQTT_PROP_CORRELATION_DATA, data) }
        properties.addString(MQTT_PROP_CONTENT_TYPE, "text/plain; charset=utf-8")
        do { try client.publish(route.topic, Array(line.utf8), qos: 1, retain: false, properties: properties) } catch {
            Self.log("reply to \(route.topic): \(error)")
        }
    }

    private func flush() {
        for item in outbox.takeAll() {
            switch item {
            case .reply(let route, let line):
                answer(route, line)
            case .state(let json, let asked):
                guard asked >= lastStateAsked else { continue }
                lastStateAsked = asked
                guard json != lastState else { continue }
                lastState = json
                publishState(now: clock.now)
            case .event(let json):
                guard phase == .connected else { continue }
                // QoS 0: events are a live feed (dashboards); one connection keeps them in order.
                do { try client.publish(configuration.topics.event, Array(json.utf8), qos: 0, retain: false) } catch { Self.log("event: \(error)") }
            case .snapshot(let route, let shot, let output):
                publishSnapshot(route, shot, output: output)
            }
        }
    }

    /// The last state, stamped with the time and the next seq, retained: on a change, after every
    /// CONNACK, and as the heartbeat.
    private func publishState(now: Instant) {
        guard phase == .connected, let lastState else { return }
        lastPublished = now
        let json = stamp.stamp(lastState, wallNanoseconds: clock.wallNanoseconds)
        do { try client.publish(configuration.topics.state, Array(json.utf8), qos: 1, retain: true) } catch { Self.log("state: \(error)") }
    }

    private func publishSnapshot(_ route: ReplyRoute, _ shot: FittedSnapshot, output: String) {
        guard phase == .connected else { return }
        let p = MQTTProperties()
        p.addString(MQTT_PROP_CONTENT_TYPE, "image/png")
        if let data = route.correlationData { p.addBinary(MQTT_PROP_CORRELATION_DATA, data) }
        p.addUserProperty("output", output)
        p.addUserProperty("size", "\(shot.width)x\(shot.height)")
        p.addUserProperty("original-size", "\(shot.originalWidth)x\(shot.originalHeight)")
        p.addUserProperty("scale", shot.scaleDivisor == 1 ? "1" : "1/\(shot.scaleDivisor)")
        do { try client.publish(route.topic, shot.png, qos: 1, retain: false, properties: p) } catch {
            let why = error.isOversize ? "the snapshot (\(shot.png.count) bytes) is over the broker's packet limit" : "\(error)"
            answer(route.topic == configuration.topics.snapshot ? ReplyRoute(topic: configuration.topics.reply, correlationData: nil) : route,
                   ControlReply.error(.failed, why).line)
        }
    }

    // MARK: The socket in the epoll set

    /// Registers libmosquitto's current socket, with write interest while it has output queued.
    private func register() {
        let fd = client.socket
        let write = client.wantsWrite
        if let r = registered, r.fd == fd, r.write == write { return }
        do {
            if let r = registered, r.fd == fd {
                try epoll.modify(r.fd, read: true, write: write)
            } else {
                forgetSocket()
                guard let fd else { return }
                try epoll.add(fd, read: true, write: write)
            }
            registered = fd.map { ($0, write) }
        } catch { Self.log("epoll: \(error)") }
    }

    /// Takes the socket out of the set. Every (re)connect makes a new socket, possibly with the
    /// old number: forgetting it at each attempt and each loss makes `register` add it afresh.
    private func forgetSocket() {
        if let r = registered { epoll.remove(r.fd) }
        registered = nil
    }

    // MARK: Ending

    /// `offline` (retained), written out, then a clean DISCONNECT (which sends no will).
    private func shutdown() -> Int32 {
        watcher.stop.close()
        jobs.close()
        guard phase == .connected else { return 0 }
        do { try client.publish(configuration.topics.status, Array(Self.offline.utf8), qos: 1, retain: true) } catch { Self.log("offline: \(error)") }
        drain()
        client.disconnect()
        drain()
        Self.log("offline")
        return 0
    }

    /// Writes what libmosquitto has queued, for at most a second.
    private func drain() {
        let deadline = clock.now + .seconds(1)
        while client.wantsWrite, let fd = client.socket, clock.now < deadline {
            _ = try? Poll.wait(FileDescriptor(rawValue: fd), for: .write, timeoutMilliseconds: 100, subject: "broker")
            do { try client.write() } catch { return }
        }
    }
}
