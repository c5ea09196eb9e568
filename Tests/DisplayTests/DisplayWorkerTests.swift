// SPDX-License-Identifier: MIT
// The display's worker thread (DisplayWorker): a call that blocks runs off the caller's thread,
// in order, and its end is told on a descriptor a frame loop can watch. Each blocking call here
// waits for a gate the test opens, so nothing depends on timing.

import LinuxSystem
import SystemPackage
import Testing

@testable import Display

@Suite("display worker")
struct DisplayWorkerTests {
    /// A call that blocks until `gate` is signalled (10 s at most, so a broken test ends).
    static func blocked(on gate: EventFd, then value: Int) -> @Sendable () -> Int {
        { _ = try? Poll.wait(gate.descriptor, for: .read, timeoutMilliseconds: 10_000, subject: "gate"); return value }
    }

    static func readable(_ worker: DisplayWorker<Int>, within milliseconds: Int32) throws -> Bool {
        try Poll.wait(FileDescriptor(rawValue: worker.descriptor), for: .read, timeoutMilliseconds: milliseconds, subject: "worker")
    }

    @Test func aBlockingCallReturnsAtOnceAndCallsEndInOrder() throws {
        let worker = try DisplayWorker<Int>()
        let gate = try EventFd()
        worker.run(Self.blocked(on: gate, then: 1))
        worker.run { 2 }
        // Both runs returned while the first call still waits for its gate: nothing has ended.
        #expect(worker.collect().isEmpty)
        #expect(worker.outstanding.count == 2)
        #expect(try !Self.readable(worker, within: 0))
        gate.signal()
        let done = worker.finish(timeoutMilliseconds: 10_000)
        #expect(done.map(\.outcome) == [1, 2])
        #expect(done.map(\.id) == done.map(\.id).sorted())
        #expect(worker.outstanding.isEmpty)
    }

    @Test func itsDescriptorIsReadableWhileAnOutcomeWaits() throws {
        let worker = try DisplayWorker<Int>()
        let id = worker.run { 3 }
        #expect(try Self.readable(worker, within: 10_000))
        let done = worker.collect()
        #expect(done.map(\.id) == [id] && done.map(\.outcome) == [3])
        #expect(try !Self.readable(worker, within: 0))
        #expect(worker.collect().isEmpty)
    }

    @Test func finishGivesUpAfterItsTimeoutAndKeepsTheCallOutstanding() throws {
        let worker = try DisplayWorker<Int>()
        let gate = try EventFd()
        worker.run(Self.blocked(on: gate, then: 4))
        #expect(worker.finish(timeoutMilliseconds: 20).isEmpty)
        #expect(worker.outstanding.count == 1)
        gate.signal()
        #expect(worker.finish(timeoutMilliseconds: 10_000).map(\.outcome) == [4])
        #expect(worker.outstanding.isEmpty)
    }
}
