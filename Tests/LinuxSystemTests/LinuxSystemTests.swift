// SPDX-License-Identifier: MIT
// The system layer on real descriptors (pipes, sockets, timerfd, eventfd, epoll) and, through the
// debug builds' MockingDriver, on calls made to fail: EINTR is retried in one place, every other
// failure names the call, the errno and the subject.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SystemPackage
import Testing
@testable import LinuxSystem

@Suite struct LinuxSystemTests {
    func pipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        try #require(Glibc.pipe(&fds) == 0)
        for fd in fds { _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    @Test func interruptedCallsAreRetriedAndOtherFailuresNameTheCall() throws {
        let p = try pipe()
        defer { Files.close(p.read); Files.close(p.write) }
        _ = try [UInt8]([1, 2, 3]).withUnsafeBytes { try Files.write(p.write, $0, subject: "pipe") }
        let driver = MockingDriver()
        driver.fail("read", with: EINTR, count: 3)
        var buffer = [UInt8](repeating: 0, count: 8)
        let n = try MockingDriver.with(driver) {
            try buffer.withUnsafeMutableBytes { try Files.read(p.read, into: $0, subject: "pipe") }
        }
        #expect(n == 3)
        #expect(driver.trace == ["read", "read", "read", "read"], "three interrupted reads, then the real one")
        let denied = MockingDriver()
        denied.fail("open", with: EACCES)
        #expect(throws: SystemError("open", .permissionDenied, "/dev/fb0")) {
            try MockingDriver.with(denied) { try Files.open("/dev/fb0", flags: OpenFlag.readWrite) }
        }
        #expect(SystemError("open", .permissionDenied, "/dev/fb0").description == "open /dev/fb0 failed: Permission denied (errno 13)")
    }

    @Test func epollReportsReadAndWriteInterest() throws {
        let p = try pipe()
        // The write end is closed in the test: closed again here, its number, by then another
        // thread's, would be taken from that thread (an ASan run aborted in libnss_systemd's
        // safe_close on EBADF).
        var writeOpen = true
        defer { Files.close(p.read); if writeOpen { Files.close(p.write) } }
        let epoll = try Epoll()
        try epoll.add(p.read.rawValue, read: true, write: false)
        try epoll.add(p.write.rawValue, read: false, write: true)
        // An empty pipe: the write end is writable, the read end not readable.
        #expect(try epoll.wait(timeoutMilliseconds: 0).map(\.descriptor) == [p.write.rawValue])
        // Fill it: no longer writable; readable.
        let chunk = [UInt8](repeating: 7, count: 4096)
        while try chunk.withUnsafeBytes({ try Files.write(p.write, $0, subject: "pipe") }) != nil {}
        let full = try epoll.wait(timeoutMilliseconds: 0)
        #expect(full.map(\.descriptor) == [p.read.rawValue] && full[0].readable)
        // Drain it: writable again; interest changed to none: nothing reported.
        var buffer = [UInt8](repeating: 0, count: 65536)
        while try buffer.withUnsafeMutableBytes({ try Files.read(p.read, into: $0, subject: "pipe") }) != nil {}
        #expect(try epoll.wait(timeoutMilliseconds: 0).map(\.descriptor) == [p.write.rawValue])
        try epoll.modify(p.write.rawValue, read: false, write: false)
        #expect(try epoll.wait(timeoutMilliseconds: 0).isEmpty)
        // The writer goes away: the reader sees a hang-up.
        epoll.remove(p.write.rawValue)
        Files.close(p.write)
        writeOpen = false
        #expect(try epoll.wait(timeoutMilliseconds: 0).first?.hangup == true)
    }

    @Test func aTimerfdExpiresAtItsAbsoluteDeadlineAndAnEventfdWakes() throws {
        let timer = try TimerFd()
        let deadline = MonotonicClock.nanoseconds() + 5_000_000
        try timer.arm(at: deadline)
        #expect(try Poll.wait(timer.descriptor, for: .read, timeoutMilliseconds: 5000, subject: "timerfd"))
        #expect(MonotonicClock.nanoseconds() >= deadline)
        #expect(try timer.acknowledge() == 1)
        #expect(timer.deadline == nil)
        #expect(try timer.acknowledge() == 0)
        let event = try EventFd()
        #expect(try event.drain() == 0)
        event.signal(); event.signal()
        #expect(try event.drain() == 2)
    }

