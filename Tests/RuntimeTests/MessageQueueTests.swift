// SPDX-License-Identifier: MIT
// Many producers, one consumer: every message arrives once, each producer's in its order.
import LinuxSystem
import Runtime
import Testing
import Foundation

@Suite struct MessageQueueTests {
    final class CountingWaker: LoopWaker, @unchecked Sendable {
        let lock = Lock()
        var wakes = 0
        func wake() { lock.withLock { wakes += 1 } }
    }

    @Test func producersOnManyThreadsLoseNothingAndKeepTheirOrder() {
        let waker = CountingWaker()
        let queue = MessageQueue<(producer: Int, n: Int)>(waker: waker)
        let producers = 8, each = 5_000
        let lock = Lock()
        nonisolated(unsafe) var consumed: [(producer: Int, n: Int)] = []
        DispatchQueue.concurrentPerform(iterations: producers + 1) { p in
            if p == producers {
                // The consumer drains while the producers post.
                for _ in 0..<200 { let m = queue.takeAll(); lock.withLock { consumed += m } }
                return
            }
            for n in 0..<each { queue.post((p, n)) }
        }
        let taken = lock.withLock { consumed } + queue.takeAll()
        #expect(taken.count == producers * each)
        #expect(waker.lock.withLock { waker.wakes } == producers * each)
        var next = [Int](repeating: 0, count: producers)
        for m in taken {
            #expect(m.n == next[m.producer], "producer \(m.producer) out of order")
            next[m.producer] = m.n + 1
        }
    }
}
