// SPDX-License-Identifier: MIT
// The personality's connection to plymouthd (or splashhudd --plymouth): one request at a time,
// each reply waited for, as the 22.02 client's flows do (every one of them sends its next request
// from the previous reply's handler). Connecting tries the trimmed abstract name, then the old
// padded one, as ply_boot_client_connect does.
import HUDProtocol
import LinuxSystem
import SystemPackage

final class PlymouthConnection {
    /// What became of a request.
    enum Outcome: Equatable {
        case reply(PlymouthReply)
        /// Not sent, no reply, or a reply cut short: the real client calls its failure handler.
        case failed
    }

    private let descriptor: FileDescriptor
    private var decoder = PlymouthReplyDecoder()
    /// The daemon closed the connection (seen at a read, a write, or while idle).
    private(set) var hungUp = false

    private init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

    deinit { Files.close(descriptor) }

    /// A connection to the daemon, nil when neither name answers.
    static func connect() -> PlymouthConnection? {
        if let fd = try? UnixSocket.connect(to: PlymouthWire.socketName) { return PlymouthConnection(fd) }
        if let fd = try? UnixSocket.connect(paddedAbstract: PlymouthWire.oldPaddedSocketName) { return PlymouthConnection(fd) }
        return nil
    }

    /// Sends `requests` back to back, then reads one reply (the first's: update-root-fs
    /// queues two and ends at the first answer). `deadline` (monotonic ns) bounds the wait;
    /// past it, `.failed`.
    func exchange(_ requests: [[UInt8]], deadline: Int64 = .max) -> Outcome {
        for bytes in requests where !send(bytes) { return .failed }
        return receive(deadline: deadline)
    }

    /// Waits for the daemon to close the connection (bytes it sends meanwhile are dropped:
    /// no request is waiting for them).
    func waitForHangUp() {
        while !hungUp {
            guard read(deadline: .max) else { return }
            decoder = PlymouthReplyDecoder()
        }
    }

    private func send(_ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let r = bytes.withUnsafeBytes { b in
                Result { () throws(SystemError) in try UnixSocket.send(descriptor, UnsafeRawBufferPointer(rebasing: b[done...]), subject: "plymouthd") }
            }
            switch r {
            case .success(let n?): done += n
            case .success(nil): _ = try? Poll.wait(descriptor, for: .write, timeoutMilliseconds: -1, subject: "plymouthd")
            case .failure(let e):
                if e.errno == .brokenPipe || e.errno == .connectionReset { hungUp = true }
                return false
            }
        }
        return true
    }

    private func receive(deadline: Int64) -> Outcome {
        while true {
            do throws(PlymouthReplyDecoder.Failure) {
                if let reply = try decoder.next() { return .reply(reply) }
            } catch {
                return .failed
            }
            guard read(deadline: deadline) else { return .failed }
        }
    }

    /// Reads what is there into the decoder; false at the deadline, at end of stream (then
    /// `hungUp`) or on an error.
    private func read(deadline: Int64) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline == .max ? -1 : (deadline - MonotonicClock.nanoseconds()) / 1_000_000
            guard deadline == .max || left > 0 else { return false }
            let r = buffer.withUnsafeMutableBytes { b in Result { () throws(SystemError) in try Files.read(descriptor, into: b, subject: "plymouthd") } }
            switch r {
            case .success(let n?):
                // End of stream between replies is a hang-up; inside one, a reply cut short
                // (the real client fails the request before it sees the hang-up).
                guard n > 0 else { hungUp = decoder.pendingCount == 0; return false }
                decoder.feed(buffer[..<n])
                return true
            case .success(nil):
                _ = try? Poll.wait(descriptor, for: .read, timeoutMilliseconds: Int32(clamping: left), subject: "plymouthd")
            case .failure(let e):
                if e.errno == .connectionReset { hungUp = true }
                return false
            }
        }
    }
}
