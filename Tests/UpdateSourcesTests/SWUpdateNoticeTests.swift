// SPDX-License-Identifier: MIT
// SWUpdate's control-socket messages (NOTIFY_STREAM) and the failure reason read from them; where
// SWUpdate's sockets are looked for.
import Foundation
import LinuxSystem
import Testing
@testable import UpdatesCommand
import UpdateSources

@Suite("SWUpdate's status messages and sockets")
struct SWUpdateNoticeTests {
    @Test("the subscription is one ipc_message of sizeof(ipc_message) bytes: IPC_MAGIC, NOTIFY_STREAM, zeros")
    func request() {
        let r = SWUpdateNotice.subscribeRequest(byteOrder: .little)
        #expect(r.count == (MemoryLayout<Int>.size == 8 ? 3120 : 3104))
        #expect(Array(r[0..<8]) == [0x01, 0x20, 0x05, 0x14, 11, 0, 0, 0] && r[8...].allSatisfy { $0 == 0 })
        #expect(Array(SWUpdateNotice.subscribeRequest(byteOrder: .big)[0..<8]) == [0x14, 0x05, 0x20, 0x01, 0, 0, 0, 11])
    }

    @Test("messages decode in both byte orders; the ACK is nil; anything else is an error", arguments: [SWUpdateByteOrder.little, .big])
    func messages(order: SWUpdateByteOrder) throws {
        let n = SWUpdateNotice(status: 4, error: -1, level: 1, text: "Image invalid or corrupted. Not installing ...")
        #expect(try SWUpdateNotice.decode(n.encoded(byteOrder: order)[...], byteOrder: order) == n)
        var ack = n.encoded(byteOrder: order)
        ack[order == .little ? 4 : 7] = 1
        #expect(try SWUpdateNotice.decode(ack[...], byteOrder: order) == nil)
        var other = n.encoded(byteOrder: order)
        other[order == .little ? 4 : 7] = 3
        #expect(throws: SWUpdateFrameError.field("type", 3)) { try SWUpdateNotice.decode(other[...], byteOrder: order) }
        var magic = n.encoded(byteOrder: order)
        magic[order == .little ? 0 : 3] = 0
        #expect(throws: SWUpdateFrameError.self) { try SWUpdateNotice.decode(magic[...], byteOrder: order) }
    }

    @Test("the reason: the error messages since the install started, the last three, each bounded")
    func reason() {
        let older = SWUpdateNotice(status: 4, level: 1, text: "an older install's error")
        let start = SWUpdateNotice(status: 1, level: 3, text: "Software Update started !")
        let info = SWUpdateNotice(status: 2, level: 3, text: "Installing rootfs.img")
        let errors = (1...4).map { SWUpdateNotice(status: 4, level: 1, text: "  error \($0)\t") }
        #expect(SWUpdateNotice.failureReason([older, start, info] + errors) == "error 2\nerror 3\nerror 4")
        #expect(SWUpdateNotice.failureReason([older, start, info]) == nil)
        // As 2022.12 words them at -v (Debian's unit): the notifier's prefix goes.
        let hash = SWUpdateNotice(status: 4, level: 1, text: "ERROR : HASH mismatch : 1a2b <--> 3c4d")
        let closing = SWUpdateNotice(status: 4, error: 1, level: 1, text: "Image invalid or corrupted. Not installing ...")
        #expect(SWUpdateNotice.failureReason([start, info, hash, closing]) == "HASH mismatch : 1a2b <--> 3c4d\nImage invalid or corrupted. Not installing ...")
        // The start scrolled out of SWUpdate's hundred: every error held counts.
        #expect(SWUpdateNotice.failureReason([older, info]) == "an older install's error")
        let long = SWUpdateNotice(status: 4, level: 1, text: String(repeating: "é", count: 200))
        let cut = SWUpdateNotice.failureReason([start, long], lineLimit: 40)!
        #expect(cut.utf8.count <= 40 && cut.hasSuffix("…") && cut.hasPrefix("éé"))
    }

