// SPDX-License-Identifier: MIT
// The control socket on the runtime's loop: accepts clients, reads their request lines, queues the
// HUD's requests with the runtime like every other transport, and answers each request once, in
// order. `state`, `wait` and `snapshot` are answered at the end of the turn, after the turn's
// requests were applied and its frame drawn, so they see what the requests before them did (a
// snapshot waits for the frame that draws them, and is encoded off the loop).
// Events go to subscribers as the runtime hands them out. Nothing here blocks: sockets are
// non-blocking, output waits in each connection (bounded) until the socket takes it. Slots and
// idle clients are ConnectionHost's; a client with replies owed (a `wait`, an `ask-password`) or
// subscribed waits on us and is never idle.
import Assets
import HUDProtocol
import LinuxSystem
import Logging
import SystemPackage

public final class ControlServer {
    public let socket: ControlSocket
    public let runtime: HUDRuntime
    /// The runtime's prompts (ask-password).
    private let prompts: PromptDesk
    /// Output a client may leave unread before it is disconnected (snapshots excepted).
    public var outputLimit = 1 << 20
    /// Replies a client may be owed (requests behind a pending `wait`, a pipeline not yet applied)
    /// before we stop reading from it until they are answered: its requests wait in its socket.
    public var owedLimit = 4096
    /// Clients connected at once, per pool and per uid, and how long one may sit idle; more are
    /// refused (closed at once, logged at a bounded rate). Applies from the next connection.
    public var limits: ConnectionLimits {
        get { host.limits }
        set { host.limits = newValue }
    }
    /// Bytes read from one client in one turn, so one cannot starve the others or the frames.
    public var readBudget: Int {
        get { host.readBudget }
        set { host.readBudget = newValue }
    }
    /// Clients cut off for not reading (for tests and the exit summary).
    public private(set) var disconnectedForOutput = 0

    private let host: ConnectionHost
    private let snapshots: SnapshotEncoder
    /// Requests answered at the end of the turn.
    private var deferred: [(ControlConnection, Int, ControlRequest)] = []
    private var waiters: [(ControlConnection, Int)] = []
    /// Connections subscribed to the state: while there is none, a turn never reads it.
    private var stateFollowers = 0
    private var logger: Logger { runtime.logger }
    private var closed = false

    /// Serves `socket` on `runtime`'s loop until `close`.
    public init(socket: ControlSocket, runtime: HUDRuntime) throws {
        self.socket = socket; self.runtime = runtime; prompts = runtime.prompts
        snapshots = try SnapshotEncoder(loop: runtime.loop)
        host = ConnectionHost(runtime: runtime, listener: socket.descriptor, kind: "control client",
                              place: socket.isAbstract ? "the control socket \(socket.address)" : "the control socket")
        try host.start(owner: self)
        runtime.addEventListener { [unowned self] events in broadcast(events) }
        runtime.atTurnEnd { [unowned self] in answerDeferred() }
        runtime.atTurnEnd { [unowned self] in sendStates() }
        logger.info("control socket at \(socket.address)\(socket.tookOverStale ? " (took over a stale socket)" : ""): \(host.limits.summary)")
    }

    /// Clients connected now.
    public var connectionCount: Int { host.connections.count }

    /// Clients of `uid` connected now.
    public func connectionCount(uid: UInt32) -> Int { host.count(uid: uid) }

    /// Stops accepting, answers what is owed with `error ending`, sends what the sockets take
    /// now, closes every client and removes the socket's path.
    public func close() {
        guard !closed else { return }
        closed = true
        host.close { $0.answerAll(.error(.ending, "the daemon is quitting")) }
        socket.close()
    }

    // MARK: Requests

    func received(_ bytes: ArraySlice<UInt8>, from c: ControlConnection) {
        for line in c.lines.feed(bytes) {
            host.heard(c)
            take(line, from: c)
            if c.closed { return }
        }
    }

