// SPDX-License-Identifier: MIT
// A connection to `splashhudd`'s control socket, for the CLI and the Swift API's remote side. It
// never waits past its deadline: connecting, sending and every reply are bounded by a timeout, so a
// daemon that is absent, stopped (SIGSTOP) or wedged costs a boot script at most that long. What
// it reads is bounded too (a line, the events kept, a snapshot), and on the abstract fallback it
// checks whom it talks to first (ServerTrust). Links only the protocol and the system layer.
import HUDProtocol
import LinuxSystem
import SystemPackage

/// One connection to `splashhudd`'s control socket, every wait bounded.
///
/// Connecting, sending and every reply are bounded by ``timeoutMilliseconds``, so a daemon that is
/// absent, stopped (SIGSTOP) or wedged costs the caller at most that long. A request is one line of
/// the command language or a control verb (`ping`, `state`, `wait`, `subscribe`, `snapshot`); its
/// reply is `ok [DATA]` or `error CODE MESSAGE` (docs/protocol.md). Not thread-safe: use one per
/// thread, or ``RemoteHUD``, which queues requests from any thread.
public final class ControlClient {
    /// The socket we reached: the path, or its abstract fallback "@PATH".
    public let socket: String
    /// How long one request may take, in milliseconds.
    public var timeoutMilliseconds: Int32
    private let descriptor: FileDescriptor
    private var input: [UInt8] = []
    private var start = 0
    /// What each read(2) lands in, made at the first read and kept (a pipeline reads many times);
    /// not zeroed, as read(2) writes what it returns: a client that never reads pays nothing.
    private var chunk: UnsafeMutableRawBufferPointer?
    /// Event lines read while waiting for a reply, oldest first.
    private var events: [HUDEvent] = []
    private var closed = false

    /// The longest reply or event line read, without its newline; the daemon's are far shorter, so
    /// a longer one is not the protocol (and cannot grow the client's memory).
    public static let maxReplyLineBytes = 65536
    /// Event lines kept while a reply is awaited; more is not the protocol.
    public static let maxPendingEvents = 4096
    /// The largest output side a snapshot may have (the largest a display's mode may have).
    public static let maxSnapshotSide = 16384

    /// The most bytes a snapshot's PNG of `width`x`height` may have: every pixel RGBA8 with each
    /// row's filter byte, stored without compression, plus 1/64 and 64 KiB for zlib's and PNG's
    /// framing (zlib adds 5 bytes a stored block of up to 64 KiB, PNG 12 an IDAT chunk: far less).
    public static func maxSnapshotBytes(width: Int, height: Int) -> Int {
        let raw = height * (1 + 4 * width)
        return raw + raw / 64 + 65536
    }

    /// `$SPLASHHUD_SOCKET`, else the daemon's default.
    public static var defaultSocket: String { Environment.value("SPLASHHUD_SOCKET").flatMap { $0.isEmpty ? nil : $0 } ?? ControlProtocol.defaultSocketPath }

