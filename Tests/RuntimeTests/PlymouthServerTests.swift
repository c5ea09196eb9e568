// SPDX-License-Identifier: MIT
// The Plymouth listener in process, on an abstract name of its own (so it runs beside anything):
// raw request bytes in, ACK/NAK out, the HUD changed through the runtime's queue.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HUDProtocol
import LinuxSystem
import PeerSupport
import Runtime
import Testing

@Suite("Plymouth listener", .serialized)
struct PlymouthServerTests {
    func serve(_ rig: ControlRig) throws -> (PlymouthServer, String) {
        let name = "@splashhud-test-plymouth-\(UInt32.random(in: 0...UInt32.max))"
        return (try PlymouthServer(runtime: rig.runtime, listener: try PlymouthServer.bind(name), address: name), name)
    }

    func replies(_ rig: ControlRig, _ c: RawClient, count: Int) throws -> [UInt8] {
        var got: [UInt8] = []
        try rig.run { got += c.take(1) ?? []; return got.count >= count }
        return got
    }

    @Test func requestsBecomeHUDChangesAndEachIsAnswered() throws {
        let rig = try ControlRig()
        let (server, name) = try serve(rig)
        defer { server.close() }
        let c = try RawClient(path: name)
        c.sendBytes(Array("P\0$\0M\u{02}\u{08}Booting\0u\u{02}\u{03}30\0".utf8))
        #expect(try replies(rig, c, count: 4) == [0x06, 0x06, 0x06, 0x06])
        try rig.run(for: 0.3)
        let state = rig.runtime.state()
        #expect(state.visible && state.mode == "ring" && abs((state.progress ?? 0) - 0.3) < 0.001 && state.status == "Booting", "\(state.line)")
        // Unknown bytes are refused at once.
        c.sendBytes(Array("z\0".utf8))
        #expect(try replies(rig, c, count: 1) == [0x15])
    }

    /// `update-root-fs --new-root-dir=DIR` into a directory that is not there: NAK, the reason
    /// logged, the root and working directory as they were, and the listener still answers. (A
    /// root that can be entered is entered by a daemon of its own: PlymouthClientTests.)
    @Test func aNewRootThatCannotBeEnteredIsRefusedAndNothingMoves() throws {
        let rig = try ControlRig()
        let (server, name) = try serve(rig)
        defer { server.close() }
        let before = FileManager.default.currentDirectoryPath
        let missing = "/nonexistent-root-\(UInt32.random(in: 0...UInt32.max))"
        let c = try RawClient(path: name)
        c.sendBytes([UInt8(ascii: "R"), 0x02, UInt8(missing.utf8.count + 1)] + Array(missing.utf8) + [0])
        #expect(try replies(rig, c, count: 1) == [0x15])
        #expect(rig.log.contains("plymouth: cannot move into the new root: chdir \(missing) failed", level: .warning), "\(rig.log.lines)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/root") == "/")
        #expect(FileManager.default.currentDirectoryPath == before)
        c.sendBytes(Array("P\0".utf8))
        #expect(try replies(rig, c, count: 1) == [0x06])
    }

    @Test func aKeystrokeWatchIsAnsweredWithItsKeyAndIgnoreEndsOne() throws {
        let rig = try ControlRig()
        let (server, name) = try serve(rig)
        defer { server.close() }
        let yes = try RawClient(path: name), any = try RawClient(path: name)
        yes.sendBytes(Array("K\u{02}\u{03}yn\0".utf8))
        any.sendBytes(Array("K\0".utf8))
        try rig.run(for: 0.2)
        #expect(rig.runtime.isWatchingKeys)
        // 'x' answers only the watch that takes any key: 0x02, length 1 (little-endian), "x".
        rig.runtime.handle(.key(code: 45, pressed: true, repeated: false))
        let answer: [UInt8] = [0x02, 1, 0, 0, 0] + Array("x".utf8)
        #expect(try replies(rig, any, count: answer.count) == answer)
        rig.runtime.handle(.key(code: 21, pressed: true, repeated: false))  // 'y'
        #expect(try replies(rig, yes, count: answer.count) == [0x02, 1, 0, 0, 0] + Array("y".utf8))
        #expect(!rig.runtime.isWatchingKeys, "no watch waits any more")
        // ignore-keystroke ends a waiting watch with NO_ANSWER and is itself ACKed.
        let waiting = try RawClient(path: name), ignorer = try RawClient(path: name)
        waiting.sendBytes(Array("K\u{02}\u{02}q\0".utf8))
        try rig.run(for: 0.2)
        ignorer.sendBytes(Array("L\u{02}\u{02}q\0".utf8))
        #expect(try replies(rig, ignorer, count: 1) == [0x06])
        #expect(try replies(rig, waiting, count: 1) == [0x05])
        #expect(!rig.runtime.isWatchingKeys)
    }

