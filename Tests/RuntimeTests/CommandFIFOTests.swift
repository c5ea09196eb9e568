// SPDX-License-Identifier: MIT
// The command FIFO with real named pipes in a temporary directory: creation and mode, refusal of
// a non-FIFO, trusting only our own FIFO that others cannot write (a 0666 one is replaced or
// refused), lines from several writers, EOF never spinning, and a sender that never blocks.
import Foundation
import Glibc
import HUDClient
import HUDProtocol
import Runtime
import SystemPackage
import Testing

@Suite("CommandFIFO", .serialized)
struct CommandFIFOTests {
    func temporaryDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "splashhud-fifo-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func mode(_ path: String) -> UInt32 {
        var st = stat()
        guard lstat(path, &st) == 0 else { return 0xFFFF_FFFF }
        return UInt32(st.st_mode)
    }

    /// Whether `fd` is readable right now (poll with no wait).
    func readable(_ fd: FileDescriptor) -> Bool {
        var p = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) == 1
    }

    @Test func createsAFIFOWithTheExactModeDespiteTheUmask() throws {
        let dir = try temporaryDirectory()
        let old = umask(0o077)
        defer { umask(old) }
        let fifo = try CommandFIFO(path: "\(dir)/f", mode: CommandFIFO.groupWritable) { _ in }
        #expect(fifo.created)
        #expect(mode("\(dir)/f") & UInt32(S_IFMT) == UInt32(S_IFIFO))
        #expect(mode("\(dir)/f") & 0o7777 == 0o620)
        fifo.close()
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/f"), "a FIFO we created is removed on close")
    }

    @Test func refusesANonFIFOAndLeavesItAlone() throws {
        let dir = try temporaryDirectory()
        try "keep me".write(toFile: "\(dir)/f", atomically: true, encoding: .utf8)
        #expect(throws: CommandFIFOError.notAFIFO(path: "\(dir)/f", found: "a regular file")) {
            _ = try CommandFIFO(path: "\(dir)/f") { _ in }
        }
        #expect(try String(contentsOfFile: "\(dir)/f", encoding: .utf8) == "keep me")
        #expect(throws: CommandFIFOError.notAFIFO(path: dir, found: "a directory")) {
            _ = try CommandFIFO(path: dir) { _ in }
        }
    }

    @Test func reusesALeftoverFIFOButNotOneSomebodyReads() throws {
        let dir = try temporaryDirectory()
        #expect(mkfifo("\(dir)/f", 0o600) == 0)
        let first = try CommandFIFO(path: "\(dir)/f") { _ in }
        #expect(!first.created)
        do {
            _ = try CommandFIFO(path: "\(dir)/f") { _ in }
            Issue.record("a second reader was allowed")
        } catch {
            #expect("\(error)".contains("another process is reading it"))
        }
        first.close()
        #expect(FileManager.default.fileExists(atPath: "\(dir)/f"), "a FIFO we did not create is left in place")
    }

    func inode(_ path: String) -> UInt64 {
        var st = stat()
        guard lstat(path, &st) == 0 else { return 0 }
        return UInt64(st.st_ino)
    }

    /// A FIFO at `path` with exactly `permissions` (chmod after mkfifo: the umask does not apply).
    func makeFIFO(_ path: String, _ permissions: mode_t) {
        #expect(mkfifo(path, 0o600) == 0 && chmod(path, permissions) == 0)
    }

    @Test(arguments: [0o600, 0o620, 0o640] as [mode_t])
    func ourOwnFIFONobodyElseCanWriteIsReused(permissions: mode_t) throws {
        let dir = try temporaryDirectory()
        makeFIFO("\(dir)/f", permissions)
        let before = inode("\(dir)/f")
        let fifo = try CommandFIFO(path: "\(dir)/f") { _ in }
        #expect(!fifo.created && fifo.replacedUntrusted == nil)
        #expect(inode("\(dir)/f") == before)
        #expect(mode("\(dir)/f") & 0o7777 == UInt32(permissions), "a reused FIFO keeps its mode")
        fifo.close()
        #expect(inode("\(dir)/f") == before, "a FIFO we did not create is left in place")
    }

    @Test func aFIFOOthersCanWriteIsReplacedAndItsWritersReachNothing() throws {
        let dir = try temporaryDirectory()
        makeFIFO("\(dir)/f", 0o666)
        let before = inode("\(dir)/f")
        // Somebody who opened the world-writable FIFO before the splash started (O_RDWR: no reader yet).
        let intruder = open("\(dir)/f", O_RDWR | O_NONBLOCK)
        #expect(intruder >= 0)
        defer { close(intruder) }
        var got: [String] = []
        let fifo = try CommandFIFO(path: "\(dir)/f", mode: CommandFIFO.groupWritable) { got.append((try? $0.get()) ?? "ERROR") }
        #expect(fifo.created)
        #expect(fifo.replacedUntrusted == "a FIFO owned by uid \(geteuid()) with mode 0666")
        #expect(inode("\(dir)/f") != before, "a new FIFO, not the old one chmodded (its writers would keep their access)")
        #expect(mode("\(dir)/f") & UInt32(S_IFMT) == UInt32(S_IFIFO))
        #expect(mode("\(dir)/f") & 0o7777 == 0o620)
        _ = "QUIT\n".withCString { write(intruder, $0, 5) }
        #expect(try fifo.drain() == 0 && got.isEmpty, "the old FIFO's writer reached the splash: \(got)")
        try CommandFIFOSender.send(["MSG ok"], to: "\(dir)/f")
        #expect(try fifo.drain() == 1 && got == ["MSG ok"])
        fifo.close()
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/f"))
    }

    /// Root may remove another user's FIFO, so it is replaced rather than trusted.
    @Test(.enabled(if: geteuid() == 0, "chown needs root"))
    func anotherUsersFIFOIsReplaced() throws {
        let dir = try temporaryDirectory()
        makeFIFO("\(dir)/f", 0o600)
        #expect(chown("\(dir)/f", 65534, 65534) == 0)
        let before = inode("\(dir)/f")
        // Held open so its inode number cannot be reused for the new FIFO.
        let old = open("\(dir)/f", O_RDWR | O_NONBLOCK)
        #expect(old >= 0)
        defer { close(old) }
        let fifo = try CommandFIFO(path: "\(dir)/f") { _ in }
        #expect(fifo.created && fifo.replacedUntrusted == "a FIFO owned by uid 65534 with mode 0600")
        #expect(inode("\(dir)/f") != before)
        var st = stat()
        #expect(lstat("\(dir)/f", &st) == 0 && st.st_uid == geteuid())
        fifo.close()
    }

    /// A FIFO others can write in a directory we may not change is refused, naming path, owner
    /// and mode. (Root may remove anything here; splashhudTests runs this case as nobody.)
    @Test(.enabled(if: geteuid() != 0, "root can remove the FIFO, so it is replaced instead"))
    func aFIFOOthersCanWriteThatCannotBeRemovedIsRefused() throws {
        let dir = try temporaryDirectory()
        makeFIFO("\(dir)/f", 0o666)
        #expect(chmod(dir, 0o555) == 0)
        defer { chmod(dir, 0o755) }
        do {
            _ = try CommandFIFO(path: "\(dir)/f") { _ in }
            Issue.record("a FIFO anyone can write was read")
        } catch {
            #expect(error == .untrustedFIFO(path: "\(dir)/f", owner: geteuid(), mode: 0o666, expectedOwner: geteuid(),
                                            removal: .permissionDenied))
            #expect("\(error)".hasPrefix("\(dir)/f is a FIFO owned by uid \(geteuid()) with mode 0666: "), "\(error)")
        }
        #expect(mode("\(dir)/f") & 0o7777 == 0o666, "left alone")
    }

    @Test func untrustedFIFOMessageNamesPathOwnerAndMode() {
        let e = CommandFIFOError.untrustedFIFO(path: "/tmp/s.fifo", owner: 1000, mode: 0o666, expectedOwner: 0, removal: .permissionDenied)
        #expect(e.description == "/tmp/s.fifo is a FIFO owned by uid 1000 with mode 0666: the splash reads only a FIFO owned by uid 0 "
                + "that others cannot write, and removing it failed: Permission denied (errno 13) - remove it or choose another --fifo path")
    }

    @Test func linesFromSeveralWritersArriveInOrderAndEOFNeverSpins() throws {
        let dir = try temporaryDirectory()
        var got: [String] = []
        let fifo = try CommandFIFO(path: "\(dir)/f") { r in got.append((try? r.get()) ?? "ERROR") }
        #expect(!readable(fifo.descriptor), "nothing written yet")
        try CommandFIFOSender.send(["show \"Starting\"", "progress 0.4 \"Installing 3 of 7\""], to: "\(dir)/f")
        // A shell `echo` that opens, writes a line in two pieces and closes (psplash-write style NUL).
        let fd = open("\(dir)/f", O_WRONLY | O_NONBLOCK)
        #expect(fd >= 0)
        _ = "MSG Hal".withCString { write(fd, $0, 7) }
        #expect(readable(fifo.descriptor))
        #expect(try fifo.drain() == 2)
        #expect(got == ["show \"Starting\"", "progress 0.4 \"Installing 3 of 7\""])
        _ = "lo\u{0}".withCString { write(fd, $0, 3) }
        close(fd)
        #expect(try fifo.drain() == 1)
        #expect(got.last == "MSG Hallo")
        // Every writer has closed; without our own write end poll would now report POLLHUP forever.
        #expect(!readable(fifo.descriptor), "the read end must not stay readable after writers close")
        #expect(try fifo.drain() == 0)
        fifo.close()
    }

    @Test func rejectedLinesReachTheCallbackAndReadingGoesOn() throws {
        let dir = try temporaryDirectory()
        var got: [Result<String, CommandFIFOError>] = []
        let fifo = try CommandFIFO(path: "\(dir)/f", lineLimit: 16) { got.append($0) }
        let fd = open("\(dir)/f", O_WRONLY | O_NONBLOCK)
        let bytes: [UInt8] = Array(String(repeating: "x", count: 40).utf8) + [0x0A, 0xFF, 0x0A] + Array("exit\n".utf8)
        #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
        close(fd)
        try fifo.drain()
        #expect(got.count == 3)
        #expect(got[0] == .failure(.lineTooLong(bytes: 40, limit: 16)))
        #expect(got[1] == .failure(.invalidUTF8(byteOffset: 0)))
        #expect(got[2] == .success("exit"))
    }

    @Test func sendWithoutAReaderFailsAtOnce() throws {
        let dir = try temporaryDirectory()
        #expect(throws: CommandFIFOError.missing(path: "\(dir)/none")) { try CommandFIFOSender.send(["QUIT"], to: "\(dir)/none") }
        #expect(mkfifo("\(dir)/f", 0o600) == 0)
        // At once, not after the timeout: a long one, so a loaded host cannot blur the two.
        let start = ContinuousClock.now
        #expect(throws: CommandFIFOError.noReader(path: "\(dir)/f")) {
            try CommandFIFOSender.send(["QUIT"], to: "\(dir)/f", timeoutMilliseconds: 30_000)
        }
        #expect(ContinuousClock.now - start < .seconds(15))
        try "x".write(toFile: "\(dir)/file", atomically: true, encoding: .utf8)
        #expect(throws: CommandFIFOError.notAFIFO(path: "\(dir)/file", found: "a regular file")) {
            try CommandFIFOSender.send(["QUIT"], to: "\(dir)/file")
        }
    }

    @Test func sendToAFullFIFOTimesOutInsteadOfBlocking() throws {
        let dir = try temporaryDirectory()
        let fifo = try CommandFIFO(path: "\(dir)/f") { _ in }
        // Nobody drains: the pipe (64 KiB by default) fills up.
        let line = String(repeating: "y", count: 4000)
        let start = ContinuousClock.now
        #expect(throws: CommandFIFOError.writeTimedOut(path: "\(dir)/f", milliseconds: 100)) {
            try CommandFIFOSender.send(Array(repeating: line, count: 40), to: "\(dir)/f", timeoutMilliseconds: 100)
        }
        let took = ContinuousClock.now - start
        #expect(took >= .milliseconds(100) && took < .seconds(10), "\(took)")
        fifo.close()
    }

    @Test func sendRefusesLinesThatWouldSplitOrNotFitAtomically() throws {
        let dir = try temporaryDirectory()
        let fifo = try CommandFIFO(path: "\(dir)/f") { _ in }
        #expect(throws: CommandFIFOError.lineTooLong(bytes: 5000, limit: 4095)) {
            try CommandFIFOSender.send([String(repeating: "z", count: 5000)], to: "\(dir)/f")
        }
        #expect(throws: CommandFIFOError.splitLine(line: 2, byteOffset: 6)) {
            try CommandFIFOSender.send(["show b", "show a\nQUIT"], to: "\(dir)/f")
        }
        var got = 0
        fifo.onInput = { _ in got += 1 }
        #expect(try fifo.drain() == 0, "nothing of a refused batch is written")
        fifo.close()
    }
}
