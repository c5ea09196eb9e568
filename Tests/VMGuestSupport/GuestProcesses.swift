// SPDX-License-Identifier: MIT
// Child processes and other VTs for the guest programs: busybox chvt for VT switches, a child
// that must die of a signal, text on a VT the test switches to. Plain Glibc: test code.
#if canImport(Glibc)
import Glibc
#endif

/// Starts `argv` (argv[0] is the path) without waiting; returns its pid.
public func spawn(_ argv: [String]) throws -> pid_t {
    var pid: pid_t = 0
    var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for p in cArgs { free(p) } }
    let r = posix_spawn(&pid, argv[0], nil, nil, &cArgs, environ)
    guard r == 0 else { throw GuestError("posix_spawn \(argv[0]): \(String(cString: strerror(r)))") }
    return pid
}

/// Waits for `pid`: "exited N" or "signal N".
public func waitChild(_ pid: pid_t) -> String {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        if errno != EINTR { return "waitpid: \(String(cString: strerror(errno)))" }
    }
    // WIFEXITED/WTERMSIG are macros Swift does not import: the low 7 bits are the signal.
    return status & 0x7F == 0 ? "exited \((status >> 8) & 0xFF)" : "signal \(status & 0x7F)"
}

public func spawnAndWait(_ argv: [String]) throws -> String { waitChild(try spawn(argv)) }

/// Writes `text` to the terminal `path` (another VT, or /dev/tty0 for the foreground one).
/// Returns false when it cannot be opened or written.
@discardableResult
public func writeToTerminal(_ path: String, _ text: String) -> Bool {
    let fd = open(path, O_WRONLY | O_NOCTTY)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count
}