    /// Connects to the daemon at `socket` (nil: `defaultSocket`), trying its abstract fallback
    /// when nothing is at the path: there, a server that is not root, us or the owner of the
    /// path's directory is refused before anything is sent (`.untrustedServer`).
    public init(socket: String? = nil, timeoutMilliseconds: Int32 = 500) throws(ControlClientError) {
        self.timeoutMilliseconds = timeoutMilliseconds
        (descriptor, self.socket) = try Self.connect(socket: socket, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// A non-blocking connection to the daemon at `socket` (nil: `defaultSocket`) and the name it
    /// was reached at, checked as `init` checks it: for a client that drives its own event loop
    /// (the fleet bridge), which owns and closes the descriptor.
    public static func connect(socket: String?, timeoutMilliseconds: Int32) throws(ControlClientError) -> (FileDescriptor, String) {
        let path = socket ?? Self.defaultSocket
        var candidates = [path]
        if !path.hasPrefix("@") { candidates.append(ControlProtocol.abstractFallback(for: path)) }
        var failure: ControlClientError = .notRunning(socket: path, detail: "no socket")
        for candidate in candidates {
            let fd: FileDescriptor
            do { fd = try UnixSocket.connect(to: candidate) } catch {
                switch error.errno {
                case .noSuchFileOrDirectory, .connectionRefused:
                    // The path's absence is the news; the fallback's absence adds nothing.
                    if candidate == path { failure = .notRunning(socket: path, detail: error.errno == .connectionRefused ? "a stale socket, nobody accepts" : "no socket") }
                    continue
                case .resourceTemporarilyUnavailable:
                    // Its backlog is full: it is there but not accepting.
                    throw .timedOut(socket: candidate, milliseconds: timeoutMilliseconds)
                case .permissionDenied: throw .permissionDenied(socket: candidate)
                default: throw .io("\(error)")
                }
            }
            if candidate != path {
                do { try ServerTrust.check(fd, socket: candidate, path: path) } catch {
                    Files.close(fd)
                    throw error
                }
            }
            return (fd, candidate)
        }
        throw failure
    }

    deinit {
        close()
        chunk?.deallocate()
    }

    /// Closes the connection; the daemon forgets any subscription it had. Safe to call twice.
    public func close() {
        guard !closed else { return }
        closed = true
        Files.close(descriptor)
    }

    /// Waits up to `timeoutMilliseconds` for the daemon's process to end (after a `quit`): its
    /// pid is the one the kernel recorded when we connected (SO_PEERCRED). `.timedOut` when it
    /// still runs; `.io` when its pid is not visible here (another pid namespace).
    public func waitForServerEnd(timeoutMilliseconds: Int32) throws(ControlClientError) {
        let pid: Int32
        do { pid = try UnixSocket.peerCredentials(descriptor, subject: socket).pid } catch { throw .io("\(error)") }
        guard pid > 0 else { throw .io("the daemon at \(socket) runs in another pid namespace: its end cannot be awaited here") }
        let ended: Bool
        do { ended = try ProcessEnd.wait(pid, timeoutMilliseconds: timeoutMilliseconds) } catch { throw .io("\(error)") }
        if !ended { throw .timedOut(socket: socket, milliseconds: timeoutMilliseconds) }
    }

    // MARK: Requests

    /// Sends `line` (one request) and returns its reply's data; an `error` reply throws
    /// `.rejected`. Events arriving meanwhile are kept for `nextEvent`.
    @discardableResult
    public func request(_ line: String, timeoutMilliseconds: Int32? = nil) throws(ControlClientError) -> String? {
        let deadline = deadline(timeoutMilliseconds)
        try send([line], deadline: deadline)
        return try reply(deadline: deadline)
    }

    /// Sends every line at once, then reads their replies in order (a pipeline: one round trip).
    /// Returns the first rejection's index and error, if any; every reply is read either way.
    public func pipeline(_ lines: [String], timeoutMilliseconds: Int32? = nil) throws(ControlClientError) -> [Result<String?, ControlClientError>] {
        let deadline = deadline(timeoutMilliseconds)
        try send(lines, deadline: deadline)
        var out: [Result<String?, ControlClientError>] = []
        for _ in lines {
            do { out.append(.success(try reply(deadline: deadline))) } catch {
                if case .rejected = error { out.append(.failure(error)) } else { throw error }
            }
        }
        return out
    }

    /// The next reply's data (the line after "ok "), skipping and keeping event lines.
    public func reply(deadline: Int64) throws(ControlClientError) -> String? {
        while true {
            let line = try readLine(deadline: deadline)
            if let event = HUDEvent(line: line) {
                guard events.count < Self.maxPendingEvents else {
                    throw .protocolError("over \(Self.maxPendingEvents) events before a reply")
                }
                events.append(event)
                continue
            }
            guard let reply = ControlReply(line: line) else { throw .protocolError("unexpected line '\(line.prefix(80))'") }
            switch reply {
            case .ok(let data): return data
            case .error(let code, let message): throw .rejected(code: code.rawValue, message: message)
            }
        }
    }

    /// `snapshot [OUTPUT]`: the PNG's bytes, the output's name and size.
    public func snapshot(output: String? = nil, timeoutMilliseconds: Int32? = nil) throws(ControlClientError) -> (png: [UInt8], output: String, size: String) {
        let deadline = deadline(timeoutMilliseconds)
        try send([ControlRequest.snapshot(output: output).description], deadline: deadline)
        let data = try reply(deadline: deadline) ?? ""
        let words = data.split(separator: " ")
        let side = words.count == 4 ? words[3].split(separator: "x", omittingEmptySubsequences: false).compactMap { Int($0) } : []
        guard words.count == 4, words[0] == "png", let length = Int(words[1]), length >= 0,
              side.count == 2, side.allSatisfy({ (1...Self.maxSnapshotSide).contains($0) }) else {
            throw .protocolError("unexpected snapshot reply 'ok \(data.prefix(80))'")
        }
        let most = Self.maxSnapshotBytes(width: side[0], height: side[1])
        guard length <= most else {
            throw .protocolError("a snapshot of \(length) bytes for \(words[3]), over the \(most) its PNG can take")
        }
        return (try readBytes(length, deadline: deadline), String(words[2]), String(words[3]))
    }

    /// The next event (after `subscribe`), waiting at most `timeoutMilliseconds` (nil: for ever);
    /// nil on timeout. The connection closing throws `.protocolError`.
    public func nextEvent(timeoutMilliseconds: Int32? = nil) throws(ControlClientError) -> HUDEvent? {
        if !events.isEmpty { return events.removeFirst() }
        let deadline = timeoutMilliseconds.map { MonotonicClock.nanoseconds() + Int64($0) * 1_000_000 } ?? .max
        while true {
            let line: String
            do { line = try readLine(deadline: deadline) } catch {
                if case .timedOut = error { return nil }
                throw error
            }
            if let event = HUDEvent(line: line) { return event }
            throw .protocolError("unexpected line '\(line.prefix(80))' among events")
        }
    }

    // MARK: Bytes

    private func deadline(_ ms: Int32?) -> Int64 {
        MonotonicClock.nanoseconds() + Int64(ms ?? timeoutMilliseconds) * 1_000_000
    }

    private func wait(_ interest: Poll.Interest, until deadline: Int64) throws(ControlClientError) {
        while true {
            let left = deadline == .max ? -1 : (deadline - MonotonicClock.nanoseconds()) / 1_000_000
            guard deadline == .max || left > 0 else { throw .timedOut(socket: socket, milliseconds: timeoutMilliseconds) }
            do {
                if try Poll.wait(descriptor, for: interest, timeoutMilliseconds: Int32(clamping: left), subject: socket) { return }
            } catch { throw .io("\(error)") }
        }
    }

    private func send(_ lines: [String], deadline: Int64) throws(ControlClientError) {
        var bytes: [UInt8] = []
        for line in lines {
            let b = Array(line.utf8)
            guard b.count <= ControlProtocol.maxLineBytes, !b.contains(0x0A), !b.contains(0) else {
                throw .io("a request must be one line of at most \(ControlProtocol.maxLineBytes) bytes")
            }
            bytes += b + [0x0A]
        }
        var done = 0
        while done < bytes.count {
            let r = bytes.withUnsafeBytes { b in
                Result { () throws(SystemError) in try UnixSocket.send(descriptor, UnsafeRawBufferPointer(rebasing: b[done...]), subject: socket) }
            }
            switch r {
            case .success(let n?): done += n
            case .success(nil): try wait(.write, until: deadline)
            case .failure(let e) where e.errno == .brokenPipe || e.errno == .connectionReset:
                throw .daemonClosed
            case .failure(let e): throw .io("\(e)")
            }
        }
    }

    /// Reads more into `input`; false at end of stream.
    private func fill(deadline: Int64) throws(ControlClientError) -> Bool {
        if start > 65536 { input.removeFirst(start); start = 0 }
        while true {
            let buffer = chunk ?? UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
            chunk = buffer
            let r = Result { () throws(SystemError) in try Files.read(descriptor, into: buffer, subject: socket) }
            switch r {
            case .success(let n?):
                if n == 0 { return false }
                input += UnsafeRawBufferPointer(rebasing: buffer[0..<n])
                return true
            case .success(nil): try wait(.read, until: deadline)
            case .failure(let e) where e.errno == .connectionReset: return false
            case .failure(let e): throw .io("\(e)")
            }
        }
    }

    private func readLine(deadline: Int64) throws(ControlClientError) -> String {
        while true {
            let end = Swift.min(input.count, start + Self.maxReplyLineBytes + 1)
            if let nl = input[start..<end].firstIndex(of: 0x0A) {
                let line = String(decoding: input[start..<nl], as: UTF8.self)
                start = nl + 1
                return line
            }
            guard input.count - start <= Self.maxReplyLineBytes else {
                throw .protocolError("a line of over \(Self.maxReplyLineBytes) bytes (the daemon's are far shorter)")
            }
            guard try fill(deadline: deadline) else { throw .daemonClosed }
        }
    }

    private func readBytes(_ count: Int, deadline: Int64) throws(ControlClientError) -> [UInt8] {
        while input.count - start < count {
            guard try fill(deadline: deadline) else { throw .protocolError("the connection closed in the middle of a snapshot") }
        }
        let out = Array(input[start..<(start + count)])
        start += count
        return out
    }
}
