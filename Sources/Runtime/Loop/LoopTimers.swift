// One-shot timers on the loop's clock, kept in a binary heap ordered by deadline (then by the
// order they were made), so the loop's next deadline is the top and firing what is due costs
// log n each, whatever else is pending. A cancelled timer stays in the heap until it comes up and
// is skipped there; the map of live actions is what counts, so cancelling is O(1).

/// A timer the loop fires once; cancel it to forget it.
public struct LoopTimer: Hashable, Sendable {
    let id: UInt64
}

struct LoopTimers {
    private var heap: [(deadline: Int64, id: UInt64)] = []
    private var actions: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 0

    /// Timers scheduled and neither fired nor cancelled.
    var count: Int { actions.count }

    /// The earliest live deadline, nil when no timer is pending.
    mutating func nextDeadline() -> Int64? {
        while let top = heap.first, actions[top.id] == nil { popTop() }
        return heap.first?.deadline
    }

    mutating func schedule(at deadline: Int64, _ action: @escaping () -> Void) -> LoopTimer {
        nextID += 1
        actions[nextID] = action
        heap.append((deadline, nextID))
        siftUp(heap.count - 1)
        return LoopTimer(id: nextID)
    }

    /// Forgets `timer`; true when it was still pending.
    @discardableResult
    mutating func cancel(_ timer: LoopTimer) -> Bool {
        let pending = actions.removeValue(forKey: timer.id) != nil
        // Cancelled entries are skipped lazily; a heap mostly made of them is rebuilt.
        if pending && heap.count > 64 && heap.count > 4 * actions.count { compact() }
        return pending
    }

    /// Removes and returns the action of the earliest timer due at `now`, nil when none is.
    mutating func popDue(at now: Int64) -> (() -> Void)? {
        while let top = heap.first {
            guard let action = actions[top.id] else { popTop(); continue }
            guard top.deadline <= now else { return nil }
            popTop()
            actions[top.id] = nil
            return action
        }
        return nil
    }

    private mutating func compact() {
        heap.removeAll { actions[$0.id] == nil }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
    }

    private static func earlier(_ a: (deadline: Int64, id: UInt64), _ b: (deadline: Int64, id: UInt64)) -> Bool {
        a.deadline != b.deadline ? a.deadline < b.deadline : a.id < b.id
    }

    private mutating func popTop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
    }

    private mutating func siftUp(_ index: Int) {
        var i = index
        while i > 0 {
            let parent = (i - 1) / 2
            guard Self.earlier(heap[i], heap[parent]) else { return }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var i = index
        while true {
            let l = 2 * i + 1, r = l + 1
            var best = i
            if l < heap.count && Self.earlier(heap[l], heap[best]) { best = l }
            if r < heap.count && Self.earlier(heap[r], heap[best]) { best = r }
            if best == i { return }
            heap.swapAt(i, best)
            i = best
        }
    }
}
