// SPDX-License-Identifier: MIT
// Connection slots and idle clients on the control socket, in process with real sockets: another
// user (uid 65534, a real process through setpriv, in the socket's group) holding and churning a
// thousand connections gets its 8 and no more while root's Swift client is answered within its
// timeout; idle clients are closed after the idle time while a subscriber and a `wait` stay; the
// unprivileged pool is shared, root's is not; root's own idle crowd gives its slots back; and the
// log stays within its bound whatever the crowd does.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HUDClient
import LinuxSystem
import PeerSupport
import Runtime
import Testing

@Suite("Connection slots", .serialized)
struct ConnectionSlotsTests {
    static let nobody: UInt32 = 65534

    /// A rig whose socket admits uid 65534 (group 65534, a directory it can enter).
    func rig() throws -> ControlRig {
        let rig = try ControlRig(group: "\(Self.nobody)")
        chmod(rig.dir, 0o755)
        return rig
    }

    /// Runs the loop until the crowd has tried all its connections (its first report).
    func started(_ rig: ControlRig, _ crowd: UnprivilegedPeers) throws -> UnprivilegedPeers.Report {
        try #require(try rig.run(for: 30) { crowd.poll() != nil }, "the crowd never reported")
        return try #require(crowd.latest)
    }

    /// Opens `connections` more connections of this (root's) process, pings on each and runs the
    /// loop until all are answered or 5 s pass: the clients (open while the caller keeps them)
    /// and the pongs received.
    func pings(_ rig: ControlRig, connections: Int) throws -> (clients: [RawClient], answered: Int) {
        let clients = try (0..<connections).map { _ in try rig.connect() }
        for c in clients { c.send("ping\n") }
        var answered = 0
        try rig.run(for: 5) {
            answered += clients.reduce(0) { $0 + $1.readLines().filter { $0 == "ok pong" }.count }
            return answered == connections
        }
        return (clients, answered)
    }

    final class Pings: @unchecked Sendable {
        let lock = NSLock()
        var done = false
        var failures: [String] = []
        var slowest: Int64 = 0
    }

    @Test(.enabled(if: UnprivilegedPeers.available, "needs root, setpriv and /usr/bin/python3"))
    func rootIsAnsweredWhileAnotherUserChurnsAThousandConnections() throws {
        let rig = try rig()
        rig.runtime.peerLog.window = 1_000_000_000
        let crowd = try UnprivilegedPeers(address: rig.path, count: 1000, seconds: 8, reconnect: true)
        defer { crowd.stop() }
        let first = try started(rig, crowd)
        #expect(first.alive + first.closed + first.failed >= 1000, "\(first)")
        let logged = rig.log.lines.count
        let start = MonotonicClock.nanoseconds()
        // Root's own client (HUDClient, its default 500 ms timeout), on a thread of its own while
        // this one runs the daemon: 20 connections, one ping each.
        let pings = Pings()
        let path = rig.path
        Thread.detachNewThread {
            for i in 0..<20 {
                let t0 = MonotonicClock.nanoseconds()
                do {
                    let client = try ControlClient(socket: path)
                    let reply = try client.request("ping")
                    if reply != "pong" { pings.lock.withLock { pings.failures.append("ping \(i): \(reply ?? "nil")") } }
                } catch {
                    pings.lock.withLock { pings.failures.append("ping \(i): \(error)") }
                }
                let took = MonotonicClock.nanoseconds() - t0
                pings.lock.withLock { pings.slowest = max(pings.slowest, took) }
                usleep(100_000)
            }
            pings.lock.withLock { pings.done = true }
        }
        var most = 0
        let finished = try rig.run(for: 20) {
            most = max(most, rig.server.connectionCount(uid: Self.nobody))
            return pings.lock.withLock { pings.done }
        }
        #expect(finished)
        pings.lock.withLock {
            #expect(pings.failures.isEmpty, "\(pings.failures)")
            #expect(pings.slowest < 500_000_000, "the slowest ping took \(pings.slowest / 1_000_000) ms")
        }
        #expect(most == 8, "uid 65534 held \(most) connections at most")
        let report = try #require(crowd.poll())
        #expect(report.reconnects > 100, "the crowd kept reconnecting: \(report)")
        // The churn's log: 101 lines a window at most (50 in full, 51 summaries), windows of 1 s.
        let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
        try rig.run(for: 1.1)
        let lines = rig.log.lines.count - logged
        #expect(Double(lines) <= 101 * (seconds.rounded(.up) + 2), "\(lines) lines in \(seconds) s")
        #expect(rig.log.contains("more refused connections from uid 65534 on the control socket in the last "), "\(rig.log.lines.suffix(20))")
    }

