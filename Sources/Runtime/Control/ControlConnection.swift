// SPDX-License-Identifier: MIT
// One client of the control socket: its request lines, the replies it is owed in request order,
// and what is still to be sent to it. Replies are slots filled as requests complete (a `wait` much
// later than a `ping` sent after it); the filled slots at the head go out, so replies keep the
// order of their requests. Event lines go out as they happen. Output waiting to be sent is bounded:
// a client that stops reading is cut off rather than growing the daemon.
// A secret reply (a passphrase) never enters the ordinary output array, whose growth for what
// follows it (a snapshot's PNG) would free a copy unzeroed: it waits in its own pages, a segment
// of the queue marked by where it goes in the ordinary bytes, is written to the socket from there
// and zeroed once written (or when the connection closes).
import HUDProtocol
import LinuxSystem
import SystemPackage

final class ControlConnection {
    /// A reply line, and the bytes that follow it (a snapshot's PNG).
    struct Payload {
        var line: String
        var trailer: [UInt8] = []
        /// A whole reply line that holds a secret (ask-password's answer), sent in place of `line`.
        var secret: SecretBytes?
    }

    let descriptor: FileDescriptor
    /// For log lines: "connection 4 (pid 812 uid 0)".
    let name: String
    /// Who is at the other end (SO_PEERCRED; a peer the kernel would not name is refused).
    let peer: UnixSocket.Credentials
    /// The source its log lines are limited as: its uid on its socket ("uid 1000 on the control
    /// socket"), so that reconnecting buys no fresh allowance.
    let origin: String
    var lines = CommandFIFOLineBuffer(limit: ControlProtocol.maxLineBytes)
    /// Streams events after `subscribe`.
    var subscribed = false
    /// Asked for the state as well (`subscribe state`), and the state line it was sent last.
    var followsState = false
    var stateSent: String?
    /// Asked for key events (`subscribe keys`): the runtime watches keys until this one goes.
    /// Its key watch while it has subscribed to keys.
    var keyWatch: KeyWatch?
    /// The peer shut its sending side: answer what it asked, then close.
    var peerFinished = false
    /// Root or the daemon's own user (SO_PEERCRED), set on accept: may send Plymouth's requests
    /// and the control socket's privileged ones.
    var trusted = false
    /// When it last sent a complete request or was sent something (the loop's clock, ns): its
    /// idle time counts from here.
    var lastActive: Int64 = 0
    /// Answer what is queued, read nothing more, then close (a Plymouth peer that may not use it).
    var finishing = false
    private(set) var closed = false

    private var slots: [Payload?] = []
    /// The id of `slots[0]`; ids only grow.
    private var firstSlot = 0
    /// The ordinary bytes queued, `sent` of them taken by the socket; never a secret.
    private var output: [UInt8] = []
    private var sent = 0
    /// Secrets queued, in order: each goes once `output` up to its `at` has gone.
    private var secrets: [SecretSegment] = []
    /// Bytes of snapshot PNGs queued since the output was last empty: not counted against the
    /// bound (one snapshot at a time may be larger than it).
    private(set) var snapshotBytes = 0
    /// Snapshots of this client being encoded off the loop (one at a time).
    var snapshotsEncoding = 0

    private struct SecretSegment {
        /// Where in `output` it goes: after the bytes before this index.
        let at: Int
        let bytes: SecretBytes
        /// How many of its bytes the socket took.
        var sent = 0
    }

    init(descriptor: FileDescriptor, name: String, peer: UnixSocket.Credentials, origin: String) {
        self.descriptor = descriptor; self.name = name; self.peer = peer; self.origin = origin
    }

    /// Replies owed (requests not answered yet, and answered ones behind them).
    var owedReplies: Int { slots.count }
    /// Bytes queued and not yet taken by the socket.
    var pendingOutput: Int {
        secrets.reduce(output.count - sent) { $0 + $1.bytes.count - $1.sent }
    }
    var isIdle: Bool { slots.isEmpty && pendingOutput == 0 }

    /// A slot for the next request's reply; fill it with `fill`.
    func openSlot() -> Int {
        slots.append(nil)
        return firstSlot + slots.count - 1
    }

