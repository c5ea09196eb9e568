// SPDX-License-Identifier: MIT
// The guest's end of vmtest.py's control channel (/dev/ttyS1, put in raw mode by /init): a line
// out, a line back. Shared by every guest program run under QEMU. Plain Glibc calls: this is test
// code, not library code (the library's syscalls stay in Sources/Display/Syscalls.swift).
#if canImport(Glibc)
import Glibc
#endif

public struct GuestError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

public final class ControlPort {
    private let fd: Int32
    /// Prefixes what `info` also prints on the guest console.
    private let consoleTag: String

    public init(path: String = "/dev/ttyS1", consoleTag: String) throws {
        self.consoleTag = consoleTag
        fd = open(path, O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw GuestError("open \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { Glibc.close(fd) }

    /// Writes `line` and a newline, all of it.
    public func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            done += n
        }
    }

    /// Reads up to a newline (raw mode may split the answer), without the newline.
    public func readLine() throws -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { throw GuestError("control channel closed after \"\(String(decoding: line, as: UTF8.self))\"") }
            if byte == UInt8(ascii: "\n") { break }
            if byte != UInt8(ascii: "\r") { line.append(byte) }
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Asks the host for a screendump of what is on screen now, repeated until stable (DRM fbdev
    /// emulation reaches the screen from a worker), and waits until it is written.
    public func shot(_ name: String) throws {
        send("SHOT \(name) stable")
        let answer = try readLine()
        guard answer == "OK" else { throw GuestError("SHOT \(name): host answered \"\(answer)\"") }
    }

    /// A fact for the host test (vmtest.py logs it as "guest said: INFO ..."), also on the console.
    public func info(_ text: String) {
        send("INFO " + text)
        print(consoleTag + ": " + text)
    }
}
