// SPDX-License-Identifier: MIT
// A bounded queue between threads (the MQTT bridge's, the daemon's snapshot encoder) that wakes
// its reader through an eventfd the reader's epoll loop watches (or through its own wait, for a
// worker thread). Full means refused: nothing a broker or a daemon does makes it grow past
// `capacity`.
public final class Mailbox<Item: Sendable>: @unchecked Sendable {
    public let capacity: Int
    public let wakeup: EventFd
    private let lock = Lock()
    private var items: [Item] = []
    private var closed = false

    public init(capacity: Int) throws(SystemError) {
        self.capacity = capacity
        wakeup = try EventFd()
    }

    /// Appends `item`; false when the box is full or closed.
    @discardableResult
    public func post(_ item: Item) -> Bool {
        let ok = lock.withLock { () -> Bool in
            guard !closed, items.count < capacity else { return false }
            items.append(item)
            return true
        }
        if ok { wakeup.signal() }
        return ok
    }

    /// Replaces the last item that `matches` (a newer state for an older one), else appends.
    @discardableResult
    public func replaceOrPost(_ item: Item, matches: (Item) -> Bool) -> Bool {
        let replaced = lock.withLock { () -> Bool in
            guard let i = items.lastIndex(where: matches) else { return false }
            items[i] = item
            return true
        }
        if replaced { wakeup.signal(); return true }
        return post(item)
    }

    /// Everything queued, oldest first.
    public func takeAll() -> [Item] {
        _ = try? wakeup.drain()
        return lock.withLock {
            defer { items.removeAll(keepingCapacity: true) }
            return items
        }
    }

    /// The oldest item, waiting up to `timeoutMilliseconds` (-1: until one comes or the box closes).
    /// A wakeup with nothing in the box (one left by an item taken without waiting) waits on: it
    /// once ended a 10 s wait at once, and a display worker's `finish` gave up on a call.
    public func take(timeoutMilliseconds: Int32) -> Item? {
        let deadline = timeoutMilliseconds < 0 ? nil : MonotonicClock.nanoseconds() + Int64(timeoutMilliseconds) * 1_000_000
        while true {
            if let item = takeFirst() { return item }
            if isClosed { return nil }
            var wait: Int32 = -1
            if let deadline {
                let left = deadline - MonotonicClock.nanoseconds()
                if left <= 0 { return nil }
                wait = Int32(clamping: (left + 999_999) / 1_000_000)
            }
            _ = try? Poll.wait(wakeup.descriptor, for: .read, timeoutMilliseconds: wait, subject: "mailbox")
            _ = try? wakeup.drain()
        }
    }

    private func takeFirst() -> Item? {
        lock.withLock { items.isEmpty ? nil : items.removeFirst() }
    }

    /// Refuses every later post and wakes the reader.
    public func close() {
        lock.withLock { closed = true }
        wakeup.signal()
    }

    public var isClosed: Bool { lock.withLock { closed } }
}
