// SPDX-License-Identifier: MIT
// The loop's inbox: any thread posts, only the loop takes. A post wakes the loop (the waker is an
// eventfd write) and a loop turn takes everything queued at once, in the order it was posted.
import LinuxSystem
import Synchronization

public final class MessageQueue<Message: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    /// Guarded by `lock`.
    private var messages: [Message] = []
    /// Whether `messages` may hold something: set under the lock by each post, before its wake-up.
    /// Nearly every turn finds the queue empty, and this spares it the lock.
    private let posted = Atomic<Bool>(false)
    private let waker: any LoopWaker

    public init(waker: any LoopWaker) { self.waker = waker }

    /// Queues `message` and wakes the loop. Safe from any thread.
    public func post(_ message: Message) {
        lock.withLock {
            messages.append(message)
            posted.store(true, ordering: .releasing)
        }
        waker.wake()
    }

    /// Everything posted so far, oldest first; the queue is empty afterwards. The loop's only. A
    /// post this misses (it came after the flag was read) wakes the loop for the next turn.
    public func takeAll() -> [Message] {
        guard posted.load(ordering: .acquiring) else { return [] }
        return lock.withLock {
            posted.store(false, ordering: .relaxed)
            defer { messages = [] }
            return messages
        }
    }

    /// Whether nothing is waiting.
    public var isEmpty: Bool { !posted.load(ordering: .acquiring) || lock.withLock { messages.isEmpty } }
}
