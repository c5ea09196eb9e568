// SPDX-License-Identifier: MIT
// Prompts in process: Plymouth's requests on an abstract name of our own, the control socket's
// ask-password, and the keys typed on a pseudo-terminal standing in for the VT (raw mode, as the
// daemon sets it). What the asker gets is checked byte for byte, what the HUD shows by its entry and
// its pixels, and that no passphrase reaches the log, a `state` reply or a key watch.
#if canImport(Glibc)
import Glibc
#endif
import GoldenSupport
import HUD
import HUDProtocol
import LinuxSystem
import Raster
@testable import Runtime
import Testing

@Suite("Prompts", .serialized)
struct PromptTests {
    let rig: ControlRig
    let tty: PseudoTerminal
    let server: PlymouthServer
    let name = "@splashhud-test-prompt-\(UInt32.random(in: 0...UInt32.max))"

    init() throws {
        rig = try ControlRig(width: 320, height: 200)
        tty = try PseudoTerminal()
        rig.runtime.prompts.terminalPath = tty.path
        server = try PlymouthServer(runtime: rig.runtime, listener: try PlymouthServer.bind(name), address: name)
    }

    func replies(_ c: RawClient, count: Int, seconds: Double = 3) throws -> [UInt8] {
        var got: [UInt8] = []
        try rig.run(for: seconds) { got += c.take(1) ?? []; return got.count >= count }
        return got
    }

    func waitForPrompt(_ text: String) throws {
        try #require(try rig.run { rig.runtime.controller.entry?.prompt == text }, "no prompt \"\(text)\" on the HUD")
    }

    func typed(_ count: Int) throws -> Bool { try rig.run { rig.runtime.controller.entry?.characters == count } }

    @Test func aPasswordIsAnsweredWithWhatWasTyped() throws {
        defer { server.close() }
        let c = try RawClient(path: name)
        c.sendBytes(Array("*\u{02}\u{12}Please unlock sda\0".utf8))
        try waitForPrompt("Please unlock sda")
        #expect(rig.runtime.prompts.isActive)
        #expect(!CoreDumps.areAllowed, "no core dump while a passphrase may be typed")
        tty.type("hunter")
        #expect(try typed(6))
        // Backspace takes one character (a multi-byte one whole), Ctrl-U the whole entry.
        tty.type("ä\u{7F}\u{7F}")
        #expect(try typed(5))
        tty.type("\u{15}z@Y1")
        #expect(try typed(4))
        // Escape and an arrow key's sequence answer nothing and type nothing.
        tty.type("\u{1B}")
        try rig.run(for: 0.1)
        tty.type("\u{1B}[Dü")
        #expect(try typed(5))
        tty.type("\r\n")
        #expect(try replies(c, count: 11) == [0x02, 6, 0, 0, 0] + Array("z@Y1ü".utf8))
        // The HUD is back as it was; nothing typed reached the log.
        #expect(try rig.run { rig.runtime.controller.entry == nil })
        #expect(!rig.log.lines.contains { $0.text.contains("z@Y1") || $0.text.contains("hunter") })
        // The cache still holds it; once the splash quits it is zeroed and this desk lets dumps
        // go (they are back once no other test's desk in this process holds a secret).
        #expect(!CoreDumps.areAllowed && rig.runtime.prompts.holdsDumps)
        rig.runtime.quit(retain: false)
        #expect(!rig.runtime.prompts.holdsDumps)
    }

    @Test func ctrlCAndCtrlDCancelAsPlymouthdDoesAndEscapeDoesNot() throws {
        defer { server.close() }
        for key in ["\u{03}", "\u{04}"] {
            let c = try RawClient(path: name)
            c.sendBytes(Array("*\0".utf8))
            try waitForPrompt("Password")
            tty.type("abc\u{1B}")
            try rig.run(for: 0.2)
            #expect(c.take(1) == nil, "Escape must not answer")
            tty.type(key)
            #expect(try replies(c, count: 6) == [0x02, 1, 0, 0, 0, 0x03])
        }
        // A cancelled prompt is no passphrase: nothing is cached.
        let c = try RawClient(path: name)
        c.sendBytes(Array("c\0".utf8))
        #expect(try replies(c, count: 1) == [0x05])
    }