    private func take(_ line: Result<String, CommandFIFOError>, from c: ControlConnection) {
        let slot = c.openSlot()
        let request: ControlRequest?
        switch line {
        case .failure(let e):
            c.fill(slot, .error(.badLine, "\(e)"))
            return send(c)
        case .success(let text):
            do { request = try ControlRequest.parse(text) } catch {
                c.fill(slot, .error(.syntax, "\(error)"))
                return send(c)
            }
        }
        guard let request else {
            c.fill(slot, .ok(nil))
            return send(c)
        }
        if !c.trusted, let verb = request.privilegedVerb {
            c.fill(slot, .error(.denied, "\(verb.purpose) is for root and the daemon's user (uid \(Files.effectiveUserID)), not the socket's group"))
            return send(c)
        }
        switch request {
        case .request(let r):
            runtime.enqueue(r, from: c.origin) { [weak self, weak c] outcome in
                guard let self, let c else { return }
                switch outcome {
                case .applied: c.fill(slot, .ok(nil))
                case .refused(let why): c.fill(slot, .error(.refused, why))
                }
                self.send(c)
            }
        case .ping:
            c.fill(slot, .ok("pong"))
            send(c)
        case .version:
            c.fill(slot, .ok(VersionReply.current.line))
            send(c)
        case .subscribe(let keys, let state):
            c.subscribed = true
            if keys && c.keyWatch == nil { c.keyWatch = runtime.watchKeys() }
            // Its first state goes at the end of this turn (stateSent nil differs from any).
            if state && !c.followsState { c.followsState = true; stateFollowers += 1 }
            c.fill(slot, .ok("subscribed"))
            send(c)
        case .state, .wait, .snapshot:
            deferred.append((c, slot, request))
        case .keyboard(let output):
            let r = runtime.keyboardReply(output: output)
            c.fill(slot, r.words.map { .ok($0) } ?? .error(r.noOutput ? .noOutput : .refused, r.why))
            send(c)
        case .askPassword(let prompt, let tries):
            prompts.ask(.password, prompt: prompt, owner: ObjectIdentifier(c), tries: tries) { [weak self, weak c] outcome in
                guard let self, let c else { return }
                switch outcome {
                case .answered(let text):
                    guard let line = Self.answerLine(text) else { return c.fill(slot, .error(.failed, "no memory for the answer")) }
                    c.fill(slot, ControlConnection.Payload(line: "", secret: line))
                case .cancelled: c.fill(slot, .error(.cancelled, "the prompt was cancelled (Ctrl-C or Ctrl-D)"))
                case .unavailable(let why): c.fill(slot, .error(.cancelled, why))
                }
                self.send(c)
            }
        }
    }

