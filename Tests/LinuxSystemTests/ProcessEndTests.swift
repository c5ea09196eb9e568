// SPDX-License-Identifier: MIT
// ProcessEnd on real processes: a child that runs, one that ends while we wait, one that has
// ended and is not yet reaped (a zombie), a pid no process has; and the /proc path an old kernel
// takes, with pidfd_open made to fail (MockingDriver, debug builds).
import Foundation
import Testing
@testable import LinuxSystem

@Suite("Waiting for another process to end")
struct ProcessEndTests {
    static func child(_ seconds: String) throws -> Int32 { try ChildProcess.start(["sleep", seconds], descriptors: []) }

    @Test func aRunningProcessIsWaitedForUntilItEnds() throws {
        let pid = try Self.child("0.3")
        defer { _ = try? ChildProcess.wait(pid, program: "sleep") }
        #expect(try ProcessEnd.wait(pid, timeoutMilliseconds: 50) == false, "sleep 0.3 still runs after 50 ms")
        let start = MonotonicClock.nanoseconds()
        #expect(try ProcessEnd.wait(pid, timeoutMilliseconds: 5000))
        let waited = (MonotonicClock.nanoseconds() - start) / 1_000_000
        #expect(waited < 3000, "returned \(waited) ms later: at its end, not at the timeout")
    }

    @Test func anEndedProcessNotYetReapedHasEnded() throws {
        let pid = try Self.child("0")
        defer { _ = try? ChildProcess.wait(pid, program: "sleep") }
        // Not reaped: a zombie until the deferred wait.
        #expect(try ProcessEnd.wait(pid, timeoutMilliseconds: 3000))
        #expect(ProcessEnd.hasEnded(pid))
    }

    @Test func aPidNoProcessHasHasEnded() throws {
        let pid = try Self.child("0")
        _ = try ChildProcess.wait(pid, program: "sleep")
        #expect(try ProcessEnd.wait(pid, timeoutMilliseconds: 0))
    }

    @Test func withoutPidfdsProcIsRead() throws {
        let pid = try Self.child("0.2")
        defer { _ = try? ChildProcess.wait(pid, program: "sleep") }
        let driver = MockingDriver()
        driver.fail("pidfd_open", with: ENOSYS)
        #expect(try MockingDriver.with(driver) { try ProcessEnd.wait(pid, timeoutMilliseconds: 20) } == false)
        let ended = try MockingDriver.with(driver) { try ProcessEnd.wait(pid, timeoutMilliseconds: 5000) }
        #expect(ended && driver.trace.filter { $0 == "pidfd_open" }.count == 2)
        #expect(!ProcessEnd.hasEnded(Files.processID), "this process runs")
        let denied = MockingDriver()
        denied.fail("pidfd_open", with: EMFILE)
        #expect(throws: SystemError("pidfd_open", .tooManyOpenFiles, "process \(pid)")) {
            try MockingDriver.with(denied) { try ProcessEnd.wait(pid, timeoutMilliseconds: 0) }
        }
    }
}