    /// Two disks at once: one prompt at a time, in order; the first typing is offered to the
    /// cached-password request that follows (N disks, one typing).
    @Test func promptsWaitTheirTurnAndTheCacheSharesATyping() throws {
        defer { server.close() }
        let first = try RawClient(path: name), second = try RawClient(path: name)
        first.sendBytes(Array("*\u{02}\u{05}sda1\0".utf8))
        try waitForPrompt("sda1")
        second.sendBytes(Array("*\u{02}\u{05}sdb1\0".utf8))
        try rig.run(for: 0.2)
        #expect(rig.runtime.prompts.count == 2 && rig.runtime.controller.entry?.prompt == "sda1")
        tty.type("one\r")
        #expect(try replies(first, count: 8) == [0x02, 3, 0, 0, 0] + Array("one".utf8))
        try waitForPrompt("sdb1")
        #expect(rig.runtime.controller.entry?.characters == 0, "the next prompt starts empty")
        tty.type("two\r")
        #expect(try replies(second, count: 8) == [0x02, 3, 0, 0, 0] + Array("two".utf8))
        let cached = try RawClient(path: name)
        cached.sendBytes(Array("c\0".utf8))
        #expect(try replies(cached, count: 13) == [0x09, 8, 0, 0, 0] + Array("one\0two\0".utf8))
    }

    /// An asker that hangs up takes its prompt with it (Plymouth 22.02 leaves it: its #126).
    @Test func anAskerThatHangsUpTakesItsPromptAway() throws {
        defer { server.close() }
        var gone: RawClient? = try RawClient(path: name)
        let waiting = try RawClient(path: name)
        gone!.sendBytes(Array("*\u{02}\u{05}sda1\0".utf8))
        try waitForPrompt("sda1")
        waiting.sendBytes(Array("W\u{02}\u{06}Name?\0".utf8))
        tty.type("sec")
        #expect(try typed(3))
        gone = nil
        try waitForPrompt("Name?")
        #expect(rig.runtime.controller.entry?.characters == 0 && rig.runtime.controller.entry?.isSecure == false)
        // A question shows what is typed.
        tty.type("Zoë")
        #expect(try rig.run { rig.runtime.controller.entry?.echo == "Zoë" })
        tty.type("\r")
        #expect(try replies(waiting, count: 9) == [0x02, 4, 0, 0, 0] + Array("Zoë".utf8))
        #expect(try rig.run { !rig.runtime.prompts.isActive })
    }

    /// A peer asking and hanging up in a loop: the log has five lines of each kind in the
    /// window, then their counts (the peers' rate limiter), and the HUD is left without a prompt.
    @Test func askersInALoopAreLoggedWithinTheBudget() throws {
        defer { server.close() }
        for i in 0..<30 {
            var asker: RawClient? = try RawClient(path: name)
            asker!.sendBytes(Array("*\u{02}\u{05}sd\(i % 10)\(i / 10)\0".utf8))
            try waitForPrompt("sd\(i % 10)\(i / 10)")
            asker = nil
            try #require(try rig.run { !rig.runtime.prompts.isActive })
        }
        let asked = rig.log.lines.filter { $0.text.hasPrefix("prompt for a passphrase") }.count
        let withdrawn = rig.log.lines.filter { $0.text.hasPrefix("prompt withdrawn") }.count
        #expect(asked == 5 && withdrawn == 5, "\(asked) asked, \(withdrawn) withdrawn")
        rig.runtime.peerLog.flush()
        #expect(rig.log.contains("… and 25 more prompts from the prompts' askers"), "\(rig.log.lines.suffix(4).map(\.text))")
        #expect(rig.log.contains("… and 25 more prompts withdrawn from the prompts' askers"))
    }

    /// Askers wait on us, however long the user takes: never closed as idle, the one shown nor
    /// the one queued behind it, on either socket.
    @Test func askersAreNeverIdle() throws {
        defer { server.close() }
        rig.server.limits.idleNanoseconds = 300_000_000
        server.limits.idleNanoseconds = 300_000_000
        let plymouth = try RawClient(path: name), control = try rig.connect(), idle = try rig.connect()
        plymouth.sendBytes(Array("*\u{02}\u{05}sda1\0".utf8))
        try waitForPrompt("sda1")
        control.send("ask-password \"PIN\"\n")
        try rig.run(for: 1.2) { _ = idle.readLines(); return false }
        #expect(idle.closedByPeer, "a client that asks nothing is closed")
        _ = control.readLines()
        #expect(!control.closedByPeer && rig.runtime.prompts.count == 2)
        tty.type("one\r")
        #expect(try replies(plymouth, count: 8) == [0x02, 3, 0, 0, 0] + Array("one".utf8))
        try waitForPrompt("PIN")
        tty.type("42\r")
        #expect(try rig.lines(control, count: 1) == ["ok \"42\""])
    }