    @Test(.enabled(if: UnprivilegedPeers.available, "needs root, setpriv and /usr/bin/python3"))
    func idleClientsAreClosedWhileASubscriberAndAWaitStay() throws {
        let rig = try rig()
        rig.server.limits.idleNanoseconds = 400_000_000
        let crowd = try UnprivilegedPeers(address: rig.path, count: 5, seconds: 10)
        defer { crowd.stop() }
        #expect(try started(rig, crowd).alive == 5)
        let silent = try rig.connect()
        let pinged = try rig.connect(), subscriber = try rig.connect(), waiter = try rig.connect()
        pinged.send("ping\n")
        subscriber.send("subscribe\n")
        waiter.send("show Working\nwait\n")
        #expect(try rig.lines(pinged, count: 1) == ["ok pong"])
        #expect(try rig.lines(subscriber, count: 1).first == "ok subscribed")
        #expect(try rig.lines(waiter, count: 1) == ["ok"])
        #expect(rig.server.connectionCount(uid: 0) == 4)
        // Not before the idle time...
        try rig.run(for: 0.2)
        _ = silent.readLines()
        #expect(!silent.closedByPeer)
        // ...and soon after it.
        try rig.run(for: 2) { _ = silent.readLines(); _ = pinged.readLines(); crowd.poll(); return crowd.latest?.closed == 5 && silent.closedByPeer && pinged.closedByPeer }
        #expect(silent.closedByPeer && pinged.closedByPeer)
        #expect(crowd.latest?.closed == 5, "\(String(describing: crowd.latest))")
        _ = subscriber.readLines(); _ = waiter.readLines()
        #expect(!subscriber.closedByPeer && !waiter.closedByPeer)
        #expect(rig.server.connectionCount == 2)
        #expect(rig.log.contains("no complete request for 400 ms: closed"))
        // The wait ends: it is answered, the subscriber hears of it, and both go on.
        let other = try rig.connect()
        other.send("dismiss\n")
        #expect(try rig.lines(waiter, count: 1) == ["ok hidden"])
        var events: [String] = []
        try rig.run(for: 3) { events += subscriber.readLines(); return events.contains { $0.contains("did-disappear") } }
        #expect(events.contains { $0.contains("did-disappear") }, "\(events)")
        // Answered, the waiter waits on nothing and has the whole idle time again, then goes.
        try rig.run(for: 0.2)
        _ = waiter.readLines()
        #expect(!waiter.closedByPeer)
        try rig.run(for: 2) { _ = waiter.readLines(); return waiter.closedByPeer }
        #expect(waiter.closedByPeer)
        _ = subscriber.readLines()
        #expect(!subscriber.closedByPeer, "a subscriber is never idle")
    }