    /// The event loop never reads its timer: timerfd_settime resets the expiry count, so a timer
    /// that fired and was re-armed (or disarmed) is not readable until it fires again.
    @Test func anExpiredTimerIsNotReadableOnceArmedAgain() throws {
        let timer = try TimerFd()
        try timer.arm(at: MonotonicClock.nanoseconds())
        #expect(try Poll.wait(timer.descriptor, for: .read, timeoutMilliseconds: 5000, subject: "timerfd"))
        timer.expired()
        #expect(timer.deadline == nil)
        let later = MonotonicClock.nanoseconds() + 60_000_000_000
        try timer.arm(at: later)
        #expect(try !Poll.wait(timer.descriptor, for: .read, timeoutMilliseconds: 0, subject: "timerfd"))
        // Fired again and then disarmed (nothing scheduled): not readable either, though the
        // deadline it is disarmed to (none) is the one it had after firing.
        try timer.arm(at: MonotonicClock.nanoseconds())
        #expect(try Poll.wait(timer.descriptor, for: .read, timeoutMilliseconds: 5000, subject: "timerfd"))
        timer.expired()
        try timer.arm(at: nil)
        #expect(try !Poll.wait(timer.descriptor, for: .read, timeoutMilliseconds: 0, subject: "timerfd"))
        #expect(try timer.acknowledge() == 0)
    }

    @Test(arguments: ["path", "abstract"])
    func unixSocketsConnectAndNameTheirPeer(_ kind: String) throws {
        let name = "splashhud-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let path = kind == "abstract" ? "@" + name : NSTemporaryDirectory() + name
        let listener = try UnixSocket.listen(at: path)
        defer { Files.close(listener); if kind == "path" { try? Files.unlink(path) } }
        #expect(try UnixSocket.accept(listener, subject: path) == nil, "nothing pending yet")
        let client = try UnixSocket.connect(to: path)
        defer { Files.close(client) }
        #expect(try Poll.wait(listener, for: .read, timeoutMilliseconds: 5000, subject: path))
        let server = try #require(try UnixSocket.accept(listener, subject: path))
        defer { Files.close(server) }
        let peer = try UnixSocket.peerCredentials(server, subject: path)
        #expect(peer == UnixSocket.Credentials(pid: getpid(), uid: getuid(), gid: getgid()))
        _ = try Array("ping\n".utf8).withUnsafeBytes { try Files.write(client, $0, subject: path) }
        #expect(try Poll.wait(server, for: .read, timeoutMilliseconds: 5000, subject: path))
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = try buffer.withUnsafeMutableBytes { try Files.read(server, into: $0, subject: path) }
        #expect(n.map { String(decoding: buffer[..<$0], as: UTF8.self) } == "ping\n")
        // Nobody listening: a path that is not there, a name nobody bound.
        let missing = kind == "abstract" ? Errno.connectionRefused : .noSuchFileOrDirectory
        #expect(throws: SystemError("connect", missing, path + "-missing")) { try UnixSocket.connect(to: path + "-missing") }
    }

    @Test func filesAndDirectories() throws {
        let dir = NSTemporaryDirectory() + "splashhud-ls-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Files.makeFIFO(dir + "/fifo", mode: 0o600)
        let fd = try Files.open(dir + "/b", flags: OpenFlag.writeOnly | OpenFlag.create, mode: 0o640)
        try Files.writeAll(fd, Array("hello".utf8), subject: "b")
        Files.close(fd)
        #expect(try Files.listDirectory(dir) == ["b", "fifo"])
        #expect(try Files.status(atPath: dir + "/fifo")?.kind == .fifo)
        let b = try #require(try Files.status(atPath: dir + "/b"))
        #expect(b.kind == .regular && b.size == 5 && b.owner == geteuid())
        #expect(try Files.status(atPath: dir + "/none") == nil)
        #expect(try Files.readFile(dir + "/b") == Array("hello".utf8))
        try Files.rename(dir + "/b", to: dir + "/c")
        try Files.unlink(dir + "/c")
        try Files.unlink(dir + "/c")  // already gone: not an error
        #expect(throws: SystemError("opendir", .noSuchFileOrDirectory, dir + "/none")) { try Files.listDirectory(dir + "/none") }
    }

