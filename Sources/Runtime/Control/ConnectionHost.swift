// What the control socket and Plymouth's socket share: a listening socket on the runtime's loop,
// its clients accepted (up to a limit, each named with its peer's credentials for the log, refused
// when the owner says so), read with a per-turn budget, and their output sent as the socket takes
// it, never blocking. A client whose unread output passes the owner's bound is dropped with a log
// line; one that has finished sending is closed once it has everything.
import LinuxSystem
import Logging
import SystemPackage

final class ConnectionHost {
    let runtime: HUDRuntime
    let listener: FileDescriptor
    /// "control client", "plymouth client": the start of every client's name in the log.
    let kind: String
    var connectionLimit = 64
    /// Bytes read from one client in one turn, so one cannot starve the others or the frames.
    var readBudget = 65536
    /// Why `peer` may not connect, nil when it may.
    var refusal: (UnixSocket.Credentials?) -> String? = { _ in nil }
    /// Sets a new client up (its trust, its decoder) before its first bytes.
    var accepted: (ControlConnection, UnixSocket.Credentials?) -> Void = { _, _ in }
    /// Bytes a client sent.
    var received: (ControlConnection, ArraySlice<UInt8>) -> Void = { _, _ in }
    /// Whether to read from a client now (false: its requests wait in its socket).
    var wantsInput: (ControlConnection) -> Bool = { !$0.peerFinished }
    /// Why a client's unread output is too much, nil when it is not.
    var overflow: (ControlConnection) -> String? = { _ in nil }
    /// A client is gone (its state can be forgotten).
    var dropped: (ControlConnection) -> Void = { _ in }
    /// Log level of a client's arrival.
    var arrivalLevel: Logger.Level = .info

    private(set) var connections: [Int32: ControlConnection] = [:]
    private var nextID = 1
    private var closed = false
    private var logger: Logger { runtime.logger }

    /// Watches `listener` on `runtime`'s loop.
    init(runtime: HUDRuntime, listener: FileDescriptor, kind: String) throws {
        self.runtime = runtime; self.listener = listener; self.kind = kind
        try runtime.loop.watch(listener.rawValue, interest: .read) { [unowned self] _ in acceptAll() }
    }

    /// Stops accepting; `last` runs for every client (answering what is owed) before what the
    /// sockets take now is sent and they are closed. The listener is the owner's to close.
    func close(last: (ControlConnection) -> Void = { _ in }) {
        guard !closed else { return }
        closed = true
        runtime.unwatch(listener.rawValue)
        for c in connections.values {
            last(c)
            _ = try? c.flush()
            drop(c, reason: nil)
        }
    }

    private func acceptAll() {
        while !closed {
            let fd: FileDescriptor?
            do { fd = try UnixSocket.accept(listener, subject: kind) } catch {
                logger.error("\(error)")
                return
            }
            guard let fd else { return }
            let peer = try? UnixSocket.peerCredentials(fd, subject: kind)
            let name = "\(kind) \(nextID) (\(peer.map { "pid \($0.pid) uid \($0.uid) gid \($0.gid)" } ?? "unknown peer"))"
            nextID += 1
            if let why = refusal(peer) ?? (connections.count < connectionLimit ? nil : "\(connectionLimit) clients are connected already") {
                logger.warning("\(name) refused: \(why)")
                Files.close(fd)
                continue
            }
            let c = ControlConnection(descriptor: fd, name: name)
            c.trusted = peer.map { $0.uid == 0 || $0.uid == Files.effectiveUserID } ?? false
            accepted(c, peer)
            do {
                try runtime.loop.watch(fd.rawValue, interest: .read) { [unowned self, unowned c] r in handle(c, r) }
            } catch {
                logger.error("\(name): \(error)")
                Files.close(fd)
                continue
            }
            connections[fd.rawValue] = c
            logger.log(level: arrivalLevel, "\(name) connected")
        }
    }

    private func handle(_ c: ControlConnection, _ r: LoopReadiness) {
        // Not watched for reading, so this is EPOLLHUP (closed both ways) or an error: it is gone.
        if !wantsInput(c) && (r.hangup || r.error) { return drop(c, reason: nil) }
        if r.readable || r.hangup || r.error { read(c) }
        guard !c.closed else { return }
        if r.writable || c.pendingOutput > 0 { send(c) }
    }

    private func read(_ c: ControlConnection) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while total < readBudget && !c.closed && wantsInput(c) {
            let n: Int?
            do { n = try chunk.withUnsafeMutableBytes { try Files.read(c.descriptor, into: $0, subject: c.name) } } catch {
                return drop(c, reason: "\(error)")
            }
            guard let n else { return }
            if n == 0 {
                c.peerFinished = true
                return send(c)
            }
            total += n
            received(c, chunk[0..<n])
        }
    }

    /// Sends what the socket takes; watches for room when some is left; cuts off a client past
    /// the bound; closes a finished client once it has everything.
    func send(_ c: ControlConnection) {
        guard !c.closed else { return }
        do { _ = try c.flush() } catch { return drop(c, reason: "\(error)") }
        if let why = overflow(c) { return drop(c, reason: why) }
        if c.peerFinished && c.isIdle { return drop(c, reason: nil) }
        var interest: LoopInterest = wantsInput(c) ? .read : []
        if c.pendingOutput > 0 { interest.insert(.write) }
        do { try runtime.loop.setInterest(c.descriptor.rawValue, interest) } catch { drop(c, reason: "\(error)") }
    }

    func drop(_ c: ControlConnection, reason: String?) {
        guard !c.closed else { return }
        if let reason { logger.warning("\(c.name): \(reason)") } else { logger.debug("\(c.name) closed") }
        runtime.unwatch(c.descriptor.rawValue)
        connections[c.descriptor.rawValue] = nil
        c.close()
        dropped(c)
    }
}