    /// Without a terminal to read keys from, a password request is answered NO_ANSWER at once
    /// (plymouthd's answer when it cannot show a prompt), and the progress stays paused until the
    /// client's unpause.
    @Test func withoutAKeyboardAPasswordRequestHasNoAnswer() throws {
        let rig = try ControlRig()
        let (server, name) = try serve(rig)
        defer { server.close() }
        let estimate = BootEstimate(runtime: rig.runtime, stateDirectory: rig.dir, logger: rig.log.logger)
        server.bootEstimate = estimate
        let c = try RawClient(path: name)
        c.sendBytes(Array("A\0".utf8))
        #expect(try replies(rig, c, count: 1) == [0x06])
        #expect(estimate.paused)
        c.sendBytes(Array("*\u{02}\u{06}Disk:\0".utf8))
        #expect(try replies(rig, c, count: 1) == [0x05])
        #expect(rig.log.contains("no terminal to read keys from"))
        c.sendBytes(Array("a\0".utf8))
        #expect(try replies(rig, c, count: 1) == [0x06])
        #expect(!estimate.paused)
    }

    /// systemd's way: each unit's status written to the socket, the connection closed without
    /// reading the ACK. The HUD takes the status, and the hang-up is not a warning (it was one per
    /// unit in a boot's journal).
    @Test func aSenderThatHangsUpBeforeItsAnswerIsNoFault() throws {
        let rig = try ControlRig()
        let (server, name) = try serve(rig)
        defer { server.close() }
        for text in ["Mounting /boot", "Starting udev"] {
            let gone = try RawClient(path: name)
            gone.sendBytes(Array("U\u{02}\(Character(Unicode.Scalar(UInt8(text.utf8.count + 1))))\(text)\0".utf8))
            gone.shutDown()
            try rig.run(for: 0.3)
        }
        #expect(!rig.log.lines.contains { $0.level >= .warning }, "\(rig.log.lines.filter { $0.level >= .warning })")
        #expect(rig.log.contains("closed", level: .debug))
        // Still answering the next client.
        let next = try RawClient(path: name)
        next.sendBytes(Array("P\0".utf8))
        #expect(try replies(rig, next, count: 1) == [0x06])
    }

    @Test func aMalformedRequestClosesOnlyItsConnection() throws {
        let rig = try ControlRig()
        let (server, name) = try serve(rig)
        defer { server.close() }
        let bad = try RawClient(path: name), good = try RawClient(path: name)
        bad.sendBytes([0x50, 0x07])
        try rig.run(for: 0.3) { _ = bad.readLines(); return bad.closedByPeer }
        #expect(bad.closedByPeer)
        #expect(rig.log.contains("malformed Plymouth request"))
        good.sendBytes(Array("P\0".utf8))
        #expect(try replies(rig, good, count: 1) == [0x06])
    }

    @Test func aSenderThatNeverReadsItsRepliesIsCutOff() throws {
        let rig = try ControlRig()
        let (server, name) = try serve(rig)
        defer { server.close() }
        server.outputLimit = 1024
        let lazy = try RawClient(path: name)
        // Pings as fast as the socket takes them; the client never reads the ACKs.
        let burst = Array(String(repeating: "P\0", count: 4096).utf8)
        try rig.run(for: 10) {
            _ = lazy.sendSome(burst)
            return rig.log.contains("bytes of replies unread: disconnected")
        }
        #expect(rig.log.contains("bytes of replies unread: disconnected"))
    }
}

