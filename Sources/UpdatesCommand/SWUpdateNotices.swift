// SPDX-License-Identifier: MIT
// SWUpdate's status messages, followed for the life of the program on its control socket (a
// NOTIFY_STREAM subscription), because a failed install's reason is only there: 2022.12's FAILURE
// frame on the progress socket has an empty `info`. Subscribed before any install, not asked once
// it failed: `swupdate-client` drains SWUpdate's message queue with its status polls when the
// upload ends, so a subscriber that comes after a failure in the last image usually gets no
// reason at all (measured: 7 runs in 9). What the subscription sends first is the queue left from
// the previous install; the reason is always taken after the latest "started" message.
import HUDProtocol
import HUDClient
import LinuxSystem
import SystemPackage
import UpdateSources

final class SWUpdateNotices: @unchecked Sendable {
    let settings: SWUpdateSettings
    private let lock = Lock()
    /// The last `keep` messages, oldest first (SWUpdate itself keeps a hundred).
    private var notices: [SWUpdateNotice] = []
    private let idle: EventFd
    static let keep = 100

    init(settings: SWUpdateSettings) throws(SystemError) {
        self.settings = settings
        idle = try EventFd()
    }

    func start() -> Bool { Threads.detach { [self] in run() } }

    /// The reason for the failure SWUpdate just reported: its error messages since the install
    /// started. They come on another socket about when the FAILURE frame does (measured 0-1 ms
    /// before it), so a reason not here yet is waited for, up to `milliseconds`.
    func failureReason(waitingUpTo milliseconds: Int32) -> String? {
        let deadline = MonotonicClock.nanoseconds() + Int64(milliseconds) * 1_000_000
        while true {
            if let reason = lock.withLock({ SWUpdateNotice.failureReason(notices, lineLimit: 100) }) { return reason }
            if MonotonicClock.nanoseconds() >= deadline { return nil }
            _ = try? Poll.wait(idle.descriptor, for: .read, timeoutMilliseconds: 10, subject: "reason")
        }
    }

    private func run() {
        var backoff = Backoff(base: .milliseconds(100), cap: .seconds(5))
        var said: String?
        while true {
            let path = settings.controlSocket ?? SWUpdatePaths.find(SWUpdatePaths.controlName, release: settings.release)
            do {
                if let path {
                    try follow(path) {
                        backoff.reset()
                        let text = "following SWUpdate's messages at \(path) (a failure's reason)"
                        if said != text { Log.say(text); said = text }
                    }
                }
            } catch {
                let text = "no failure reasons from SWUpdate's control socket: \(error); trying again"
                if said != text { Log.say(text); said = text }
            }
            _ = try? Poll.wait(idle.descriptor, for: .read, timeoutMilliseconds: Int32(clamping: backoff.next().nanoseconds / 1_000_000), subject: "back-off")
        }
    }

    enum NoticeError: Error, CustomStringConvertible {
        case system(SystemError)
        case message(SWUpdateFrameError)
        var description: String {
            switch self {
            case .system(let e): return "\(e)"
            case .message(let e): return "not an ipc_message: \(e)"
            }
        }
    }

    /// Sends the NOTIFY_STREAM request. SWUpdate reads a request with one read(2) of exactly its
    /// size ("fragmentation not supported"): one send of the whole message, which a fresh Unix
    /// socket takes at once.
    private static func subscribe(_ fd: FileDescriptor, _ path: String) throws(SystemError) {
        guard try Poll.wait(fd, for: .write, timeoutMilliseconds: 1_000, subject: path) else { throw SystemError("connect", .timedOut, path) }
        let request = SWUpdateNotice.subscribeRequest()
        let sent = try request.withUnsafeBytes { b in Result { () throws(SystemError) in try UnixSocket.send(fd, b, subject: path) } }.get()
        guard sent == request.count else { throw SystemError("send", .resourceTemporarilyUnavailable, path) }
    }

    /// One subscription's life: returns when SWUpdate closes it.
    private func follow(_ path: String, connected: () -> Void) throws(NoticeError) {
        let fd: FileDescriptor
        do { fd = try UnixSocket.connect(to: path) } catch { throw .system(error) }
        defer { Files.close(fd) }
        let size = SWUpdateNotice.messageSize
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4 * size)
        do { try Self.subscribe(fd, path) } catch { throw .system(error) }
        connected()
        while true {
            let n: Int?
            do {
                _ = try Poll.wait(fd, for: .read, timeoutMilliseconds: -1, subject: path)
                n = try chunk.withUnsafeMutableBytes { b in Result { () throws(SystemError) in try Files.read(fd, into: b, subject: path) } }.get()
            } catch { throw .system(error) }
            guard let n else { continue }
            if n == 0 { return }
            bytes += chunk[..<n]
            var at = 0
            while bytes.count - at >= size {
                let notice: SWUpdateNotice?
                do { notice = try SWUpdateNotice.decode(bytes[at..<(at + size)]) } catch { throw .message(error) }
                at += size
                guard let notice else { continue }
                lock.withLock {
                    notices.append(notice)
                    if notices.count > Self.keep { notices.removeFirst(notices.count - Self.keep) }
                }
            }
            bytes.removeFirst(at)
        }
    }
}
