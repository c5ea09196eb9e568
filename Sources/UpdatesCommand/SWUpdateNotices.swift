// SPDX-License-Identifier: MIT
// SWUpdate's status messages, followed for the life of the program on its control socket (a
// NOTIFY_STREAM subscription), because a failed install's reason is only there: 2022.12's FAILURE
// frame on the progress socket has an empty `info`. Subscribed before any install, not asked once
// it failed: `swupdate-client` drains SWUpdate's message queue with its status polls when the
// upload ends, so a subscriber that comes after a failure in the last image usually gets no
// reason at all (measured: 7 runs in 9). What the subscription sends first is the queue left from
// the previous install; the reason is always taken after the latest "started" message.
import LinuxSystem
import SystemPackage
import UpdateSources

final class SWUpdateNotices: @unchecked Sendable {
    let settings: SWUpdateSettings
    private let lock = Lock()
    /// The last `keep` messages, oldest first (SWUpdate itself keeps a hundred).
    private var notices: [SWUpdateNotice] = []
    /// Called with the whole reason when SWUpdate's closing message comes after a reason was shown
    /// without it (`whenReasonCompletes`); dropped when another install starts first.
    private var pending: (@Sendable (String) -> Void)?
    private let idle: EventFd
    static let keep = 100

    init(settings: SWUpdateSettings) throws(SystemError) {
        self.settings = settings
        idle = try EventFd()
    }

    func start() -> Bool { Threads.detach { [self] in run() } }

    /// The reason for the failure SWUpdate just reported: its error messages since the install
    /// started. They come on another socket about when the FAILURE frame does (measured 0-1 ms
    /// before it), so they are waited for, up to `milliseconds`, until SWUpdate's closing message
    /// ("Image invalid or corrupted. Not installing ...") is among them. `complete` is false when
    /// the deadline came first.
    func failureReason(waitingUpTo milliseconds: Int32) -> (reason: String?, complete: Bool) {
        let deadline = MonotonicClock.nanoseconds() + Int64(milliseconds) * 1_000_000
        while true {
            // Complete once SWUpdate's closing message (after the errors) has come; else what
            // has come by the deadline (the two sockets are read by two threads: the progress
            // frame can overtake the messages).
            let (reason, complete) = lock.withLock { (currentReason(), reasonComplete()) }
            if complete || MonotonicClock.nanoseconds() >= deadline { return (reason, complete) }
            _ = try? Poll.wait(idle.descriptor, for: .read, timeoutMilliseconds: 10, subject: "reason")
        }
    }

    /// Calls `action` (on this object's thread, or now) with the whole reason once SWUpdate's
    /// closing message has come, unless another install starts first: a reason shown cut short on
    /// a loaded machine is shown again whole.
    func whenReasonCompletes(_ action: @escaping @Sendable (String) -> Void) {
        let now: String? = lock.withLock {
            if reasonComplete() { return currentReason() }
            pending = action
            return nil
        }
        if let now { action(now) }
    }

    /// Under the lock.
    private func currentReason() -> String? { SWUpdateNotice.failureReason(notices, lineLimit: 100) }

    /// Under the lock: SWUpdate's closing notice came after the latest start. Its ERROR lines have
    /// the status FAILURE too; the closing one alone has an error code (RECOVERY_ERROR). Taking
    /// any FAILURE as the end cut the reason after its first line on a loaded machine.
    private func reasonComplete() -> Bool {
        let start = notices.lastIndex { $0.status == SWUpdateStatus.start.rawValue } ?? notices.startIndex
        return notices[start...].contains(where: Self.closes)
    }

    private static func closes(_ notice: SWUpdateNotice) -> Bool { notice.status == SWUpdateStatus.failure.rawValue && notice.error != 0 }

    private func run() {
        var retrying: Retrying
        do { retrying = try Retrying() } catch { Log.say("no failure reasons from SWUpdate: \(error)"); return }
        while true {
            if let path = settings.controlSocket ?? SWUpdatePaths.find(SWUpdatePaths.controlName, release: settings.release) {
                do {
                    try follow(path) {
                        retrying.connected()
                        retrying.say("following SWUpdate's messages at \(path) (a failure's reason)")
                    }
                } catch {
                    retrying.say("no failure reasons from SWUpdate's control socket: \(error); trying again")
                }
            }
            retrying.pause()
        }
    }

    /// A connection with the NOTIFY_STREAM request sent. SWUpdate reads a request with one read(2)
    /// of exactly its size ("fragmentation not supported"): one send of the whole message, which a
    /// fresh Unix socket takes at once.
    private static func subscribed(_ path: String) throws(SystemError) -> SocketReader {
        let reader = try SocketReader(connectingTo: path, chunk: 4 * SWUpdateNotice.messageSize)
        guard try Poll.wait(reader.fd, for: .write, timeoutMilliseconds: 1_000, subject: path) else { throw SystemError("connect", .timedOut, path) }
        let request = SWUpdateNotice.subscribeRequest()
        let sent = try request.withUnsafeBytes { b in Result { () throws(SystemError) in try UnixSocket.send(reader.fd, b, subject: path) } }.get()
        guard sent == request.count else { throw SystemError("send", .resourceTemporarilyUnavailable, path) }
        return reader
    }

    /// One subscription's life: returns when SWUpdate closes it.
    private func follow(_ path: String, connected: () -> Void) throws(SourceError) {
        var reader: SocketReader
        do { reader = try Self.subscribed(path) } catch { throw .system(error) }
        connected()
        let size = SWUpdateNotice.messageSize
        var bytes: [UInt8] = []
        while true {
            let chunk: ArraySlice<UInt8>?
            do { chunk = try reader.next() } catch { throw .system(error) }
            guard let chunk else { return }
            bytes += chunk
            var at = 0
            while bytes.count - at >= size {
                let notice: SWUpdateNotice?
                do { notice = try SWUpdateNotice.decode(bytes[at..<(at + size)]) } catch { throw .message(error) }
                at += size
                guard let notice else { continue }
                let completed = lock.withLock { () -> (action: @Sendable (String) -> Void, reason: String)? in
                    notices.append(notice)
                    if notices.count > Self.keep { notices.removeFirst(notices.count - Self.keep) }
                    if notice.status == SWUpdateStatus.start.rawValue { pending = nil }
                    guard let action = pending, Self.closes(notice), let reason = currentReason() else { return nil }
                    pending = nil
                    return (action, reason)
                }
                completed.map { $0.action($0.reason) }
            }
            bytes.removeFirst(at)
        }
    }
}
