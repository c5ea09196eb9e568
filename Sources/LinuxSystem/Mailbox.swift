// SPDX-License-Identifier: MIT
// A bounded queue between threads that wakes its reader through an eventfd the reader's epoll
// loop watches (or through its own wait, for a worker thread). Full means refused: nothing a
// broker or a daemon does makes it grow past `capacity`.
import LinuxSystem

final class Mailbox<Item: Sendable>: @unchecked Sendable {
    let capacity: Int
    let wakeup: EventFd
    private let lock = Lock()
    private var items: [Item] = []
    private var closed = false

    init(capacity: Int) throws(SystemError) {
        self.capacity = capacity
        wakeup = try EventFd()
    }

    /// Appends `item`; false when the box is full or closed.
    @discardableResult
    func post(_ item: Item) -> Bool {
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
    func replaceOrPost(_ item: Item, matches: (Item) -> Bool) -> Bool {
        let replaced = lock.withLock { () -> Bool in
            guard let i = items.lastIndex(where: matches) else { return false }
            items[i] = item
            return true
        }
        if replaced { wakeup.signal(); return true }
        return post(item)
    }

    /// Everything queued, oldest first.
    func takeAll() -> [Item] {
        _ = try? wakeup.drain()
        return lock.withLock {
            defer { items.removeAll(keepingCapacity: true) }
            return items
        }
    }

    /// The oldest item, waiting up to `timeoutMilliseconds` (-1: until one comes or the box closes).
    func take(timeoutMilliseconds: Int32) -> Item? {
        if let item = takeFirst() { return item }
        _ = try? Poll.wait(wakeup.descriptor, for: .read, timeoutMilliseconds: timeoutMilliseconds, subject: "mailbox")
        _ = try? wakeup.drain()
        return takeFirst()
    }

    private func takeFirst() -> Item? {
        lock.withLock { items.isEmpty ? nil : items.removeFirst() }
    }

    /// Refuses every later post and wakes the reader.
    func close() {
        lock.withLock { closed = true }
        wakeup.signal()
    }

    var isClosed: Bool { lock.withLock { closed } }
}
