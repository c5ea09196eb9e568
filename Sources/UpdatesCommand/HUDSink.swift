// SPDX-License-Identifier: MIT
// The thread that carries views to the daemon, one request at a time over one control
// connection, so a framework that floods frames costs the daemon one progress per round trip and
// never more than one a refresh (60 a second). The source never waits for it: views go through a
// mailbox, and what the daemon has not taken yet is coalesced (UpdateViewQueue). A daemon that is
// not there (not started yet, restarted) is waited for with back-off, saying so once; what it
// missed meanwhile is shown when it comes: the last progress, and every start and end in order.
import HUDClient
import HUDProtocol
import LinuxSystem
import UpdateSources

final class HUDSink: @unchecked Sendable {
    let socket: String?
    let inbox: Mailbox<UpdateView>
    /// Posted once when the thread ends (the inbox closed and everything in it sent).
    private let finished: Mailbox<Bool>
    /// Only this thread touches these.
    private var queue = UpdateViewQueue()
    private var client: ControlClient?
    private var lastProgressSent: Int64 = 0
    private var absentSaid = false

    static let progressSpacingNanoseconds: Int64 = 16_666_667
    static let requestTimeoutMilliseconds: Int32 = 2_000

    init(socket: String?) throws(SystemError) {
        self.socket = socket
        inbox = try Mailbox(capacity: 4096)
        finished = try Mailbox(capacity: 1)
    }

    func start() -> Bool { Threads.detach { [self] in run() } }

    /// Takes no more views and waits up to `milliseconds` for the daemon to get those it has
    /// (a program that ends must not lose its last view); false when they were not all sent.
    func finish(waitingUpTo milliseconds: Int32) -> Bool {
        inbox.close()
        return finished.take(timeoutMilliseconds: milliseconds) != nil
    }

    /// Queues `view` for the daemon; never blocks.
    func show(_ view: UpdateView) {
        if !inbox.post(view) { Log.say("the view queue is full; a view was dropped") }
    }

    private func run() {
        var backoff = Backoff(base: .milliseconds(100), cap: .seconds(5))
        // No attempt before this (the back-off after a failed one; the spacing after a progress).
        var notBefore: Int64 = 0
        while true {
            var wait: Int32 = -1
            if let view = queue.items.first {
                let now = MonotonicClock.nanoseconds()
                let due = max(notBefore, view.isProgress ? lastProgressSent + Self.progressSpacingNanoseconds : now)
                if due > now {
                    wait = Int32(clamping: (due - now + 999_999) / 1_000_000)
                } else if send(view) {
                    _ = queue.pop()
                    if view.isProgress { lastProgressSent = now }
                    backoff.reset()
                    notBefore = 0
                    continue
                } else {
                    let delay = backoff.next().nanoseconds
                    notBefore = now + delay
                    wait = Int32(clamping: delay / 1_000_000)
                }
            }
            // Views that come meanwhile are queued (coalesced), not sent before `notBefore`.
            if let first = inbox.take(timeoutMilliseconds: wait) { queue.push(first) }
            for view in inbox.takeAll() { queue.push(view) }
            if inbox.isClosed && queue.isEmpty {
                _ = finished.post(true)
                return
            }
        }
    }

    /// Sends `view`; false when the daemon could not be reached (it is kept for the next try). A
    /// refusal is logged and the view dropped: sending it again would be refused again.
    private func send(_ view: UpdateView) -> Bool {
        let line = view.command.description
        // A connection the daemon closed (it closes one idle for 30 s, and it may have restarted)
        // fails its next request: one more try on a new connection before calling it absent.
        let reused = client != nil
        var result = Result(catching: { () throws(ControlClientError) in try connection().request(line) })
        if reused, case .failure(let error) = result, error.isClosedConnection {
            client?.close()
            client = nil
            result = Result(catching: { () throws(ControlClientError) in try connection().request(line) })
        }
        switch result {
        case .success:
            return true
        case .failure(.rejected(let code, let message)):
            Log.say("splashhudd refused '\(line)': \(code) \(message)")
            return true
        case .failure(let error):
            client?.close()
            client = nil
            if !absentSaid { Log.say("\(error); the update is shown once it answers") }
            absentSaid = true
            return false
        }
    }

    private func connection() throws(ControlClientError) -> ControlClient {
        if let client { return client }
        let c = try ControlClient(socket: socket, timeoutMilliseconds: Self.requestTimeoutMilliseconds)
        client = c
        if absentSaid { Log.say("splashhudd answers again") }
        absentSaid = false
        return c
    }
}

extension ControlClientError {
    /// The connection is gone (not a refusal, and not a daemon too slow to answer, which may yet
    /// apply the request: it is not sent twice).
    var isClosedConnection: Bool {
        switch self {
        case .protocolError, .io: return true
        case .notRunning, .timedOut, .rejected, .permissionDenied, .untrustedServer: return false
        }
    }
}
