// SPDX-License-Identifier: MIT
// A daemon's core in the test process: the runtime on a memory display with the real poller and
// clock, and its control server on a socket in a fresh directory; raw clients that write requests
// and read what comes back without blocking, while the test steps the loop.
#if canImport(Glibc)
import Glibc
#endif
import Display
import Foundation
import HUDProtocol
import LinuxSystem
@testable import Runtime
import SystemPackage
import Testing

final class ControlRig {
    let dir: String
    let display: MemoryDisplay
    let runtime: HUDRuntime
    let server: ControlServer
    let log = LogLines()
    var path: String { "\(dir)/control" }

    /// `group`: the socket's group (a name or number), for clients of another user; `screen`: a
    /// display the runtime shows on instead of the memory display (one that wraps it).
    init(width: Int32 = 200, height: Int32 = 120, group: String? = nil, screen: ((MemoryDisplay) -> any Display)? = nil) throws {
        dir = NSTemporaryDirectory() + "splashhud-control-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        display = MemoryDisplay(width: width, height: height)
        runtime = try HUDRuntime(display: screen?(display) ?? display, resources: Fixtures.resources, console: .off, logger: log.logger)
        runtime.frames.pacing = .timer
        server = try ControlServer(socket: try ControlSocket.bind(path: "\(dir)/control", group: group), runtime: runtime)
    }

    deinit {
        server.close()
        try? FileManager.default.removeItem(atPath: dir)
    }

    func connect() throws -> RawClient { try RawClient(path: path) }

    /// Steps the loop (each wait at most 10 ms) until `done` holds or `seconds` have passed;
    /// returns whether `done` held.
    @discardableResult
    func run(for seconds: Double = 3, until done: () -> Bool = { false }) throws -> Bool {
        let end = MonotonicClock.nanoseconds() + Int64(seconds * 1e9)
        while MonotonicClock.nanoseconds() < end {
            if done() { return true }
            runtime.loop.schedule(at: MonotonicClock.nanoseconds() + 10_000_000) {}
            try runtime.step()
        }
        return done()
    }

    /// Steps until `client` has `count` more lines than it had; returns them.
    func lines(_ client: RawClient, count: Int, seconds: Double = 3) throws -> [String] {
        var got: [String] = []
        try run(for: seconds) {
            got += client.readLines()
            return got.count >= count
        }
        return got
    }
}

/// A client socket the test writes to and reads from without blocking.
final class RawClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    /// Bytes read but not yet returned as lines (a snapshot's PNG).
    var pending: [UInt8] { buffer }

    init(path: String) throws {
        fd = try UnixSocket.connect(to: path).rawValue
    }

    deinit { close(fd) }

    /// Closes the connection both ways, as a client that exits after writing does.
    func shutDown() { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    func send(_ text: String) { sendBytes(Array(text.utf8)) }

    func sendBytes(_ bytes: [UInt8]) {
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { done += n; continue }
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&p, 1, 100)
        }
    }

    /// Sends what the socket takes now without waiting; the count sent.
    @discardableResult
    func sendSome(_ bytes: [UInt8]) -> Int {
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        return max(n, 0)
    }

    /// Reads what is waiting; returns complete lines.
    func readLines() -> [String] {
        readAvailable()
        var out: [String] = []
        var start = 0
        // One removal at the end: one per line made a flood's replies quadratic.
        while let nl = buffer[start...].firstIndex(of: 0x0A) {
            out.append(String(decoding: buffer[start..<nl], as: UTF8.self))
            start = nl + 1
        }
        buffer.removeFirst(start)
        return out
    }

    /// One complete line, if one has arrived (the bytes after it stay for `take`).
    func readLine() -> String? {
        readAvailable()
        guard let nl = buffer.firstIndex(of: 0x0A) else { return nil }
        defer { buffer.removeFirst(nl + 1) }
        return String(decoding: buffer[..<nl], as: UTF8.self)
    }

    /// Takes `count` raw bytes if they have all arrived.
    func take(_ count: Int) -> [UInt8]? {
        readAvailable()
        guard buffer.count >= count else { return nil }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// True when the daemon closed the connection.
    private(set) var closedByPeer = false

    private func readAvailable() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { buffer += chunk[0..<n]; continue }
            if n == 0 || (n < 0 && errno == ECONNRESET) { closedByPeer = true }
            return
        }
    }
}
