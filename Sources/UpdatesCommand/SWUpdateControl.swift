// SPDX-License-Identifier: MIT
// A failed install's reason, asked of SWUpdate's control socket when its FAILURE frame arrives:
// a NOTIFY_STREAM subscription opened then gets the messages SWUpdate still holds (the error
// that failed the install among them) and is closed once they stop coming. Asking then, not
// subscribing for good, keeps one connection fewer open for the life of the program, and misses
// nothing: SWUpdate keeps its last hundred messages for whoever asks.
import LinuxSystem
import SystemPackage
import UpdateSources

enum SWUpdateControl {
    /// SWUpdate's held messages, oldest first: read until 100 ms pass without one (at most 1 s).
    static func recentNotices(at path: String) throws(SystemError) -> [SWUpdateNotice] {
        let fd = try UnixSocket.connect(to: path)
        defer { Files.close(fd) }
        let deadline = MonotonicClock.nanoseconds() + 1_000_000_000
        guard try Poll.wait(fd, for: .write, timeoutMilliseconds: 500, subject: path) else {
            throw SystemError("connect", .timedOut, path)
        }
        // SWUpdate reads the request with one read(2) of exactly its size ("fragmentation not
        // supported"): one send of the whole message, which a fresh Unix socket takes at once.
        let request = SWUpdateNotice.subscribeRequest()
        let sent = try request.withUnsafeBytes { b in Result { () throws(SystemError) in try UnixSocket.send(fd, b, subject: path) } }.get()
        guard sent == request.count else { throw SystemError("send", .resourceTemporarilyUnavailable, path) }
        var bytes: [UInt8] = []
        var notices: [SWUpdateNotice] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let size = SWUpdateNotice.messageSize
        while true {
            let left = (deadline - MonotonicClock.nanoseconds()) / 1_000_000
            guard left > 0, try Poll.wait(fd, for: .read, timeoutMilliseconds: Int32(min(100, left)), subject: path) else { break }
            let n = try chunk.withUnsafeMutableBytes { b in Result { () throws(SystemError) in try Files.read(fd, into: b, subject: path) } }.get()
            guard let n else { continue }
            if n == 0 { break }
            bytes += chunk[..<n]
            while bytes.count >= size {
                do {
                    if let notice = try SWUpdateNotice.decode(bytes[..<size]) { notices.append(notice) }
                } catch {
                    Log.say("SWUpdate's control socket \(path) sent something that is not a message (\(error)); its reasons are not shown")
                    return notices
                }
                bytes.removeFirst(size)
            }
        }
        return notices
    }
}
