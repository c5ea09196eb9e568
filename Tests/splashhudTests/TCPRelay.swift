// SPDX-License-Identifier: MIT
// A small TCP forwarder between splashhud-mqtt and a real Mosquitto, for what the network or a
// broker does that Debian 12's Mosquitto cannot be made to: a cut that closes nothing
// (MQTTBridgeResilienceTests), a broker that speaks only MQTT 3.1.1 and one that never answers a
// CONNECT (MQTTBridgeConnectTests). Whatever it passes on is the real broker's.
import Foundation
import Testing

/// A TCP forwarder on a free loopback port to the broker's, driven by lines on its standard input:
/// `stall` (hold every byte, keep connections open, close new ones at once), `mute-up` (drop what
/// the client sends, pass what the broker sends), `heal` (close every connection, pass again).
/// For new connections only: `refuse-v5` (a CONNECT of protocol level 5 is answered as a broker
/// that speaks only 3.1.1 answers it, a 3.1.1 CONNACK with return code 1 "unacceptable protocol
/// version", and closed; any other is passed on) and `silent` (accepted and read, never answered,
/// never closed: a broker that hangs). Each connection accepted prints `accepted`.
final class TCPRelay: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let lock = NSLock()
    private var buffer = Data()
    private(set) var port = 0

    static let script = #"""
        import selectors, socket, sys
        upstream = int(sys.argv[1])
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        print(listener.getsockname()[1], flush=True)
        sel = selectors.DefaultSelector()
        sel.register(listener, selectors.EVENT_READ, "accept")
        sel.register(sys.stdin, selectors.EVENT_READ, "control")
        mode, peers = "pass", {}   # peers: socket -> (its peer, whether it is the client's side)
        first = {}                 # a new connection held by refuse-v5 or silent: socket -> (its mode, bytes read)
        def connect_up(c, buffered):
            u = socket.create_connection(("127.0.0.1", upstream))
            for s in (c, u): s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            peers[c], peers[u] = (u, True), (c, False)
            sel.register(c, selectors.EVENT_READ, "data"); sel.register(u, selectors.EVENT_READ, "data")
            if buffered: u.sendall(buffered)
        def level(b):
            # CONNECT: the fixed header, the remaining length (1 to 4 bytes), 00 04 "MQTT", the level.
            i = 1
            while i < len(b) and b[i] & 0x80: i += 1
            i += 7
            return b[i] if i < len(b) else None
        def close_all():
            for s in list(peers):
                try: sel.unregister(s)
                except Exception: pass
                s.close()
            peers.clear()
        while True:
            for key, _ in sel.select():
                if key.data == "accept":
                    c, _ = listener.accept()
                    print("accepted", flush=True)
                    if mode == "stall":
                        c.close(); continue
                    if mode in ("refuse-v5", "silent"):
                        first[c] = (mode, b"")
                        sel.register(c, selectors.EVENT_READ, "first"); continue
                    connect_up(c, b"")
                elif key.data == "first":
                    c = key.fileobj
                    held, got = first[c]
                    try: data = c.recv(65536)
                    except OSError: data = b""
                    if not data:
                        sel.unregister(c); c.close(); first.pop(c); continue
                    if held == "silent": continue
                    got += data
                    first[c] = (held, got)
                    v = level(got)
                    if v is None: continue
                    sel.unregister(c); first.pop(c)
                    if v == 5:
                        c.sendall(bytes([0x20, 0x02, 0x00, 0x01])); c.close()
                        print("refused v5", flush=True)
                    else:
                        connect_up(c, got)
                elif key.data == "control":
                    line = sys.stdin.readline().strip()
                    if not line: sys.exit(0)
                    if line == "stall":
                        for s in peers: sel.unregister(s)
                    elif line == "heal":
                        close_all()
                        line = "heal"
                    mode = "pass" if line == "heal" else line
                    print("ok " + line, flush=True)
                else:
                    s = key.fileobj
                    if s not in peers: continue
                    peer, client_side = peers[s]
                    try: data = s.recv(65536)
                    except OSError: data = b""
                    if not data:
                        for x in (s, peer):
                            try: sel.unregister(x)
                            except Exception: pass
                            x.close(); peers.pop(x, None)
                    elif not (client_side and mode == "mute-up"):
                        peer.sendall(data)
        """#

    init(to upstream: Int) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.script, "\(upstream)"]
        process.standardInput = input
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            guard let self else { return }
            self.lock.lock(); self.buffer.append(d); self.lock.unlock()
        }
        try process.run()
        #expect(wait { Int($0.first ?? "") != nil }, "the relay did not start: \(lines)")
        port = Int(lines.first ?? "") ?? 0
    }

    deinit { end() }

    /// SIGKILL: children of the test runner start with SIGTERM blocked.
    func end() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }

    var lines: [String] {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: buffer, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// How many connections it accepted so far.
    var accepted: Int { lines.filter { $0 == "accepted" }.count }

    /// Sends `command` and waits for its `ok`.
    func send(_ command: String) {
        let before = lines.filter { $0 == "ok " + command }.count
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        #expect(wait { $0.filter { $0 == "ok " + command }.count > before }, "relay: no ok for \(command): \(lines)")
    }

    func wait(seconds: Double = 5, _ condition: ([String]) -> Bool) -> Bool {
        let deadline = Date() + seconds
        while Date() < deadline {
            if condition(lines) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition(lines)
    }
}
