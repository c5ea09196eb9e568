// SPDX-License-Identifier: MIT
// Bad input everywhere, through the real control socket: every malformed, out-of-range or
// unusable request gets its own clear error, the connection and the daemon go on, and the HUD
// keeps exactly what it showed. Idle and silent clients by the thousand are bounded too.
#if canImport(Glibc)
import Glibc
#endif
import HUDProtocol
import LinuxSystem
import Runtime
import Testing

@Suite("Bad input keeps the HUD", .serialized)
struct BadInputTests {
    /// Each line, the start of the error it must get. (A negative progress is not here: it is
    /// SVProgressHUD's own "undefined progress" and shows the spinner, as docs/protocol.md says.)
    static let battery: [(line: [UInt8], error: String)] = [
        (Array("bogus 1".utf8), "error syntax unknown verb 'bogus'"),
        (Array("shwo Booting".utf8), "error syntax unknown verb 'shwo' (did you mean 'show'?)"),
        (Array("show \"unbalanced".utf8), "error syntax"),
        (Array("show 'unbalanced".utf8), "error syntax"),
        (Array("show \"a\"b".utf8), "error syntax"),
        (Array("progress".utf8), "error syntax"),
        (Array("progress nan".utf8), "error syntax"),
        (Array("progress inf".utf8), "error syntax"),
        (Array("progress 1e309".utf8), "error syntax"),
        (Array("progress 99999999999999999999999999".utf8), "error syntax"),
        (Array("progress 0.5 a \"b\"".utf8), "error syntax"),
        (Array("dismiss -1".utf8), "error syntax"),
        (Array("dismiss 1e400".utf8), "error syntax"),
        (Array("set font-size 0".utf8), "error syntax"),
        (Array("set font-size 100000".utf8), "error syntax"),
        (Array("set offset 99999,0".utf8), "error syntax"),
        (Array("set min-size -5x5".utf8), "error syntax"),
        (Array("set foreground-color #GGGGGG".utf8), "error syntax"),
        (Array("set mask sometimes".utf8), "error syntax"),
        (Array("set".utf8), "error syntax"),
        (Array("progress-over 0.5 -3".utf8), "error syntax"),
        (Array("snapshot NoSuchOutput".utf8), "error no-output"),
        (Array("subscribe everything".utf8), "error syntax"),
        (Array("show ".utf8) + [0x01, 0x7F], "error syntax"),                   // raw control characters
        (Array("show ".utf8) + [0xC3, 0x28], "error bad-line"),                  // invalid UTF-8
        (Array("show ".utf8) + [0xED, 0xA0, 0x80], "error bad-line"),            // a UTF-16 surrogate in UTF-8
        (Array(repeating: 0x61, count: 4096), "error bad-line"),                 // one byte over the limit
        (Array("image /dev/zero".utf8), "error refused"),                         // a device, not a file
        (Array("image /proc/self/status".utf8), "error refused"),                 // not a PNG
        (Array("set font /etc/hostname".utf8), "error refused"),                 // not a font
        (Array("set font /nonexistent/font.ttf".utf8), "error refused"),
        (Array("image /nonexistent/a.png".utf8), "error refused"),
        (Array("press".utf8), "error refused"),                                   // no button shown
    ]

    @Test("each bad request gets its own error; the connection goes on and the HUD keeps its state")
    func battery() throws {
        let rig = try ControlRig()
        let c = try rig.connect()
        c.send("progress 0.4 \"Keep me\"\n")
        #expect(try rig.lines(c, count: 1) == ["ok"])
        try rig.run(for: 0.5)
        let before = rig.runtime.state()
        var bytes: [UInt8] = []
        for entry in Self.battery { bytes += entry.line + [0x0A] }
        c.sendBytes(bytes + Array("ping\n".utf8))
        let replies = try rig.lines(c, count: Self.battery.count + 1, seconds: 10)
        try #require(replies.count == Self.battery.count + 1, "\(replies)")
        for (entry, reply) in zip(Self.battery, replies) {
            #expect(reply.hasPrefix(entry.error), "'\(String(decoding: entry.line.prefix(40), as: UTF8.self))' got '\(reply)'")
            #expect(!reply.dropFirst(6).contains("\n"))
        }
        #expect(replies.last == "ok pong")
        try rig.run(for: 0.3)
        #expect(rig.runtime.state() == before, "the HUD kept what it showed")
    }

    @Test("a FIFO word split across writes, half of one at the end, and bytes after a bad one")
    func halfWrittenFIFOWords() throws {
        var buffer = CommandFIFOLineBuffer()
        #expect(buffer.feed(Array("MSG Boo".utf8)).isEmpty, "half a word waits")
        let lines = buffer.feed(Array("ting\0PROG".utf8)) + buffer.feed(Array("RESS 40\0".utf8))
        #expect(lines.compactMap { try? $0.get() } == ["MSG Booting", "PROGRESS 40"])
        let bad = buffer.feed([0xFF, 0x00] + Array("QUIT\0".utf8))
        #expect(bad.count == 2)
        if case .success = bad[0] { Issue.record("invalid UTF-8 was accepted") }
        #expect((try? bad[1].get()) == "QUIT", "the stream goes on after a bad word")
        // A NUL ends a line (psplash-write's terminator), on the socket as in the FIFOs.
        #expect(buffer.feed(Array("show a\0x\n".utf8)).compactMap { try? $0.get() } == ["show a", "x"])
    }

    @Test("thousands of idle clients: the connection limit holds, the others are refused at once, the HUD answers")
    func idleClients() throws {
        let rig = try ControlRig()
        var clients: [RawClient] = []
        for _ in 0..<2000 {
            guard let c = try? rig.connect() else { break }
            clients.append(c)
        }
        try rig.run(for: 1)
        #expect(rig.server.connectionCount <= 64, "\(rig.server.connectionCount) connections kept")
        // The ones over the limit were closed, not left hanging.
        let closed = clients.filter { _ = $0.readLines(); return $0.closedByPeer }.count
        #expect(closed >= clients.count - 64, "\(closed) of \(clients.count) closed")
        // A client still gets its answers once the idle ones go.
        clients.removeAll()
        try rig.run(for: 0.5)
        let c = try rig.connect()
        c.send("ping\n")
        #expect(try rig.lines(c, count: 1) == ["ok pong"])
    }
}
