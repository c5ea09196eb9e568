// SPDX-License-Identifier: MIT
// What the control socket (and its abstract fallback) and Plymouth's socket share: a listening
// socket on the runtime's loop, its clients accepted into slots (ConnectionLimits: a pool for root
// and the daemon's user, a pool for everyone else with a share per uid), each named with its
// peer's credentials for the log, refused when the owner says so or when the kernel will not say
// who the peer is (SO_PEERCRED fails: no uid to judge or to count a slot against); read with a
// per-turn budget; their output sent as the socket takes it, never blocking. What is whose is the
// owner's to say (ConnectionOwner), given once with `start`. A client whose unread output passes
// the owner's bound is dropped with a log line; one that has finished sending, or that the owner
// is finishing, is closed once it has everything. A client that sends no complete request and is
// sent nothing for the idle time, while not waiting on the daemon (the owner's `isWaiting`), is
// closed: one timer on the loop, armed for the earliest such deadline only, so a daemon whose
// clients all wait (or that has none) is never woken for them. Every line a client can cause is
// logged through the runtime's `peerLog`, limited per uid on this socket.
import LinuxSystem
import Logging
import SystemPackage

final class ConnectionHost {
    let runtime: HUDRuntime
    let listener: FileDescriptor
    /// "control client", "plymouth client": the start of every client's name in the log.
    let kind: String
    /// "the control socket", "Plymouth's socket": where, in the log's summaries.
    let place: String
    var limits = ConnectionLimits()
    /// Bytes read from one client in one turn, so one cannot starve the others or the frames.
    var readBudget = 65536
    /// Decides for the clients; it owns this host (so, weak), set once by `start`.
    private weak var owner: (any ConnectionOwner)?
    /// Log level of a client's arrival.
    var arrivalLevel: Logger.Level = .info

    private(set) var connections: [Int32: ControlConnection] = [:]
    /// Slots taken in each pool, and per uid in the unprivileged one.
    private var privilegedCount = 0
    private var unprivilegedCount = 0
    private var perUID: [UInt32: Int] = [:]
    private var idleTimer: LoopTimer?
    private var idleTimerDeadline = Int64.max
    private var nextID = 1
    private var closed = false
    private var peerLog: LogRateLimiter { runtime.peerLog }
    /// The runtime's loop, which watches the listener and every client.
    private unowned let loop: EventLoop

    /// For `listener`; nothing is accepted before `start`.
    init(runtime: HUDRuntime, listener: FileDescriptor, kind: String, place: String) {
        self.runtime = runtime; self.loop = runtime.loop; self.listener = listener; self.kind = kind; self.place = place
    }

    /// Watches the listener on the runtime's loop, its clients decided by `owner` from now on.
    func start(owner: any ConnectionOwner) throws {
        self.owner = owner
        try loop.watch(listener.rawValue, interest: .read) { [unowned self] _ in acceptAll() }
    }

    /// Stops accepting; `last` runs for every client (answering what is owed) before what the
    /// sockets take now is sent and they are closed. The listener is the owner's to close.
    func close(last: (ControlConnection) -> Void = { _ in }) {
        guard !closed else { return }
        closed = true
        runtime.unwatch(listener.rawValue)
        if let idleTimer { runtime.cancel(idleTimer) }
        idleTimer = nil
        for c in connections.values {
            last(c)
            _ = try? c.flush()
            drop(c, reason: nil)
        }
    }

    /// Connections open now for `uid`.
    func count(uid: UInt32) -> Int { connections.values.count { $0.peer.uid == uid } }

    /// Root and the daemon's own user: their own pool, and the right to use everything.
    static func isPrivileged(_ peer: UnixSocket.Credentials) -> Bool {
        peer.uid == 0 || peer.uid == Files.effectiveUserID
    }

    // MARK: Accepting