/// Slots and idle clients on Plymouth's socket (an abstract name anyone can connect to).
extension PlymouthServerTests {
    @Test func idleClientsGoWhileAKeystrokeWatchThePauseBracketAndAWaitStay() throws {
        let rig = try ControlRig()
        let (server, name) = try serve(rig)
        defer { server.close() }
        server.limits.idleNanoseconds = 400_000_000
        let silent = try RawClient(path: name), pinged = try RawClient(path: name)
        let watcher = try RawClient(path: name), bracket = try RawClient(path: name)
        pinged.sendBytes(Array("P\0".utf8))
        #expect(try replies(rig, pinged, count: 1) == [0x06])
        bracket.sendBytes(Array("A\0".utf8))
        #expect(try replies(rig, bracket, count: 1) == [0x06])
        watcher.sendBytes(Array("K\0".utf8))
        try rig.run(for: 2) { _ = pinged.readLines(); return pinged.closedByPeer }
        #expect(pinged.closedByPeer)
        _ = watcher.readLines(); _ = bracket.readLines(); _ = silent.readLines()
        #expect(!watcher.closedByPeer && !bracket.closedByPeer, "waiting on a key and inside pause-progress: not idle")
        #expect(!silent.closedByPeer, "root's client that never sent a request is `plymouth --wait`: waiting, not idle")
        #expect(rig.log.contains("no complete request for 400 ms: closed"))
        // unpause-progress ends the bracket; the idle time then runs from it.
        bracket.sendBytes(Array("a\0".utf8))
        #expect(try replies(rig, bracket, count: 1) == [0x06])
        try rig.run(for: 2) { _ = bracket.readLines(); return bracket.closedByPeer }
        #expect(bracket.closedByPeer)
        _ = watcher.readLines(); _ = silent.readLines()
        #expect(!watcher.closedByPeer && !silent.closedByPeer)
    }

    /// A peer that is neither root nor our user gets plymouthd's NAK and is closed, so it holds no
    /// slot; one that sends nothing goes after the short idle time. A crowd of them holds 8 slots
    /// at most, and root is answered meanwhile.
    @Test(.enabled(if: UnprivilegedPeers.available, "needs root, setpriv and /usr/bin/python3"))
    func anotherUsersPeersAreAnsweredNAKAndClosed() throws {
        let rig = try ControlRig()
        let (server, name) = try serve(rig)
        defer { server.close() }
        var limits = server.limits
        limits.untrustedIdleNanoseconds = 300_000_000
        server.limits = limits
        let askers = try UnprivilegedPeers(address: name, count: 1000, seconds: 20, send: Array("P\0".utf8))
        defer { askers.stop() }
        var most = 0
        try rig.run(for: 30) {
            most = max(most, server.connectionCount(uid: 65534))
            return askers.poll().map { $0.closed + $0.failed == 1000 } ?? false
        }
        // Each was closed: at once when no slot was free (its request then fails to go out), or
        // after its NAK.
        let asked = try #require(askers.latest)
        #expect(asked.alive == 0 && asked.closed + asked.failed == 1000, "\(asked)")
        #expect(asked.received > 0 && asked.received <= asked.closed, "a NAK for each one that got a slot: \(asked)")
        #expect(most <= 8, "\(most) slots held at once")
        #expect(rig.log.contains("not root: ping refused; closing"))
        let root = try RawClient(path: name)
        root.sendBytes(Array("P\0".utf8))
        #expect(try replies(rig, root, count: 1) == [0x06])
        // Silent ones: 8 held for the short idle time, the rest refused at once.
        let silent = try UnprivilegedPeers(address: name, count: 20, seconds: 20)
        defer { silent.stop() }
        let start = MonotonicClock.nanoseconds()
        try rig.run(for: 5) { silent.poll()?.closed == 20 }
        #expect(silent.latest?.closed == 20)
        #expect(MonotonicClock.nanoseconds() - start < 3_000_000_000)
        #expect(rig.log.contains("no complete request for 300 ms: closed"))
    }
}
