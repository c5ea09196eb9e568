// SPDX-License-Identifier: MIT
// The loop's inbox: any thread posts, only the loop takes. A post wakes the loop (the waker is an
// eventfd write) and a loop turn takes everything queued at once, in the order it was posted.
import LinuxSystem

public final class MessageQueue<Message: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    /// Guarded by `lock`.
    private var messages: [Message] = []
    private let waker: any LoopWaker

    public init(waker: any LoopWaker) { self.waker = waker }

    /// Queues `message` and wakes the loop. Safe from any thread.
    public func post(_ message: Message) {
        lock.withLock { messages.append(message) }
        waker.wake()
    }

    /// Everything posted so far, oldest first; the queue is empty afterwards. The loop's only.
    public func takeAll() -> [Message] {
        lock.withLock {
            defer { messages = [] }
            return messages
        }
    }

    /// Whether nothing is waiting.
    public var isEmpty: Bool { lock.withLock { messages.isEmpty } }
}
