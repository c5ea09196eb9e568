// SPDX-License-Identifier: MIT
// The control socket end to end in one process: real Unix sockets, the real epoll loop and clock,
// the HUD on a memory display. Every request gets exactly one reply, in order; malformed lines are
// refused and change nothing; progress floods are coalesced but each answered; a subscriber that
// never reads is cut off while the others go on; the state goes, at once and on each change, only
// to a subscriber that asks for it; a snapshot is what the screen shows.
#if canImport(Glibc)
import Glibc
#endif
import Assets
import Display
import HUDProtocol
import LinuxSystem
import Raster
import Runtime
import Testing

@Suite("Control socket", .serialized)
struct ControlServerTests {
    @Test func everyRequestGetsOneReplyInOrder() throws {
        let rig = try ControlRig()
        let c = try rig.connect()
        c.send("ping\nversion\n\n# comment\nshow \"Booting\"\nbogus 1\nset font-size 9000\nstate\n")
        let replies = try rig.lines(c, count: 8)
        #expect(replies.count == 8, "\(replies)")
        #expect(replies[0] == "ok pong")
        #expect(replies[1] == "ok protocol \(ControlProtocol.version) splashhud \(SplashHUDVersion.current)")
        #expect(replies[2] == "ok" && replies[3] == "ok", "blank and comment lines are answered too")
        #expect(replies[4] == "ok")
        #expect(replies[5].hasPrefix("error syntax unknown verb 'bogus'"), "\(replies[5])")
        #expect(replies[6].hasPrefix("error syntax"), "\(replies[6])")
        let state = try #require(HUDState(line: String(replies[7].dropFirst(3))))
        #expect(state.visible && state.mode == "spinner" && state.status == "Booting")
        #expect(state.outputs == [HUDState.Output(name: "memory", width: 200, height: 120)])
        // The refused lines changed nothing.
        #expect(rig.runtime.controller.appearance.fontSize != Fixed16_16(9000))
        #expect(rig.log.contains("control client 1 (pid \(getpid()) uid \(geteuid())"), "peer credentials are logged")
    }

    @Test func keyEventsGoOnlyToWhoWatchesKeys() throws {
        let rig = try ControlRig()
        let plain = try rig.connect(), watcher = try rig.connect()
        plain.send("subscribe\nshow\n")
        watcher.send("subscribe keys\n")
        let a = try rig.lines(plain, count: 2), b = try rig.lines(watcher, count: 1)
        #expect(a.filter { !$0.hasPrefix("event") } == ["ok subscribed", "ok"], "\(a)")
        #expect(b.first == "ok subscribed", "\(b)")
        #expect(rig.runtime.isWatchingKeys)
        rig.runtime.enqueue(.key(code: 30, pressed: true, repeated: false))
        var got: [String] = []
        try rig.run(for: 3) { got += watcher.readLines().filter { $0.contains(" key ") }; return !got.isEmpty }
        #expect(got.count == 1 && got[0].hasSuffix("key key a text a"), "\(got)")
        try rig.run(for: 0.3)
        #expect(!plain.readLines().contains { $0.contains(" key ") }, "a plain subscriber gets no key events")
    }

    @Test func theStateGoesOnlyToWhoAsksAtOnceAndOnEveryChange() throws {
        let rig = try ControlRig()
        let plain = try rig.connect(), follower = try rig.connect()
        plain.send("subscribe\n")
        follower.send("subscribe state\n")
        #expect(try rig.lines(plain, count: 1) == ["ok subscribed"])
        let first = try rig.lines(follower, count: 2)
        #expect(first.first == "ok subscribed", "\(first)")
        #expect(first.dropFirst().first.flatMap { HUDState(eventLine: $0) }?.visible == false, "\(first)")
        // A change by another client comes once, after the turn that made it.
        let other = try rig.connect()
        other.send("progress 0.25 \"Copying\"\n")
        #expect(try rig.lines(other, count: 1) == ["ok"])
        var states: [HUDState] = []
        try rig.run(for: 3) {
            states += follower.readLines().compactMap { HUDState(eventLine: $0) }
            return states.contains { $0.progress == 0.25 && $0.status == "Copying" }
        }
        #expect(states.contains { $0.progress == 0.25 && $0.status == "Copying" && $0.visible }, "\(states)")
        // Nothing changes: nothing is sent.
        try rig.run(for: 0.5)
        states = follower.readLines().compactMap { HUDState(eventLine: $0) }
        #expect(states.allSatisfy { $0.progress == 0.25 }, "\(states)")
        try rig.run(for: 0.5)
        #expect(follower.readLines().compactMap { HUDState(eventLine: $0) }.isEmpty)
        #expect(!plain.readLines().contains { $0.contains(" state ") }, "a plain subscriber gets no state events")
    }