    @Test func anAtomicWriteReplacesWholeOrLeavesEverythingAsItWas() throws {
        let dir = NSTemporaryDirectory() + "splashhud-atomic-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Files.writeAtomically(Array("first".utf8), to: dir + "/f")
        try Files.writeAtomically(Array("second".utf8), to: dir + "/f", mode: 0o600, durable: true)
        #expect(try Files.readFile(dir + "/f") == Array("second".utf8))
        #expect(try Files.status(atPath: dir + "/f")?.permissions == 0o600)
        // A directory where the file should go: the rename fails, nothing is left behind.
        try FileManager.default.createDirectory(atPath: dir + "/d/x", withIntermediateDirectories: true)
        #expect(throws: SystemError("rename", .isDirectory, dir + "/d")) { try Files.writeAtomically(Array("x".utf8), to: dir + "/d") }
        #expect(try Files.listDirectory(dir) == ["d", "f"])
        // No directory to write in: the open fails.
        #expect(throws: SystemError.self) { try Files.writeAtomically([1], to: dir + "/none/f") }
    }
}

/// A secret's pages: bounded, edited by UTF-8 character, zeroed when emptied, never printed.
@Suite struct MailboxTests {
    /// An item taken without waiting leaves its wakeup behind: the next take must still wait for
    /// the next item (it returned nil at once, and a display worker's finish gave up on a call).
    @Test func aLeftoverWakeupDoesNotEndAWait() throws {
        let box = try Mailbox<Int>(capacity: 4)
        box.post(1)
        #expect(box.take(timeoutMilliseconds: 0) == 1)
        let poster = Thread { Thread.sleep(forTimeInterval: 0.1); box.post(2) }
        poster.start()
        #expect(box.take(timeoutMilliseconds: 10_000) == 2)
        // Closed and empty: nil at once, even with no timeout.
        box.close()
        #expect(box.take(timeoutMilliseconds: -1) == nil)
    }
}

@Suite struct SecretBytesTests {
    /// Two holders (two prompt desks in one process): dumps stay off until both have let go. (The
    /// count is the process's: other tests' desks may hold it too.)
    @Test func coreDumpsStayOffUntilTheLastHolderLetsGo() {
        CoreDumps.hold()
        CoreDumps.hold()
        #expect(!CoreDumps.areAllowed)
        CoreDumps.release()
        #expect(!CoreDumps.areAllowed, "one holder is left")
        #expect(CoreDumps.holderCount >= 1)
        CoreDumps.release()
    }

    @Test func editsStayWithinTheCapacity() throws {
        let s = try #require(SecretBytes(capacity: 8))
        #expect(s.append(Array("pässwd".utf8)))  // 7 bytes, 6 characters
        #expect(s.count == 7 && s.characterCount == 6)
        #expect(!s.append(Array("xy".utf8)) && s.count == 7, "past the capacity nothing is stored")
        for _ in 0..<5 { s.removeLastCharacter() }
        #expect(s.withBytes { Array($0) } == Array("p".utf8), "ä is one character of two bytes")
        #expect("\(s)" == "<secret, 1 characters>")
        let copy = try #require(s.copy())
        #expect(copy.withBytes { Array($0) } == Array("p".utf8))
    }

    @Test func emptiedPagesAreZero() throws {
        let s = try #require(SecretBytes(capacity: 64))
        s.append(Array("correct horse battery staple".utf8))
        s.removeAll()
        #expect(s.isEmpty)
        // `fill` hands over the whole capacity: every byte of it must be zero again.
        try s.fill { (buffer) throws(SystemError) in
            #expect(buffer.count == 64 && buffer.allSatisfy { $0 == 0 })
            return 0
        }
        #expect(s.isLocked, "mlock failed (RLIMIT_MEMLOCK is too small here)")
    }
}
