// One client of the control socket: its request lines, the replies it is owed in request order,
// and what is still to be sent to it. Replies are slots filled as requests complete (a `wait` much
// later than a `ping` sent after it); the filled slots at the head go out, so replies keep the
// order of their requests. Event lines go out as they happen. Output waiting to be sent is bounded:
// a client that stops reading is cut off rather than growing the daemon.
import HUDProtocol
import LinuxSystem
import SystemPackage

final class ControlConnection {
    /// A reply line, and the bytes that follow it (a snapshot's PNG).
    struct Payload {
        var line: String
        var trailer: [UInt8] = []
    }

    let descriptor: FileDescriptor
    /// For log lines: "connection 4 (pid 812 uid 0)".
    let name: String
    var lines = CommandFIFOLineBuffer(limit: ControlProtocol.maxLineBytes)
    /// Streams events after `subscribe`.
    var subscribed = false
    /// Asked for key events (`subscribe keys`): the runtime watches keys until this one goes.
    var watchesKeys = false
    /// The peer shut its sending side: answer what it asked, then close.
    var peerFinished = false
    /// Root or the daemon's own user (SO_PEERCRED), set on accept: may send Plymouth's requests
    /// and the control socket's privileged ones.
    var trusted = false
    private(set) var closed = false

    private var slots: [Payload?] = []
    /// The id of `slots[0]`; ids only grow.
    private var firstSlot = 0
    private var output: [UInt8] = []
    private var sent = 0
    /// Bytes of snapshot PNGs queued since the output was last empty: not counted against the
    /// bound (one snapshot at a time may be larger than it).
    private(set) var snapshotBytes = 0

    init(descriptor: FileDescriptor, name: String) {
        self.descriptor = descriptor; self.name = name
    }

    /// Replies owed (requests not answered yet, and answered ones behind them).
    var owedReplies: Int { slots.count }
    /// Bytes queued and not yet taken by the socket.
    var pendingOutput: Int { output.count - sent }
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
            append(Array((ready.line + "\n").utf8))
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

    /// Output counted against the bound (snapshots excepted).
    var boundedOutput: Int { pendingOutput - snapshotBytes }

    private func append(_ bytes: [UInt8]) {
        if sent > 0 && sent == output.count { output.removeAll(keepingCapacity: true); sent = 0 }
        output += bytes
    }

    /// Sends what the socket takes now. Returns true when everything queued is sent.
    func flush() throws(SystemError) -> Bool {
        while sent < output.count {
            let r = output.withUnsafeBytes { b in
                Result { () throws(SystemError) in try UnixSocket.send(descriptor, UnsafeRawBufferPointer(rebasing: b[sent...]), subject: name) }
            }
            guard let n = try r.get() else { return false }
            sent += n
        }
        output.removeAll(keepingCapacity: output.capacity <= 65536)
        sent = 0
        snapshotBytes = 0
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
        Files.close(descriptor)
    }
}
