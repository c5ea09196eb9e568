// SPDX-License-Identifier: MIT
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The boot lock itself, on a private directory so that running VMs are not disturbed.
@Suite("QEMU boot lock")
struct VMBootLockTests {
    /// Whether `operation | LOCK_NB` on a fresh descriptor of the main lock file succeeds now.
    static func canLock(_ dir: String, _ operation: Int32) -> Bool {
        let fd = open(dir + VMBootLock.mainName, O_RDWR | O_CLOEXEC)
        defer { close(fd) }
        return fd >= 0 && flock(fd, operation | LOCK_NB) == 0
    }

    @Test("shared boots run side by side; a timed boot keeps every other out, and the lock is free after")
    func sharedAndExclusive() throws {
        let dir = NSTemporaryDirectory() + "splashhud-bootlock-\(getpid())-\(UInt32.random(in: 0...UInt32.max))/"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try VMBootLock.holding(exclusive: false, in: dir) {
            #expect(Self.canLock(dir, LOCK_SH), "a second boot must be able to run beside a shared one")
            #expect(!Self.canLock(dir, LOCK_EX), "a timed boot must wait for a shared one")
        }
        try VMBootLock.holding(exclusive: true, in: dir) {
            #expect(!Self.canLock(dir, LOCK_SH), "no boot may run beside a timed one")
        }
        #expect(Self.canLock(dir, LOCK_EX), "the lock must be released")
        let analysing = try VMBootLock.hold(exclusive: false, in: dir)
        #expect(!Self.canLock(dir, LOCK_EX), "a timed boot must wait for a test's analysis of its boot")
        analysing.release()
        analysing.release()
        #expect(Self.canLock(dir, LOCK_EX), "a released hold must free the lock")
    }
}