    @Test func badLinesAreRefusedAndTheConnectionGoesOn() throws {
        let rig = try ControlRig()
        let c = try rig.connect()
        c.sendBytes(Array(String(repeating: "x", count: 5000).utf8) + [0x0A] + [0x70, 0xFF, 0x0A] + Array("ping\n".utf8))
        let replies = try rig.lines(c, count: 3)
        #expect(replies.count == 3, "\(replies)")
        #expect(replies[0].hasPrefix("error bad-line") && replies[0].contains("4095"), "\(replies)")
        #expect(replies[1].hasPrefix("error bad-line"), "\(replies)")
        #expect(replies[2] == "ok pong")
    }

    @Test func aWaitHoldsTheRepliesAfterItUntilTheHUDIsHidden() throws {
        let rig = try ControlRig()
        let a = try rig.connect(), b = try rig.connect()
        a.send("show Working\nwait\nping\n")
        var got = try rig.lines(a, count: 3, seconds: 0.5)
        #expect(got == ["ok"], "the wait is not answered while the HUD shows, nor the ping behind it: \(got)")
        b.send("dismiss\n")
        got += try rig.lines(a, count: 2)
        #expect(got == ["ok", "ok hidden", "ok pong"])
        #expect(rig.runtime.isHidden)
        #expect(try rig.lines(b, count: 1) == ["ok"])
        // Hidden already: answered at once.
        a.send("wait\n")
        #expect(try rig.lines(a, count: 1) == ["ok hidden"])
    }

    @Test func aThousandProgressRequestsGetAThousandRepliesAndTheLastValueIsShown() throws {
        let rig = try ControlRig()
        let c = try rig.connect(), s = try rig.connect()
        s.send("subscribe\n")
        #expect(try rig.lines(s, count: 1) == ["ok subscribed"])
        var text = ""
        for i in 1...1000 { text += "progress \(Double(i) / 1000) \"Copying\"\n" }
        c.send(text + "state\n")
        let replies = try rig.lines(c, count: 1001, seconds: 10)
        try #require(replies.count == 1001)
        #expect(replies.dropLast().allSatisfy { $0 == "ok" })
        let state = try #require(HUDState(line: String(replies[1000].dropFirst(3))))
        #expect(state.mode == "ring" && state.progress == 1 && state.status == "Copying", "\(replies[1000])")
        #expect(rig.runtime.coalescedRequests > 0, "values replaced within a turn are not applied")
        try rig.run(for: 0.5)
        let events = s.readLines()
        #expect(events.filter { $0.contains("will-appear") }.count == 1, "one appearance, not one per value: \(events)")
    }

    @Test func aSubscriberThatNeverReadsIsCutOffAndTheOthersGoOn() throws {
        let rig = try ControlRig()
        rig.server.outputLimit = 16_384
        let lazy = try rig.connect(), busy = try rig.connect()
        lazy.send("subscribe\n")
        // Many events with a long status each; `lazy` never reads.
        let status = String(repeating: "s", count: 2000)
        var n = 0
        try rig.run(for: 20) {
            if rig.server.disconnectedForOutput > 0 { return true }
            n += 1
            busy.send("success \"\(status)\"\nreset\n")
            _ = busy.readLines()
            return false
        }
        #expect(rig.server.disconnectedForOutput == 1)
        #expect(rig.log.contains("unread (more than 16384): disconnected"))
        busy.send("ping\n")
        #expect(try rig.run { busy.readLines().contains("ok pong") })
        #expect(rig.server.connectionCount == 1)
    }