    /// Keys typed while a prompt is up are no one else's: key watches and MB's button see none.
    @Test func keyWatchesNeverSeeAPassphrase() throws {
        defer { server.close() }
        let watcher = try rig.connect()
        watcher.send("subscribe keys\n")
        #expect(try rig.lines(watcher, count: 1) == ["ok subscribed"])
        let c = try RawClient(path: name)
        c.sendBytes(Array("*\0".utf8))
        try waitForPrompt("Password")
        // The same key through evdev (the keyboard is read there too) makes no event.
        rig.runtime.handle(.key(code: 30, pressed: true, repeated: false))
        tty.type("a")
        #expect(try typed(1))
        try rig.run(for: 0.2)
        #expect(!watcher.readLines().contains { $0.contains("key") })
        tty.type("\r")
        #expect(try replies(c, count: 6) == [0x02, 1, 0, 0, 0, 0x61])
        // Once answered, keys are events again.
        rig.runtime.handle(.key(code: 30, pressed: true, repeated: false))
        #expect(try rig.lines(watcher, count: 1).first?.contains("key key a") == true)
    }

    /// The control socket's ask-password: the text quoted so the lexer reads it back, `state`
    /// shows no passphrase, and what the screen shows is bullets (the same pixels whatever was
    /// typed, for the same count).
    @Test func askPasswordOnTheControlSocket() throws {
        defer { server.close() }
        let c = try rig.connect(), other = try rig.connect()
        c.send("ask-password \"PIN\"\n")
        try waitForPrompt("PIN")
        tty.type("1\"\\é")
        #expect(try typed(4))
        try rig.run(for: 0.3)
        let first = rig.runtime.scene.pixels(output: 0).materialized()
        other.send("state\n")
        let state = try rig.lines(other, count: 1)
        #expect(!(state.first ?? "").contains("1\""), "\(state)")
        tty.type("\u{15}abcd")
        #expect(try typed(4))
        try rig.run(for: 0.3)
        let second = rig.runtime.scene.pixels(output: 0).materialized()
        #expect(first.view.pixelsEqual(second.view), "bullets only: the picture must not depend on the text")
        tty.type("\u{15}1\"\\é\r")
        let reply = try #require(try rig.lines(c, count: 1).first)
        #expect(reply == "ok \"1\\\"\\\\é\"", "\(reply)")
        // Read back as the command language reads a quoted word.
        #expect(try ControlRequest.parse("ask-password " + reply.dropFirst(3)) == .askPassword(prompt: "1\"\\é"))
        // Cancelled: an error line.
        c.send("ask-password \"PIN\"\n")
        try waitForPrompt("PIN")
        tty.type("\u{03}")
        #expect(try rig.lines(c, count: 1).first?.hasPrefix("error cancelled") == true)
    }
}

@Suite struct PromptKeyDecoderTests {
    func keys(_ bytes: [UInt8]) -> [PromptKey] {
        var d = PromptKeyDecoder()
        return bytes.compactMap { d.next($0) }
    }

    @Test func plymouthsKeys() {
        #expect(keys([0x61, 0x7F, 0x08, 0x15, 0x17, 0x03, 0x04, 0x0D, 0x0A, 0x0A]) ==
                [.text(0x61), .erase, .erase, .eraseEntry, .eraseEntry, .cancel, .cancel, .enter, .enter])
        // Escape sequences (arrows, F1 on the console, keypad without Num Lock) type nothing.
        #expect(keys(Array("\u{1B}[A\u{1B}[[A\u{1B}OPx\u{1B}[3~".utf8)) == [.text(0x78)])
        // A lone Escape, then text.
        #expect(keys([0x1B, 0x62]) == [.text(0x62)])
        // Other control characters are dropped; UTF-8 passes byte by byte.
        #expect(keys([0x01, 0x09] + Array("é".utf8)) == [.text(0xC3), .text(0xA9)])
    }
}
