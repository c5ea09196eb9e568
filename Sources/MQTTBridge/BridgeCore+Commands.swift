// SPDX-License-Identifier: MIT
// The path of a command: the broker delivers PUBLISH on P/DEVICE/cmd → `handle` checks the rate
// and the gate (size, UTF-8, one line, privileged verbs) and either answers at once or sends it to
// the daemon, one request per command → the daemon's reply is published to the request's
// response topic (or P/DEVICE/reply). The state does not cost a second request: it comes from
// the watcher's `subscribe state` (BridgeCore+State.swift).
//
// The daemon answers a connection's requests in order, and a `wait` holds every reply after it.
// So the ordinary commands share one link, pipelined (replies matched to requests by order, and
// applied in the order they arrived); each request that may hold (`wait`, `ask-password`,
// `snapshot`) gets a link of its own, opened once every command before it has been answered (so
// it sees them applied), and closed with its reply. A slow one then holds only itself.
import HUDClient
import HUDProtocol

/// A command sent, or about to be sent, to the daemon: where its answer goes.
struct Pending {
    enum Kind {
        case command(ReplyRoute)
        /// `errorRoute`: where a failure goes (P/DEVICE/reply rather than the PNGs' topic).
        case snapshot(route: ReplyRoute, errorRoute: ReplyRoute, budget: Int)
    }
    var kind: Kind
    var timeout: Interval
    /// Set when it is sent.
    var deadline = Instant.zero

    var isSnapshot: Bool { if case .snapshot = kind { return true } else { return false } }
}

/// The link the ordinary commands share, and how many of its requests were sent and answered.
struct OrderedLane {
    var link: Int?
    var queue: [Pending] = []
    var sent: UInt64 = 0
    var answered: UInt64 = 0
    /// When it last had nothing owed: it is closed before the daemon would close it as idle (30 s),
    /// so a command never meets a connection the daemon is closing.
    var idleSince = Instant.zero
}

/// The link subscribed to the daemon's events and state, and when to look for the daemon again.
struct Watcher {
    var link: Int?
    var retryAt: Instant?
    var backoff = Backoff(base: .milliseconds(100), cap: .seconds(5))
    var absentPublished = false
    var refusalLogged = false
}

extension BridgeCore {
    /// How long an ordinary request may take, and one that waits on the HUD or its user.
    static let requestTimeout = Interval.seconds(5)
    static let waitingTimeout = Interval.seconds(120)
    /// Commands in flight at most (each with a reply owed), and of them requests that hold a link
    /// of their own: the daemon gives a user 8 connections, and the watcher and the ordered lane
    /// take two.
    static let maxInFlight = 32
    static let maxHolding = 4
    /// Less than the daemon's 30 s for a connection that asks nothing and is owed nothing.
    static let idleLink = Interval.seconds(20)

    var inFlight: Int { ordered.queue.count + holding.count + barrier.count }

    // MARK: From the broker

