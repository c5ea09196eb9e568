// The loop's inbox: any thread posts, only the loop takes. A post wakes the loop (the waker is an
// eventfd write, so a signal handler's thread could post too) and a loop turn takes everything
// queued at once, in the order it was posted.
import Synchronization

public final class MessageQueue<Message: Sendable>: Sendable {
    private let messages = Mutex<[Message]>([])
    private let waker: any LoopWaker

    public init(waker: any LoopWaker) { self.waker = waker }

    /// Queues `message` and wakes the loop. Safe from any thread.
    public func post(_ message: Message) {
        messages.withLock { $0.append(message) }
        waker.wake()
    }

    /// Everything posted so far, oldest first; the queue is empty afterwards. The loop's only.
    public func takeAll() -> [Message] {
        messages.withLock { queued in
            defer { queued = [] }
            return queued
        }
    }

    /// Whether nothing is waiting.
    public var isEmpty: Bool { messages.withLock { $0.isEmpty } }
}
