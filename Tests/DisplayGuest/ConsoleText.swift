// SPDX-License-Identifier: MIT
// Console helpers for the fbdev guest: fbcon's cursor, a clock for timings, text on the VT.
#if canImport(Glibc)
import Glibc
#endif
import VMGuestSupport

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
func writeToConsole(_ text: String) -> Bool { writeToTerminal("/dev/tty0", text) }
