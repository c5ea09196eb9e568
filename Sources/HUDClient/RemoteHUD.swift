// SPDX-License-Identifier: MIT
// The Swift API's HUD in a running splashhudd: requests go over one connection, in order, sent by
// a background thread (posting never blocks the caller); `wait`, `state` and events each use a
// connection of their own, so a long wait never holds the requests behind it. Every call is bounded
// by the timeout; a daemon that goes away is reconnected to at the next request.
import HUDProtocol
import LinuxSystem

/// The HUD of a running `splashhudd`, over its control socket.
///
/// Requests go over one connection, in order, sent by a background thread, so posting never
/// blocks the caller; ``state()``, ``version()``, ``whenHidden(_:)``, ``events()`` and ``askPassword(prompt:completion:)``
/// each use a connection of their own, so a long wait never holds the requests behind it. Every
/// call is bounded by the timeout; a daemon that restarted is reconnected to at the next request.
public final class RemoteHUD: HUDConnection, @unchecked Sendable {
    /// The socket given at `init` (nil: `$SPLASHHUD_SOCKET`, else `/run/splashhud/control`).
    public let socket: String?
    /// How long each connection waits for the daemon, in milliseconds.
    public let timeoutMilliseconds: Int32
    private let lock = Lock()
    /// Guarded by `lock`: requests waiting for the sender, and whether it runs.
    private var outbox: [(Request, (@Sendable (Result<Void, ControlClientError>) -> Void)?)] = []
    private var sending = false
    /// Only the sender thread uses it.
    private var client: ControlClient?

    /// The daemon at `socket` (nil: $SPLASHHUD_SOCKET, else the default).
    public init(socket: String? = nil, timeoutMilliseconds: Int32 = 500) {
        self.socket = socket; self.timeoutMilliseconds = timeoutMilliseconds
    }

    public func post(_ request: Request, completion: (@Sendable (Result<Void, ControlClientError>) -> Void)?) {
        let start = lock.withLock { () -> Bool in
            outbox.append((request, completion))
            defer { sending = true }
            return !sending
        }
        if start && !Threads.detach({ [self] in drain() }) {
            let failed = lock.withLock { defer { outbox = []; sending = false }; return outbox }
            for (_, c) in failed { c?(.failure(.io("cannot start a thread to send requests"))) }
        }
    }

    /// The sender: everything queued, in order, pipelined in one round trip per batch.
    private func drain() {
        while true {
            let batch = lock.withLock { () -> [(Request, (@Sendable (Result<Void, ControlClientError>) -> Void)?)] in
                defer { outbox = [] }
                if outbox.isEmpty { sending = false }
                return outbox
            }
            guard !batch.isEmpty else { return }
            let results = send(batch.map(\.0.description))
            for ((_, completion), result) in zip(batch, results) { completion?(result) }
        }
    }

    private func send(_ lines: [String]) -> [Result<Void, ControlClientError>] {
        for attempt in 0..<2 {
            do throws(ControlClientError) {
                let c: ControlClient
                if let existing = client { c = existing } else { c = try ControlClient(socket: socket, timeoutMilliseconds: timeoutMilliseconds) }
                client = c
                return try c.pipeline(lines).map { $0.map { _ in () } }
            } catch {
                client = nil
                // A connection the daemon closed (it restarted): once more on a new one.
                if error == .daemonClosed, attempt == 0 { continue }
                return lines.map { _ in .failure(error) }
            }
        }
        return lines.map { _ in .failure(.io("unreachable")) }
    }

    public func state() throws(ControlClientError) -> HUDState {
        let c = try ControlClient(socket: socket, timeoutMilliseconds: timeoutMilliseconds)
        let line = try c.request("state") ?? ""
        guard let state = HUDState(line: line) else { throw .protocolError("unreadable state '\(line)'") }
        return state
    }

    /// The daemon's version and its control protocol's (`version`): a program that may meet
    /// daemons of several releases checks its `speaksThisProtocol` once.
    public func version() throws(ControlClientError) -> VersionReply {
        let c = try ControlClient(socket: socket, timeoutMilliseconds: timeoutMilliseconds)
        let line = try c.request("version") ?? ""
        guard let reply = VersionReply(line: line) else { throw .protocolError("unreadable version '\(line)'") }
        return reply
    }

    public func whenHidden(_ completion: @escaping @Sendable () -> Void) {
        let (socket, timeout) = (self.socket, timeoutMilliseconds)
        let started = Threads.detach {
            // A ping first, so a stopped daemon is noticed within the timeout.
            if let c = try? ControlClient(socket: socket, timeoutMilliseconds: timeout), (try? c.request("ping")) != nil {
                _ = try? c.request("wait", timeoutMilliseconds: Int32.max / 2)
            }
            completion()
        }
        if !started { completion() }
    }

    /// ask-password on a connection of its own, waiting as long as the user takes.
    public func askPassword(prompt: String, completion: @escaping @Sendable (Result<String, ControlClientError>) -> Void) {
        let (socket, timeout) = (self.socket, timeoutMilliseconds)
        let started = Threads.detach {
            do throws(ControlClientError) {
                let c = try ControlClient(socket: socket, timeoutMilliseconds: timeout)
                let data = try c.request(ControlRequest.askPassword(prompt: prompt).description, timeoutMilliseconds: Int32.max / 2) ?? ""
                guard let text = ControlProtocol.answerText(data) else { throw .protocolError("unreadable answer") }
                completion(.success(text))
            } catch {
                completion(.failure(error))
            }
        }
        if !started { completion(.failure(.io("cannot start a thread to ask"))) }
    }

    public func events() -> AsyncStream<HUDEvent> {
        let (socket, timeout) = (self.socket, timeoutMilliseconds)
        return AsyncStream { continuation in
            let stop = Flag()
            continuation.onTermination = { _ in stop.set() }
            let started = Threads.detach {
                defer { continuation.finish() }
                guard let c = try? ControlClient(socket: socket, timeoutMilliseconds: timeout), (try? c.request("subscribe")) != nil else { return }
                while !stop.isSet {
                    // Short waits, so dropping the stream ends the thread soon.
                    do {
                        guard let event = try c.nextEvent(timeoutMilliseconds: 200) else { continue }
                        continuation.yield(event)
                    } catch { return }  // the daemon ended
                }
            }
            if !started { continuation.finish() }
        }
    }
}

/// A flag one thread sets and another polls.
final class Flag: @unchecked Sendable {
    private let lock = Lock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
