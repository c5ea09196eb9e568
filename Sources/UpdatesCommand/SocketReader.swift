// SPDX-License-Identifier: MIT
// One connection to a framework's socket (or a pipe from it), read as the bytes come, and the
// wait between attempts to make one: what each source does the same way (SWUpdate's progress and
// control sockets, bootc's pipes).
import HUDClient
import HUDProtocol
import LinuxSystem
import SystemPackage
import UpdateSources

/// A connected Unix stream socket (or a pipe) read through poll(2).
struct SocketReader: ~Copyable {
    let fd: FileDescriptor
    let path: String
    private var chunk: [UInt8]

    init(connectingTo path: String, chunk: Int = 65_536) throws(SystemError) {
        fd = try UnixSocket.connect(to: path)
        self.path = path
        self.chunk = [UInt8](repeating: 0, count: chunk)
    }

    /// Reads `fd` (closed with the reader), `path` naming it in errors.
    init(adopting fd: FileDescriptor, path: String, chunk: Int = 65_536) {
        self.fd = fd
        self.path = path
        self.chunk = [UInt8](repeating: 0, count: chunk)
    }

    deinit { Files.close(fd) }

    /// The next bytes, waiting for them as long as it takes; nil once the peer closed.
    mutating func next() throws(SystemError) -> ArraySlice<UInt8>? {
        while true {
            _ = try Poll.wait(fd, for: .read, timeoutMilliseconds: -1, subject: path)
            let (fd, path) = (self.fd, self.path)
            let n = try chunk.withUnsafeMutableBytes { b in Result { () throws(SystemError) in try Files.read(fd, into: b, subject: path) } }.get()
            guard let n else { continue }
            return n == 0 ? nil : chunk[..<n]
        }
    }
}

/// Why a source's connection ended other than by the peer closing it.
enum SourceError: Error, CustomStringConvertible {
    case system(SystemError)
    case wire(SWUpdateWireError)
    case message(SWUpdateFrameError)

    var description: String {
        switch self {
        case .system(let e): return "\(e)"
        case .wire(let e): return "\(e)"
        case .message(let e): return "not an ipc_message: \(e)"
        }
    }
}

/// A thread's wait between connection attempts (back-off), and what it said last, so a state
/// that lasts (SWUpdate not there) is logged once, not at every attempt.
struct Retrying {
    private var backoff = Backoff(base: .milliseconds(100), cap: .seconds(5))
    private let idle: EventFd
    private var said: String?

    init() throws(SystemError) { idle = try EventFd() }

    mutating func connected() { backoff.reset() }

    /// Waits the next back-off delay.
    mutating func pause() {
        _ = try? Poll.wait(idle.descriptor, for: .read, timeoutMilliseconds: Int32(clamping: backoff.next().nanoseconds / 1_000_000), subject: "back-off")
    }

    /// Logs `text` unless it was the last thing said.
    mutating func say(_ text: String) {
        guard said != text else { return }
        said = text
        Log.say(text)
    }
}