    /// Root's own crowd: 1,500 idle connections of uid 0 fill root's 64 slots, and root's next
    /// client is refused at once (closed, not left in the listen backlog; those the crowd opened
    /// faster than the loop accepts them find the backlog full and fail to connect). Once the idle time has
    /// closed the 64, a new root client gets in and is answered: none of the crowd's other 1,436
    /// connections waits in the backlog to take the freed slots.
    @Test(.enabled(if: UnprivilegedPeers.available, "needs root, setpriv and /usr/bin/python3"))
    func rootsOwnIdleCrowdGivesBackItsSlots() throws {
        let rig = try rig()
        rig.server.limits.idleNanoseconds = 1_000_000_000
        rig.runtime.peerLog.window = 1_000_000_000
        let crowd = try UnprivilegedPeers(address: rig.path, count: 1500, seconds: 20, uid: 0)
        defer { crowd.stop() }
        let first = try started(rig, crowd)
        try rig.run(for: 5) { crowd.poll().map { $0.alive + $0.closed + $0.failed >= 1500 && $0.alive <= 64 } ?? false }
        let full = try #require(crowd.latest)
        #expect(full.alive == 64 && full.closed + full.failed == 1436, "\(first) then \(full)")
        #expect(rig.server.connectionCount(uid: 0) == 64)
        // Full: refused at once.
        let refused = try rig.connect()
        refused.send("ping\n")
        try rig.run(for: 2) { _ = refused.readLines(); return refused.closedByPeer }
        #expect(refused.closedByPeer, "a root client beyond root's pool is closed, not kept waiting")
        #expect(rig.log.contains("refused: 64 connections of root and uid"))
        // The idle time closes the 64; the next root client is answered.
        try rig.run(for: 3) { crowd.poll()?.alive == 0 }
        #expect(crowd.latest.map { $0.alive == 0 && $0.closed + $0.failed == 1500 } == true, "\(String(describing: crowd.latest))")
        #expect(rig.server.connectionCount(uid: 0) == 0)
        let root = try pings(rig, connections: 1)
        #expect(root.answered == 1, "root gets in once its crowd has gone idle")
        withExtendedLifetime(root.clients) {}
    }

    @Test(.enabled(if: UnprivilegedPeers.available, "needs root, setpriv and /usr/bin/python3"))
    func aGroupMembersConnectionsAreCappedAndRootsAreNot() throws {
        let rig = try rig()
        // Every refusal in full, for the checks below.
        rig.runtime.peerLog.perSource = 1000
        rig.runtime.peerLog.total = 1000
        let crowd = try UnprivilegedPeers(address: rig.path, count: 20, seconds: 10)
        let report = try started(rig, crowd)
        try rig.run(for: 0.3) { crowd.poll()?.closed == 12 }
        #expect(rig.server.connectionCount(uid: Self.nobody) == 8)
        #expect(crowd.latest?.closed == 12 && crowd.latest?.alive == 8, "\(report) then \(String(describing: crowd.latest))")
        #expect(rig.log.contains("refused: uid 65534 has 8 connections open already"))
        // Root: 40 connections, more than the group member's share, every one answered.
        let root = try pings(rig, connections: 40)
        #expect(root.answered == 40)
        #expect(rig.server.connectionCount(uid: 0) == 40 && rig.server.connectionCount(uid: Self.nobody) == 8)
        // Eight more users of the group, ten connections each, beside the first one's eight: the
        // pool they share is full at 64, whatever each one's share; root's pool is its own.
        let uids: [UInt32] = [Self.nobody] + (60001...60008).map { $0 }
        let crowds = try uids.dropFirst().map { try UnprivilegedPeers(address: rig.path, count: 10, seconds: 10, uid: $0) }
        defer { for c in crowds { c.stop() } }
        for c in crowds { _ = try started(rig, c) }
        try rig.run(for: 3) { uids.reduce(0) { $0 + rig.server.connectionCount(uid: $1) } == 64 && crowds.allSatisfy { $0.poll()?.alive ?? 0 <= 8 } }
        let held = uids.map { rig.server.connectionCount(uid: $0) }
        #expect(held.reduce(0, +) == 64 && held.allSatisfy { $0 <= 8 }, "\(held)")
        #expect(rig.log.contains("refused: 64 connections of other users are open already"))
        let more = try pings(rig, connections: 20)
        #expect(more.answered == 20, "root still gets its slots with the others' pool full")
        #expect(rig.server.connectionCount(uid: 0) == 60, "root's pool is its own")
        withExtendedLifetime((root.clients, more.clients)) {}  // open until here: counted above
    }
}