    private func acceptAll() {
        while !closed {
            let fd: FileDescriptor?
            do { fd = try UnixSocket.accept(listener, subject: kind) } catch {
                peerLog.log(.error, "accept errors", from: place, "\(error)")
                return
            }
            guard let fd else { return }
            let peer: UnixSocket.Credentials
            do { peer = try UnixSocket.peerCredentials(fd, subject: kind) } catch {
                peerLog.log(.warning, "refused connections", from: "unknown peers on \(place)",
                            "\(kind) \(nextID) refused: who it is cannot be read (\(error))")
                nextID += 1
                Files.close(fd)
                continue
            }
            let name = "\(kind) \(nextID) (pid \(peer.pid) uid \(peer.uid) gid \(peer.gid))"
            let origin = "uid \(peer.uid) on \(place)"
            nextID += 1
            let privileged = Self.isPrivileged(peer)
            if let why = owner?.refusal(of: peer) ?? noSlot(for: peer, privileged: privileged) {
                peerLog.log(.warning, "refused connections", from: origin, "\(name) refused: \(why)")
                Files.close(fd)
                continue
            }
            let c = ControlConnection(descriptor: fd, name: name, peer: peer, origin: origin)
            // Set once, here: it also says which pool the slot is given back to.
            c.trusted = privileged
            c.lastActive = runtime.now
            owner?.accepted(c)
            do {
                try loop.watch(fd.rawValue, interest: .read) { [unowned self, unowned c] r in handle(c, r) }
            } catch {
                peerLog.log(.error, "disconnections", from: origin, "\(name): \(error)")
                c.close()
                owner?.dropped(c)
                continue
            }
            connections[fd.rawValue] = c
            take(slotOf: c)
            peerLog.log(arrivalLevel, "connections", from: origin, "\(name) connected")
            armIdleTimer(at: c.lastActive + idleLimit(c))
        }
    }

    /// Why `peer` gets no slot, nil when one is free for it.
    private func noSlot(for peer: UnixSocket.Credentials, privileged: Bool) -> String? {
        if privileged {
            guard privilegedCount < limits.privileged else {
                return "\(limits.privileged) connections of root and uid \(Files.effectiveUserID) are open already"
            }
            return nil
        }
        let uid = peer.uid
        if perUID[uid, default: 0] >= limits.perUID { return "uid \(uid) has \(limits.perUID) connections open already" }
        if unprivilegedCount >= limits.unprivileged { return "\(limits.unprivileged) connections of other users are open already" }
        return nil
    }

    private func take(slotOf c: ControlConnection) {
        if c.trusted { privilegedCount += 1; return }
        unprivilegedCount += 1
        perUID[c.peer.uid, default: 0] += 1
    }

    private func release(slotOf c: ControlConnection) {
        if c.trusted { privilegedCount -= 1; return }
        unprivilegedCount -= 1
        let uid = c.peer.uid
        let left = perUID[uid, default: 1] - 1
        perUID[uid] = left > 0 ? left : nil
    }

    // MARK: Reading and sending

    /// Reading from `c` now: neither finishing nor held back by its owner.
    private func reading(_ c: ControlConnection) -> Bool { !c.finishing && owner?.wantsInput(c) == true }

    private func handle(_ c: ControlConnection, _ r: LoopReadiness) {
        // Not watched for reading, so this is EPOLLHUP (closed both ways) or an error: it is gone.
        if !reading(c) && (r.hangup || r.error) { return drop(c, reason: nil) }
        if r.readable || r.hangup || r.error { read(c) }
        guard !c.closed else { return }
        if r.writable || c.pendingOutput > 0 { send(c) }
    }

