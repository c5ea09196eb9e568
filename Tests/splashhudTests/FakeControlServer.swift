// SPDX-License-Identifier: MIT
// A control socket in the test's own process that says whatever the test wants: a listener at a
// path in a directory of its own (or an abstract name), the one connection it accepted, and
// blocking writes and reads on it. The client tests use it to send what no daemon sends (an
// endless line, a snapshot header past any PNG) and to see what the client sent.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LinuxSystem
import SystemPackage

final class FakeControlServer: @unchecked Sendable {
    let directory: String
    /// Where it listens: "DIRECTORY/control", or "@NAME".
    let address: String
    private let listener: FileDescriptor
    private(set) var connection: FileDescriptor?

    /// Listens at a path in a new directory, or at `abstract` ("@NAME") when given.
    init(abstract: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-fake-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        address = abstract ?? directory + "/control"
        listener = try UnixSocket.listen(at: address)
    }

    deinit {
        if let connection { Files.close(connection) }
        Files.close(listener)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Takes the connection the client made (it is already in the backlog once the client's
    /// init returned).
    func accept() throws {
        for _ in 0..<100 {
            if let fd = try UnixSocket.accept(listener, subject: address) {
                _ = fcntl(fd.rawValue, F_SETFL, fcntl(fd.rawValue, F_GETFL) & ~O_NONBLOCK)
                connection = fd
                return
            }
            usleep(10_000)
        }
        throw SystemError("accept4", .resourceTemporarilyUnavailable, address)
    }

    /// Writes all of `bytes`; false once the client has gone (EPIPE, ECONNRESET).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        guard let fd = connection?.rawValue else { return false }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    @discardableResult
    func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Hangs up on the client.
    func close() {
        if let connection { Files.close(connection) }
        connection = nil
    }

    /// The client's next request line (without its newline), or nil when none came within `seconds`.
    func requestLine(within seconds: Int = 5) -> String? {
        guard let fd = connection?.rawValue else { return nil }
        var line: [UInt8] = [], byte: UInt8 = 0
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, Int32(seconds * 1000)) > 0, read(fd, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return nil
    }

    /// Everything the client sent until it closed the connection (or `seconds` passed).
    func received(within seconds: Int = 5) -> [UInt8] {
        guard let fd = connection?.rawValue else { return [] }
        var out: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, Int32(seconds * 1000)) > 0 {
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { break }
            out += chunk[0..<n]
        }
        return out
    }
}
