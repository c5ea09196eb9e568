// SPDX-License-Identifier: MIT
// A crowd of socket peers of another user (uid 65534, through setpriv) for the tests of the
// daemon's connection slots: a Python helper opens COUNT connections to a socket (a path, or
// "@name" in the abstract namespace) and keeps them, sending nothing unless told to. With
// `reconnect` it opens a new one for each the daemon closes (at most 5 every 20 ms: a churn that
// lasts, not a spin on a shared machine), so the crowd presses on the limits while it runs. Ten times a
// second it prints how many are open, how many the daemon closed, how many could not connect,
// and how many bytes came back; the test reads that without blocking while it runs the daemon.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

public final class UnprivilegedPeers {
    public struct Report: Equatable, Sendable {
        public var alive = 0, closed = 0, failed = 0, reconnects = 0, received = 0
    }

    static let setpriv = "/usr/bin/setpriv", python = "/usr/bin/python3"
    /// Root (to switch users), setpriv and Debian's python3 (pyenv's shims are root's only).
    public static var available: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: setpriv) && FileManager.default.isExecutableFile(atPath: python)
    }

    public let process = Process()
    private let output = Pipe()
    private var text = ""
    /// The last report printed, nil before the first (which comes once all COUNT were tried).
    public private(set) var latest: Report?

    /// Starts COUNT peers of `uid` (group 65534) at `address` for `seconds`; each sends `send`
    /// once connected.
    public init(address: String, count: Int, seconds: Double, reconnect: Bool = false, send: [UInt8] = [],
                uid: UInt32 = 65534) throws {
        process.executableURL = URL(fileURLWithPath: Self.setpriv)
        process.arguments = ["--reuid=\(uid)", "--regid=65534", "--clear-groups", Self.python, "-c", Self.script,
                             address, "\(count)", "\(seconds)", reconnect ? "1" : "0", send.map { String(format: "%02x", $0) }.joined()]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let fd = output.fileHandleForReading.fileDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        try process.run()
    }

    deinit { stop() }

    /// Reads what the helper printed since; returns the latest report.
    @discardableResult
    public func poll() -> Report? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(output.fileHandleForReading.fileDescriptor, &chunk, chunk.count)
            guard n > 0 else { break }
            text += String(decoding: chunk[0..<n], as: UTF8.self)
        }
        while let nl = text.firstIndex(of: "\n") {
            let fields = text[..<nl].split(separator: " ")
            text.removeSubrange(...nl)
            var values: [String: Int] = [:]
            for pair in stride(from: 0, to: fields.count - 1, by: 2) { values[String(fields[pair])] = Int(fields[pair + 1]) }
            latest = Report(alive: values["alive"] ?? 0, closed: values["closed"] ?? 0, failed: values["failed"] ?? 0,
                            reconnects: values["reconnects"] ?? 0, received: values["received"] ?? 0)
        }
        return latest
    }

    /// Ends the helper (its sockets close with it). SIGKILL: a child Foundation spawns may have
    /// SIGTERM blocked.
    public func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    static let script = #"""
import resource, select, socket, sys, time
address, count, seconds, reconnect, payload = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4] == "1", bytes.fromhex(sys.argv[5])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
if address.startswith("@"):
    address = "\0" + address[1:]
peers, poller = {}, select.poll()
stats = {"alive": 0, "closed": 0, "failed": 0, "reconnects": 0, "received": 0}
def open_one():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    try:
        s.connect(address)
        if payload:
            s.sendall(payload)
    except OSError:
        s.close()
        stats["failed"] += 1
        return
    s.setblocking(False)
    peers[s.fileno()] = s
    poller.register(s.fileno(), select.POLLIN)
def report():
    stats["alive"] = len(peers)
    print(" ".join(f"{k} {v}" for k, v in stats.items()), flush=True)
for _ in range(count):
    open_one()
end, next_report = time.monotonic() + seconds, 0.0
while time.monotonic() < end:
    if time.monotonic() >= next_report:
        report()
        next_report = time.monotonic() + 0.1
    for fd, _ in poller.poll(20):
        s = peers.get(fd)
        try:
            data = s.recv(65536)
        except BlockingIOError:
            continue
        except OSError:
            data = b""
        if data:
            stats["received"] += len(data)
            continue
        poller.unregister(fd)
        del peers[fd]
        s.close()
        stats["closed"] += 1
    if reconnect:
        for _ in range(min(5, count - len(peers))):
            open_one()
            stats["reconnects"] += 1
        time.sleep(0.02)
report()
"""#
}