    private func read(_ c: ControlConnection) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while total < readBudget && !c.closed && reading(c) {
            let n: Int?
            do { n = try chunk.withUnsafeMutableBytes { try Files.read(c.descriptor, into: $0, subject: c.name) } } catch {
                return drop(c, failing: error)
            }
            guard let n else { return }
            if n == 0 {
                c.peerFinished = true
                return send(c)
            }
            total += n
            owner?.received(chunk[0..<n], from: c)
        }
    }

    /// Sends what the socket takes; watches for room when some is left; cuts off a client past
    /// the bound; closes a finished client once it has everything.
    func send(_ c: ControlConnection) {
        guard !c.closed else { return }
        // Being answered is activity too: a `wait` answered after an hour gets the whole idle time.
        if c.pendingOutput > 0 { heard(c) }
        do { _ = try c.flush() } catch { return drop(c, failing: error) }
        if let why = owner?.overflow(c) { return drop(c, reason: why) }
        if (c.peerFinished || c.finishing) && c.isIdle { return drop(c, reason: nil) }
        var interest: LoopInterest = reading(c) ? .read : []
        if c.pendingOutput > 0 { interest.insert(.write) }
        do { try loop.setInterest(c.descriptor.rawValue, interest) } catch { drop(c, reason: "\(error)") }
    }

    /// Drops `c` after its read or write failed. A peer that hung up (EPIPE, ECONNRESET) ended as
    /// peers do, not a fault: systemd writes each unit's status to Plymouth's socket and never
    /// reads the ACK. Anything else is worth a warning.
    private func drop(_ c: ControlConnection, failing error: any Error) {
        guard let e = error as? SystemError, e.errno == .brokenPipe || e.errno == .connectionReset else {
            return drop(c, reason: "\(error)")
        }
        guard !c.closed else { return }
        peerLog.log(.debug, "closes", from: c.origin, "\(c.name) closed before its answer")
        forget(c)
    }

    func drop(_ c: ControlConnection, reason: String?) {
        guard !c.closed else { return }
        if let reason {
            peerLog.log(.warning, "disconnections", from: c.origin, "\(c.name): \(reason)")
        } else {
            peerLog.log(.debug, "closes", from: c.origin, "\(c.name) closed")
        }
        forget(c)
    }

    private func forget(_ c: ControlConnection) {
        runtime.unwatch(c.descriptor.rawValue)
        connections[c.descriptor.rawValue] = nil
        release(slotOf: c)
        c.close()
        owner?.dropped(c)
    }

    // MARK: Idle clients

    /// `c` sent a complete request (or is being answered): its idle time starts again.
    func heard(_ c: ControlConnection) {
        c.lastActive = runtime.now
        armIdleTimer(at: c.lastActive + idleLimit(c))
    }

    private func idleLimit(_ c: ControlConnection) -> Int64 {
        c.trusted ? limits.idleNanoseconds : limits.untrustedIdleNanoseconds ?? limits.idleNanoseconds
    }

    /// Makes sure the timer fires at `deadline` or before; a later deadline needs nothing (the
    /// sweep finds the next one).
    private func armIdleTimer(at deadline: Int64) {
        guard !closed, deadline < idleTimerDeadline else { return }
        if let idleTimer { runtime.cancel(idleTimer) }
        idleTimerDeadline = deadline
        idleTimer = runtime.schedule(at: deadline) { [weak self] in self?.closeIdle() }
    }

    /// Closes the clients idle for their whole limit and arms the timer for the next one. Those
    /// waiting on the daemon get no deadline: what ends their wait (an answer, a request) is
    /// activity, which arms the timer again.
    private func closeIdle() {
        idleTimer = nil
        idleTimerDeadline = .max
        let now = runtime.now
        var next = Int64.max
        for c in Array(connections.values) where !c.closed && owner?.isWaiting(c) != true {
            let limit = idleLimit(c)
            let deadline = c.lastActive + limit
            guard deadline <= now else {
                next = min(next, deadline)
                continue
            }
            peerLog.log(.info, "idle closes", from: c.origin,
                        "\(c.name): no complete request for \(LogRateLimiter.duration(limit)): closed")
            forget(c)
        }
        if next < .max { armIdleTimer(at: next) }
    }
}

extension ConnectionLimits {
    /// For the start-up line: "64 connections for root and uid 0, 64 for others (8 per uid); idle
    /// ones closed after 30 s".
    var summary: String {
        let idle = LogRateLimiter.duration(idleNanoseconds)
        let guests = untrustedIdleNanoseconds.map { ", \(LogRateLimiter.duration($0)) for those it refuses" } ?? ""
        return "\(privileged) connections for root and uid \(Files.effectiveUserID), \(unprivileged) for others (\(perUID) per uid); "
            + "idle ones closed after \(idle)\(guests)"
    }
}
