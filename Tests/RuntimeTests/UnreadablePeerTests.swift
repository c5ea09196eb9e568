// SPDX-License-Identifier: MIT
// A peer the kernel will not name (SO_PEERCRED fails) is refused at once, on the control socket
// as on Plymouth's: with no uid there is nobody to judge and no pool to count it in. Each refusal
// is a log line through the rate limiter, so a crowd of them writes five lines and a summary. The
// failure is made with the debug build's MockingDriver on the thread that steps the loop.
#if canImport(Glibc)
import Glibc
#endif
import LinuxSystem
import Testing

@Suite struct UnreadablePeerTests {
    /// Whether the daemon closed `client`'s connection (it reads end-of-file).
    func isClosed(_ client: RawClient) -> Bool {
        var byte: UInt8 = 0
        return recv(client.fd, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    #if DEBUG
    @Test func aPeerWhoseCredentialsCannotBeReadIsRefusedAndLoggedWithinTheLimit() throws {
        let rig = try ControlRig()
        let driver = MockingDriver()
        driver.fail("getsockopt", with: ENOPROTOOPT, count: 12)
        let strangers = try (0..<12).map { _ in try rig.connect() }
        for s in strangers { s.send("ping\n") }
        let allClosed = try MockingDriver.with(driver) {
            try rig.run(for: 5) { strangers.allSatisfy(isClosed) }
        }
        #expect(allClosed)
        #expect(strangers.allSatisfy(isClosed), "every peer without credentials is closed")
        #expect(strangers.allSatisfy { $0.readLines().isEmpty }, "and answered nothing")
        #expect(driver.trace.filter { $0 == "getsockopt" }.count == 12)
        #expect(rig.server.connectionCount == 0)

        rig.runtime.peerLog.flush()
        let refusals = rig.log.lines.filter { $0.text.contains("refused: who it is cannot be read") }
        #expect(refusals.count == rig.runtime.peerLog.perSource && refusals.allSatisfy { $0.level == .warning }, "\(rig.log.lines)")
        #expect(refusals.first?.text.hasPrefix("control client 1 refused: who it is cannot be read (getsockopt SO_PEERCRED") == true,
                "\(refusals)")
        #expect(rig.log.contains("… and 7 more refused connections from unknown peers on the control socket"), "\(rig.log.lines)")

        // A peer whose credentials can be read is served as before.
        let root = try rig.connect()
        root.send("ping\n")
        #expect(try rig.lines(root, count: 1) == ["ok pong"])
    }
    #endif
}