    @Test("a reason cut short by the deadline is given whole once SWUpdate's closing message comes (not at its first ERROR line); not when another install starts first")
    func reasonCompletedLate() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("swupdate-ctrl-\(UInt32.random(in: 0...UInt32.max))").path
        let listener = try UnixSocket.listen(at: path)
        defer { Files.close(listener); unlink(path) }
        let notices = try SWUpdateNotices(settings: SWUpdateSettings(controlSocket: path))
        #expect(notices.start())
        #expect(try Poll.wait(listener, for: .read, timeoutMilliseconds: 10_000, subject: "test"))
        let connection = try #require(try UnixSocket.accept(listener, subject: "test"))
        defer { Files.close(connection) }
        func send(_ n: SWUpdateNotice) throws {
            let bytes = n.encoded()
            #expect(try bytes.withUnsafeBytes { try UnixSocket.send(connection, $0, subject: "test") } == bytes.count)
        }
        let start = SWUpdateNotice(status: 1, level: 3, text: "Software Update started !")
        let hash = SWUpdateNotice(status: 4, level: 1, text: "ERROR : HASH mismatch : 1a2b <--> 3c4d")
        let closing = SWUpdateNotice(status: 4, error: 1, level: 1, text: "Image invalid or corrupted. Not installing ...")
        try send(start); try send(hash)
        let deadline = Date() + 10
        while notices.failureReason(waitingUpTo: 0).reason == nil && Date() < deadline { usleep(10_000) }
        let cut = notices.failureReason(waitingUpTo: 20)
        #expect(cut.reason == "HASH mismatch : 1a2b <--> 3c4d" && !cut.complete, "\(cut)")
        let given = try Mailbox<String>(capacity: 4)
        notices.whenReasonCompletes { _ = given.post($0) }
        // The first line (an ERROR: the status FAILURE, no error code) does not end the reason.
        #expect(!notices.failureReason(waitingUpTo: 0).complete)
        try send(closing)
        #expect(given.take(timeoutMilliseconds: 10_000) == "HASH mismatch : 1a2b <--> 3c4d\nImage invalid or corrupted. Not installing ...")
        // Complete already: given at once.
        notices.whenReasonCompletes { _ = given.post("now: " + $0) }
        #expect(given.take(timeoutMilliseconds: 0)?.hasPrefix("now: HASH mismatch") == true)
        // Another install starts before the FAILURE message: the old one's wait is dropped.
        try send(start); try send(hash)
        while notices.failureReason(waitingUpTo: 0).complete && Date() < deadline { usleep(10_000) }
        notices.whenReasonCompletes { _ = given.post("stale: " + $0) }
        try send(start); try send(closing)
        #expect(given.take(timeoutMilliseconds: 300) == nil)
    }

    @Test("SWUpdate's socket directories, by release: $RUNTIME_DIRECTORY from 2023.12, /run/swupdate from 2026.05, then $TMPDIR, /tmp")
    func directories() {
        let env = ["RUNTIME_DIRECTORY": "/run/swupdate-rt/", "TMPDIR": "/var/tmp"]
        let lookup = { (k: String) in env[k] }
        #expect(SWUpdatePaths.directories(release: SWUpdateRelease("2022.12"), environment: lookup) == ["/var/tmp", "/tmp"])
        #expect(SWUpdatePaths.directories(release: SWUpdateRelease("2023.12"), environment: lookup) == ["/run/swupdate-rt", "/var/tmp", "/tmp"])
        #expect(SWUpdatePaths.directories(release: SWUpdateRelease("2026.05"), environment: lookup) == ["/run/swupdate-rt", "/var/tmp", "/run/swupdate", "/tmp"])
        #expect(SWUpdatePaths.directories(release: nil, environment: { _ in nil }) == ["/run/swupdate", "/tmp"])
        let found = SWUpdatePaths.find("swupdateprog", release: nil, environment: lookup, isSocket: { $0 == "/tmp/swupdateprog" })
        #expect(found == "/tmp/swupdateprog")
        #expect(SWUpdatePaths.find("swupdateprog", release: nil, environment: lookup, isSocket: { _ in false }) == nil)
    }
}