    /// `ok "TEXT"` and its newline, quoted as `CommandParser.quote` quotes (so a client reads the
    /// text back with the lexer), built in a secret's pages rather than in a String.
    static func answerLine(_ text: SecretBytes) -> SecretBytes? {
        guard let line = SecretBytes(capacity: 6 + text.count * 8) else { return nil }
        line.append(Array("ok \"".utf8))
        text.withBytes { bytes in
            for b in bytes {
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): line.append([UInt8(ascii: "\\"), b])
                case 0..<0x20, 0x7F: line.append(Array("\\u{\(String(b, radix: 16, uppercase: true))}".utf8))
                default: line.append(CollectionOfOne(b))
                }
            }
        }
        line.append(Array("\"\n".utf8))
        return line
    }

    // MARK: End of turn

    private func answerDeferred() {
        guard !deferred.isEmpty || !waiters.isEmpty else { return }
        let batch = deferred
        deferred = []
        for (c, slot, request) in batch where !c.closed {
            switch request {
            case .state: c.fill(slot, .ok(runtime.state().line))
            case .wait: waiters.append((c, slot))
            case .snapshot(let output):
                // What the requests before it changed is drawn at the next boundary: wait for it.
                if runtime.hasUndrawnChange { deferred.append((c, slot, request)); continue }
                snapshot(output, for: c, slot: slot)
            default: break
            }
            send(c)
        }
        if !waiters.isEmpty && runtime.isHidden {
            let answered = waiters
            waiters = []
            for (c, slot) in answered where !c.closed {
                c.fill(slot, .ok("hidden"))
                send(c)
            }
        }
    }

    /// Answers `slot` with the picture of output `name` (the first without one): the picture's
    /// parts are copied now and it is made whole and encoded off the loop (`SnapshotEncoder`), the
    /// reply filled once it is.
    private func snapshot(_ name: String?, for c: ControlConnection, slot: Int) {
        let outputs = runtime.outputs
        guard let index = name.map({ n in outputs.firstIndex { $0.name == n } }) ?? (outputs.isEmpty ? nil : 0) else {
            let names = outputs.map(\.name).joined(separator: ", ")
            return c.fill(slot, .error(.noOutput, "no output \(name ?? "at all"); outputs: \(names.isEmpty ? "none" : names)"))
        }
        guard !runtime.prompts.passphraseKeysShow else {
            return c.fill(slot, .error(.refused, "the on-screen keyboard shows a key held or a level other than its first while a passphrase is typed; no snapshot until it does not"))
        }
        guard c.snapshotBytes == 0 && c.snapshotsEncoding == 0 else {
            return c.fill(slot, .error(.busy, "the previous snapshot is still being sent"))
        }
        let picture = runtime.picture(output: index).detached()
        let o = outputs[index]
        let started = snapshots.encode(picture) { [weak self, weak c] png in
            guard let self, let c else { return }
            c.snapshotsEncoding -= 1
            switch png {
            case .success(let png):
                c.fill(slot, ControlConnection.Payload(line: ControlReply.ok("png \(png.count) \(o.name) \(picture.width)x\(picture.height)").line, trailer: png))
            case .failure(let error):
                c.fill(slot, .error(.failed, "encoding the snapshot: \(error)"))
            }
            send(c)
        }
        guard started else {
            return c.fill(slot, .error(.busy, "\(SnapshotEncoder.capacity) snapshots are being encoded; try again"))
        }
        c.snapshotsEncoding += 1
    }

    /// The state to each `subscribe state` client whose last one differs: checked at the end of
    /// every turn, after its requests were applied and its frame drawn (a ramping progress changes
    /// it each frame; the subscriber decides how often it passes that on).
    private func sendStates() {
        guard stateFollowers > 0 else { return }
        var now: (state: HUDState, line: String)?
        for c in host.connections.values where c.followsState && !c.closed {
            let current = now ?? { let s = runtime.state(); return (s, s.line) }()
            now = current
            guard c.stateSent != current.line else { continue }
            c.stateSent = current.line
            c.send(event: current.state.eventLine(time: runtime.scene.clock.now))
            send(c)
        }
    }

    private func broadcast(_ events: [HUDEvent]) {
        for c in host.connections.values where c.subscribed && !c.closed {
            // Key events go only to those who asked to watch keys (and may).
            for e in events where e.kind != .key || c.keyWatch != nil { c.send(event: e.line) }
            send(c)
        }
    }

    private func send(_ c: ControlConnection) { host.send(c) }
}

extension ControlServer: ConnectionOwner {
    func refusal(of peer: UnixSocket.Credentials) -> String? {
        socket.admits(peer) ? nil : "not root, not our user, not in the socket's group"
    }

    func wantsInput(_ c: ControlConnection) -> Bool { !c.peerFinished && c.owedReplies < owedLimit }

    func isWaiting(_ c: ControlConnection) -> Bool { c.subscribed || c.owedReplies > 0 }

    func overflow(_ c: ControlConnection) -> String? {
        guard c.boundedOutput > outputLimit else { return nil }
        disconnectedForOutput += 1
        return "\(c.pendingOutput) bytes unread (more than \(outputLimit)): disconnected"
    }

    func dropped(_ c: ControlConnection) {
        if c.followsState { c.followsState = false; stateFollowers -= 1 }
        prompts.withdraw(owner: ObjectIdentifier(c))
        c.keyWatch?.end()
        c.keyWatch = nil
    }
}