    /// Answers request `slot`; replies whose earlier ones are all answered are queued for sending.
    func fill(_ slot: Int, _ payload: Payload) {
        let i = slot - firstSlot
        guard !closed, i >= 0, i < slots.count, slots[i] == nil else { return }
        slots[i] = payload
        while let first = slots.first, let ready = first {
            slots.removeFirst()
            firstSlot += 1
            if let secret = ready.secret {
                send(secret: secret)
            } else {
                append(Array((ready.line + "\n").utf8))
            }
            if !ready.trailer.isEmpty {
                snapshotBytes += ready.trailer.count
                append(ready.trailer)
            }
        }
    }

    func fill(_ slot: Int, _ reply: ControlReply) { fill(slot, Payload(line: reply.line)) }

    /// An event line (subscribers only), after whatever is queued.
    func send(event line: String) {
        guard !closed else { return }
        append(Array((line + "\n").utf8))
    }

    /// Raw bytes (a Plymouth reply), after whatever is queued.
    func send(raw bytes: [UInt8]) {
        guard !closed else { return }
        append(bytes)
    }

    /// A secret (a passphrase answer), after whatever is queued: the connection takes `secret`
    /// itself (no copy) and zeroes it once the socket has taken it all, or when it closes.
    func send(secret: SecretBytes) {
        guard !closed else { return secret.removeAll() }
        if allSent { forgetOutput() }
        secrets.append(SecretSegment(at: output.count, bytes: secret))
    }

    /// Output counted against the bound (snapshots excepted).
    var boundedOutput: Int { pendingOutput - snapshotBytes }

    private func append(_ bytes: [UInt8]) {
        if allSent { forgetOutput() }
        output += bytes
    }

    /// Some output was queued and the socket has taken all of it.
    private var allSent: Bool { sent > 0 && sent == output.count && secrets.isEmpty }

    /// Empties the output (all of it sent or abandoned); a secret abandoned is zeroed.
    private func forgetOutput(keepingCapacity: Bool = true) {
        for s in secrets { s.bytes.removeAll() }
        secrets.removeAll()
        output.removeAll(keepingCapacity: keepingCapacity)
        sent = 0
    }

    /// Sends what the socket takes now. Returns true when everything queued is sent.
    func flush() throws(SystemError) -> Bool {
        while true {
            let end = secrets.first?.at ?? output.count
            while sent < end {
                let r = output.withUnsafeBytes { b in
                    Result { () throws(SystemError) in try UnixSocket.send(descriptor, UnsafeRawBufferPointer(rebasing: b[sent..<end]), subject: name) }
                }
                guard let n = try r.get() else { return false }
                sent += n
            }
            guard !secrets.isEmpty else { break }
            guard try flushSecret() else { return false }
        }
        forgetOutput(keepingCapacity: output.capacity <= 65536)
        snapshotBytes = 0
        return true
    }

    /// Sends what the socket takes of the first secret, from its own pages; zeroes and drops it
    /// once all of it is sent. Returns false when the socket is full.
    private func flushSecret() throws(SystemError) -> Bool {
        while secrets[0].sent < secrets[0].bytes.count {
            let from = secrets[0].sent
            let r = secrets[0].bytes.withBytes { b in
                Result { () throws(SystemError) in try UnixSocket.send(descriptor, UnsafeRawBufferPointer(rebasing: b[from...]), subject: name) }
            }
            guard let n = try r.get() else { return false }
            secrets[0].sent += n
        }
        secrets.removeFirst().bytes.removeAll()
        return true
    }

    /// Answers every open slot with `reply` (the daemon is ending), so the client is not left
    /// waiting; the rest of its replies go out with them.
    func answerAll(_ reply: ControlReply) {
        let open = slots.indices.filter { slots[$0] == nil }.map { firstSlot + $0 }
        for slot in open { fill(slot, reply) }
    }

    func close() {
        guard !closed else { return }
        closed = true
        forgetOutput(keepingCapacity: false)
        Files.close(descriptor)
    }
}