    @Test func aSnapshotIsWhatTheScreenShowsAfterTheRequestsBeforeIt() throws {
        let rig = try ControlRig()
        let c = try rig.connect()
        c.send("set fade-in 0\nprogress 0.5 \"Half\"\nsnapshot\n")
        var lines: [String] = []
        try rig.run {
            while lines.count < 3, let line = c.readLine() { lines.append(line) }
            return lines.count == 3
        }
        #expect(lines.prefix(2) == ["ok", "ok"], "\(lines)")
        let header = lines.count == 3 ? lines[2].split(separator: " ") : []
        try #require(header.count == 5 && header[0] == "ok" && header[1] == "png", "\(lines)")
        #expect(header[3] == "memory" && header[4] == "200x120")
        let length = try #require(Int(header[2]))
        var png: [UInt8]?
        try rig.run { png = c.take(length); return png != nil }
        let picture = try PNGDecoder.decode(try #require(png))
        let shown = rig.display.shown()
        #expect(picture.width == shown.width && picture.height == shown.height)
        var differing = 0
        for y in 0..<shown.height {
            for x in 0..<Int(shown.width) where picture.view.row(y)[x] | 0xFF00_0000 != shown.view.row(y)[x] | 0xFF00_0000 { differing += 1 }
        }
        #expect(differing == 0, "the snapshot is the screen, pixel for pixel")
        #expect(rig.runtime.state().progress == 0.5)
        c.send("snapshot HDMI-A-9\n")
        #expect(try rig.lines(c, count: 1).first?.hasPrefix("error no-output no output HDMI-A-9; outputs: memory") == true)
    }

    @Test func theSocketIsGuarded() throws {
        let rig = try ControlRig()
        // 0660, and a second daemon refuses to start while this one answers.
        #expect(try Files.status(atPath: rig.path)?.permissions == 0o660)
        #expect(throws: ControlSocketError.alreadyRunning(path: rig.path)) { _ = try ControlSocket.bind(path: rig.path) }
        // A socket nobody accepts on any more is taken over.
        let stale = "\(rig.dir)/stale"
        Files.close(try UnixSocket.listen(at: stale))
        let taken = try ControlSocket.bind(path: stale)
        #expect(taken.tookOverStale)
        taken.close()
        #expect(try Files.status(atPath: stale) == nil, "closing removes the path")
        // Anything else at the path is left alone.
        let file = "\(rig.dir)/file"
        #expect(creat(file, 0o600) >= 0)
        #expect(throws: ControlSocketError.notASocket(path: file)) { _ = try ControlSocket.bind(path: file) }
        #expect(throws: ControlSocketError.noSuchGroup("no-such-group-here")) { _ = try ControlSocket.bind(path: "\(rig.dir)/g", group: "no-such-group-here") }
    }

    @Test func aPathThatCannotBeUsedFallsBackToTheAbstractNamespace() throws {
        let dir = "/proc/splashhud-cannot-exist-\(UInt32.random(in: 0...UInt32.max))"
        let socket = try ControlSocket.bind(path: "\(dir)/control")
        defer { socket.close() }
        #expect(socket.address == "@\(dir)/control" && socket.isAbstract)
        // Root, our own uid and the group may use it; others may not.
        #expect(socket.admits(UnixSocket.Credentials(pid: 1, uid: 0, gid: 0)))
        #expect(socket.admits(UnixSocket.Credentials(pid: 1, uid: geteuid(), gid: 5)))
        #expect(!socket.admits(UnixSocket.Credentials(pid: 1, uid: 4242, gid: 4242)) || geteuid() == 4242)
        // A second one is refused there too.
        #expect(throws: ControlSocketError.alreadyRunning(path: "@\(dir)/control")) { _ = try ControlSocket.bind(path: "\(dir)/control") }
    }

    @Test func quittingAnswersWhatIsOwedAndClosesEveryone() throws {
        let rig = try ControlRig()
        let c = try rig.connect()
        c.send("show\nwait\n")
        #expect(try rig.lines(c, count: 1) == ["ok"])
        rig.server.close()
        #expect(c.readLines() == ["error ending the daemon is quitting"])
        // EOF can lag the close by the moment a child that another test spawns holds a copy of
        // the descriptor, until its exec closes it: waited for, with the rig's wall-clock steps.
        var after: [String] = []
        #expect(try rig.run(for: 2) { after += c.readLines(); return c.closedByPeer })
        #expect(after.isEmpty, "nothing after the last answer")
        #expect(try Files.status(atPath: rig.path) == nil)
    }
}
