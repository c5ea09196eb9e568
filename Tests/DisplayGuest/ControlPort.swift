// The guest's end of vmtest.py's control channel (/dev/ttyS1, put in raw mode by /init): a line
// out, a line back. Plain Glibc calls: this is a test program, not library code (the library's
// syscalls stay in Sources/Display/Syscalls.swift).
#if canImport(Glibc)
import Glibc
#endif

struct GuestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

final class ControlPort {
    private let fd: Int32

    init(path: String) throws {
        fd = open(path, O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw GuestError("open \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { Glibc.close(fd) }

    /// Writes `line` and a newline, all of it.
    func send(_ line: String) {
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
    func readLine() throws -> String {
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
    func shot(_ name: String) throws {
        send("SHOT \(name) stable")
        let answer = try readLine()
        guard answer == "OK" else { throw GuestError("SHOT \(name): host answered \"\(answer)\"") }
    }

    /// A fact for the host test (vmtest.py logs it as "guest said: INFO ..."), also on the console.
    func info(_ text: String) {
        send("INFO " + text)
        print("e2e: " + text)
    }
}

/// fbcon's text geometry and cursor cell from /dev/vcsa (the foreground console's screen: the
/// first four bytes are lines, columns, cursor column, cursor row), or nil without a VT.
func consoleCursor() -> (lines: Int, columns: Int, x: Int, y: Int)? {
    let fd = open("/dev/vcsa", O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { Glibc.close(fd) }
    var header = [UInt8](repeating: 0, count: 4)
    guard read(fd, &header, 4) == 4 else { return nil }
    return (Int(header[0]), Int(header[1]), Int(header[2]), Int(header[3]))
}

/// CLOCK_MONOTONIC in milliseconds, for the timings the guest reports.
func monotonicMilliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
}

/// Writes `text` on the foreground VT (/dev/tty0), so fbcon has something to show that
/// `close(.restore)` must give back. Returns false without a VT.
@discardableResult
func writeToConsole(_ text: String) -> Bool {
    let fd = open("/dev/tty0", O_WRONLY | O_NOCTTY)
    guard fd >= 0 else { return false }
    defer { Glibc.close(fd) }
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count
}
