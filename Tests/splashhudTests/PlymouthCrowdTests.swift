// SPDX-License-Identifier: MIT
// Another user's crowd against the real daemon's two sockets at once (in the serialized suite of
// Debian's plymouth client: Plymouth's socket is one per machine): uid 65534, in the control
// socket's group, keeps a thousand connections open to each socket, reopening every one the
// daemon closes, while root's `splashhud ping` and Debian's `plymouth --ping` go on being answered
// within their timeouts, and the daemon's log stays within the rate limiter's bound.
import Foundation
import PeerSupport
import Testing

extension PlymouthClientTests {
    @Test(.enabled(if: UnprivilegedPeers.available, "needs root, setpriv and /usr/bin/python3"))
    func rootIsAnsweredOnBothSocketsWhileAnotherUserHoldsAThousandConnectionsToEach() throws {
        let dir = try temporaryDirectory("plymouth-crowd")
        chmod(dir, 0o755)
        let daemon = try start(dir, extra: ["--socket-group", "nogroup"])
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        let control = try UnprivilegedPeers(address: "\(dir)/control", count: 1000, seconds: 30, reconnect: true)
        let plymouth = try UnprivilegedPeers(address: "@/org/freedesktop/plymouthd", count: 1000, seconds: 30, reconnect: true)
        defer { control.stop(); plymouth.stop() }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, control.poll() == nil || plymouth.poll() == nil { Thread.sleep(forTimeInterval: 0.05) }
        let started = (try #require(control.latest), try #require(plymouth.latest))
        let client = try SplashBinary.path()
        var slowest = (ours: 0.0, plymouths: 0.0)
        for _ in 0..<10 {
            var t0 = Date()
            // Its own timeout is 500 ms: exit 0 means answered within it.
            let (ours, oursOut) = try SplashBinary.run(client, ["ping", "--socket", "\(dir)/control"], timeout: 10)
            #expect(ours == 0, "\(oursOut)")
            slowest.ours = max(slowest.ours, Date().timeIntervalSince(t0))
            t0 = Date()
            let (theirs, theirsOut) = try SplashBinary.run(Self.plymouth, ["--ping"], timeout: 10)
            #expect(theirs == 0, "\(theirsOut)")
            slowest.plymouths = max(slowest.plymouths, Date().timeIntervalSince(t0))
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(slowest.ours < 1 && slowest.plymouths < 1, "slowest: \(slowest)")
        let pressed = (try #require(control.poll()), try #require(plymouth.poll()))
        #expect(pressed.0.reconnects > 0 && pressed.1.reconnects > 0, "the crowds kept coming back: \(started) \(pressed)")
        #expect(try SplashBinary.run(Self.plymouth, ["quit"]).0 == 0)
        daemon.waitUntilExit()
        let log = try String(contentsOfFile: "\(dir)/log", encoding: .utf8).split(separator: "\n")
        // Two windows of 10 s at most have passed: 101 lines each, and the start-up's and end's own.
        #expect(log.count <= 2 * 101 + 40, "\(log.count) lines: \(log.suffix(10))")
        #expect(log.contains { $0.contains("refused: uid 65534 has 8 connections open already") }, "\(log.prefix(40))")
        // The window still open at the end is summed up before the daemon goes.
        #expect(log.contains { $0.contains("more refused connections from uid 65534 on the control socket in the last ") }, "\(log.suffix(20))")
        #expect(log.contains { $0.contains("more refused connections from uid 65534 on Plymouth's socket in the last ") }, "\(log.suffix(20))")
    }
}
