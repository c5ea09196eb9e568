// SPDX-License-Identifier: MIT
// The QEMU suites run in parallel, several TCG guests on a host of two cores. That is fine for
// pictures, but a test that measures time in the guest (frame rate, CPU use, hotplug latency)
// would measure its neighbours too. So every boot holds a lock on one file: shared for most,
// exclusive for the timed ones. A second file is a turnstile: a boot passes it before taking the
// main lock, and a timed boot holds it while it waits, so new boots queue behind it instead of
// keeping the shared lock taken forever.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

enum VMBootLock {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let turnstileName = "splashhud-qemu-turnstile.lock", mainName = "splashhud-qemu-boots.lock"

    /// Runs `body` while holding the boot lock; `exclusive` keeps every other boot out meanwhile.
    static func holding<T>(exclusive: Bool, in directory: String = NSTemporaryDirectory(), _ body: () throws -> T) throws -> T {
        let held = try hold(exclusive: exclusive, in: directory)
        defer { held.release() }
        return try body()
    }

    /// The boot lock, held until `release()`. A test takes it shared, after its boot, for host-side
    /// work that takes a core for seconds (reading and judging hundreds of screendumps): a timed
    /// boot then waits for that work as it waits for a boot, instead of measuring it.
    static func hold(exclusive: Bool, in directory: String = NSTemporaryDirectory()) throws -> Held {
        let turnstile = try open(directory + turnstileName)
        defer { close(turnstile) }
        let main = try open(directory + mainName)
        try lock(turnstile, LOCK_EX)
        do { try lock(main, exclusive ? LOCK_EX : LOCK_SH) } catch { flock(turnstile, LOCK_UN); close(main); throw error }
        flock(turnstile, LOCK_UN)
        return Held(fd: main)
    }

    /// A held boot lock; `release()` lets it go (once).
    final class Held {
        private var fd: Int32
        init(fd: Int32) { self.fd = fd }
        func release() {
            guard fd >= 0 else { return }
            flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
        deinit { release() }
    }

    private static func open(_ path: String) throws -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw Failure(description: "open \(path): \(String(cString: strerror(errno)))") }
        // Whatever the umask was when it was made: another user's test run must open it too.
        _ = fchmod(fd, 0o666)
        return fd
    }

    private static func lock(_ fd: Int32, _ operation: Int32) throws {
        while flock(fd, operation) != 0 {
            guard errno == EINTR else { throw Failure(description: "flock: \(String(cString: strerror(errno)))") }
        }
    }
}