    func handle(_ m: MQTTMessage, now: Instant) {
        if echoed(m) || birth(m, now: now) { return }
        guard let kind = configuration.topics.classify(m.topic) else { return }
        // A retained command would fire again at every reconnect of every kiosk: never obeyed.
        guard !m.retained else { return }
        // A QoS 1 command sent again after a reconnect (our PUBACK was lost): applied once only.
        guard !redeliveries.isRedelivery(m) else {
            return log("dropped a redelivered command on \(m.topic) (packet \(m.packetID), already taken)")
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
                let holds: Bool
                switch try? ControlRequest.parse(line) {
                case .wait?, .askPassword?: holds = true
                default: holds = false
                }
                submit(line, Pending(kind: .command(route), timeout: holds ? Self.waitingTimeout : Self.requestTimeout),
                       holds: holds, errorRoute: errorRoute, now: now)
            case .answer(let reply):
                answer(route, reply.line)
            }
        case .snapshotRequest:
            guard m.payload.count <= 255, let name = String(validating: m.payload, as: UTF8.self),
                  !name.contains(where: { $0 == "\n" || $0 == "\0" }) else {
                return answer(errorRoute, ControlReply.error(.badLine, "a snapshot request's payload is an output name (UTF-8, at most 255 bytes) or empty").line)
            }
            let budget = Int(packetLimit) - Self.snapshotOverhead(route)
            let line = ControlRequest.snapshot(output: name.isEmpty ? nil : name).description
            submit(line, Pending(kind: .snapshot(route: route, errorRoute: errorRoute, budget: budget), timeout: Self.requestTimeout),
                   holds: true, errorRoute: errorRoute, now: now)
        }
    }

    /// The smaller of our cap and the broker's Maximum Packet Size.
    var packetLimit: UInt32 { min(configuration.maxPacketSize, brokerMaximumPacket ?? .max) }

    /// A generous bound on a snapshot PUBLISH's bytes besides the PNG: fixed header (5), topic
    /// (2 + length), packet id (2), properties (4 + content type, correlation data, four user properties).
    static func snapshotOverhead(_ route: ReplyRoute) -> Int {
        5 + 2 + route.topic.utf8.count + 2 + 4 + 12 + 3 + (route.correlationData?.count ?? 0) + 4 * 64
    }

    func busy(_ route: ReplyRoute, now: Instant, _ why: String) {
        if busyAnswers.admit(at: now) { answer(route, ControlReply.error(.busy, why).line) }
    }

    // MARK: To the daemon

    func submit(_ line: String, _ pending: Pending, holds: Bool, errorRoute: ReplyRoute, now: Instant) {
        guard inFlight < Self.maxInFlight else {
            return busy(errorRoute, now: now, "\(Self.maxInFlight) \(pending.isSnapshot ? "requests" : "commands") are waiting already")
        }
        guard holds else { return sendOrdered(line, pending, now: now) }
        guard holding.count + barrier.count < Self.maxHolding else {
            return busy(errorRoute, now: now, "\(Self.maxHolding) requests that wait (wait, ask-password, snapshot) are running already")
        }
        barrier.append((after: ordered.sent, line: line, pending: pending))
        releaseBarrier(now: now)
    }

    private func sendOrdered(_ line: String, _ pending: Pending, now: Instant) {
        let link: Int
        if let l = ordered.link { link = l } else {
            do { link = try daemon.open() } catch { return finish(pending, Self.failure(error)) }
            ordered.link = link
        }
        var p = pending
        p.deadline = now + p.timeout
        ordered.queue.append(p)
        ordered.sent += 1
        daemon.send(line, on: link, snapshot: false)
    }

    /// Sends each holding request whose predecessors on the ordered lane are all answered.
    private func releaseBarrier(now: Instant) {
        while let first = barrier.first, ordered.answered >= first.after {
            barrier.removeFirst()
            let link: Int
            do { link = try daemon.open() } catch {
                finish(first.pending, Self.failure(error))
                continue
            }
            var p = first.pending
            p.deadline = now + p.timeout
            holding[link] = p
            daemon.send(first.line, on: link, snapshot: p.isSnapshot)
        }
    }

    /// The reply line for `error`, as the control socket's client would say it.
    static func failure(_ error: ControlClientError) -> String {
        if case .rejected(let code, let message) = error { return "error \(code) \(message)" }
        if case .notRunning = error { return ControlReply.error(.failed, "no daemon: \(error)").line }
        return ControlReply.error(.failed, "\(error)").line
    }

    // MARK: From the daemon

    func handle(_ event: DaemonEvent, now: Instant) {
        switch event {
        case .reply(let link, let reply):
            if link == watcher.link {
                watcherReplied(reply, now: now)
            } else if link == ordered.link {
                guard !ordered.queue.isEmpty else { return }
                let p = ordered.queue.removeFirst()
                ordered.answered += 1
                if ordered.queue.isEmpty { ordered.idleSince = now }
                finish(p, reply.line)
                releaseBarrier(now: now)
            } else if let p = holding.removeValue(forKey: link) {
                daemon.close(link)
                finish(p, reply.line)
            }
        case .snapshot(let link, let png, let output, _):
            guard let p = holding.removeValue(forKey: link) else { return }
            daemon.close(link)
            deliver(p, png: png, output: output)
        case .event(let link, let e):
            if link == watcher.link { publishEvent(e) }
        case .state(let link, let s):
            guard link == watcher.link else { return }
            stateChanged(JSONText.state(s), now: now)
            imageFollows(visible: s.visible, now: now)
        case .lost(let link, let error):
            if link == watcher.link {
                watcherLost(now: now)
            } else if link == ordered.link {
                failOrdered(error, now: now)
            } else if let p = holding.removeValue(forKey: link) {
                finish(p, Self.failure(error))
            }
        }
    }

    /// The ordered link is gone or wedged: every command on it fails, the next opens a new one.
    private func failOrdered(_ error: ControlClientError, now: Instant) {
        if let l = ordered.link { daemon.close(l) }
        ordered.link = nil
        let owed = ordered.queue
        ordered.queue = []
        ordered.answered += UInt64(owed.count)
        for p in owed { finish(p, Self.failure(error)) }
        releaseBarrier(now: now)
    }

    /// Commands past their deadline fail as a client's request would (`timedOut`).
    func expireCommands(now: Instant) {
        if let head = ordered.queue.first, now >= head.deadline { failOrdered(timedOut(head), now: now) }
        if let link = ordered.link, ordered.queue.isEmpty, now - ordered.idleSince >= Self.idleLink {
            daemon.close(link)
            ordered.link = nil
        }
        for (link, p) in holding where now >= p.deadline {
            holding[link] = nil
            daemon.close(link)
            finish(p, Self.failure(timedOut(p)))
        }
    }

    private func timedOut(_ p: Pending) -> ControlClientError {
        .timedOut(socket: configuration.socket ?? ControlClient.defaultSocket, milliseconds: Int32(clamping: p.timeout.nanoseconds / 1_000_000))
    }

    var commandDeadline: Instant? {
        let holdingFirst = holding.values.map(\.deadline).min()
        let orderedNext = ordered.queue.first?.deadline ?? ordered.link.map { _ in ordered.idleSince + Self.idleLink }
        guard let orderedNext else { return holdingFirst }
        return holdingFirst.map { min($0, orderedNext) } ?? orderedNext
    }

    private func finish(_ p: Pending, _ line: String) {
        switch p.kind {
        case .command(let route): answer(route, line)
        case .snapshot(_, let errorRoute, _): answer(errorRoute, line)
        }
    }

    private func deliver(_ p: Pending, png: [UInt8], output: String) {
        guard case .snapshot(let route, let errorRoute, let budget) = p.kind else { return }
        do { publishSnapshot(route, errorRoute: errorRoute, try SnapshotFitter.fit(png, budget: budget), output: output) } catch {
            answer(errorRoute, ControlReply.error(.failed, "\(error)").line)
        }
    }

    // MARK: The watcher

    /// Opens the watcher's link and subscribes to the events and the state (keys too when allowed).
    func follow(now: Instant) {
        watcher.retryAt = nil
        let request = ControlRequest.subscribe(keys: configuration.allowed.contains(.subscribeKeys), state: true).description
        do {
            let link = try daemon.open()
            watcher.link = link
            daemon.send(request, on: link, snapshot: false)
        } catch { watcherLost(now: now) }
    }

    private func watcherReplied(_ reply: ControlReply, now: Instant) {
        switch reply {
        case .ok:
            // The state follows at once as the first `state` event.
            watcher.backoff.reset()
            watcher.absentPublished = false
        case .error(_, let message):
            // Once: it is tried again every few seconds.
            if !watcher.refusalLogged { log("the daemon refused its subscription (\(message)): is it older than the bridge? Trying again") }
            watcher.refusalLogged = true
            watcherLost(now: now)
        }
    }

    /// The daemon is gone (or would not subscribe us): the state says absent, and it is looked
    /// for again with back-off.
    private func watcherLost(now: Instant) {
        if let l = watcher.link { daemon.close(l) }
        watcher.link = nil
        if !watcher.absentPublished {
            watcher.absentPublished = true
            stateChanged(JSONText.state(nil), now: now)
        }
        imageFollows(visible: false, now: now)
        watcher.retryAt = now + watcher.backoff.next()
    }

    /// Every link closed (the bridge is ending).
    func closeLinks() {
        for link in [watcher.link, ordered.link].compactMap({ $0 }) + Array(holding.keys) { daemon.close(link) }
        watcher.link = nil
        watcher.retryAt = nil
        ordered.link = nil
        holding.removeAll()
    }
}
