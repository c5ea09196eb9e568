// SPDX-License-Identifier: MIT
// One-shot timers on the loop's clock, kept in a binary heap ordered by deadline (then by the
// order they were made), so the loop's next deadline is the top and firing what is due costs
// log n each, whatever else is pending. Actions live in slots, reused once free; a timer names its
// slot and its id, and a slot holding another id (or none) means the timer has fired or been
// cancelled, so cancelling is O(1). A cancelled timer stays in the heap until it comes up and is
// skipped there. (The actions were a `[UInt64: () -> Void]`, whose first insert cost the runtime
// a generic type lookup of about 160 k instructions, under TCG before the first frame.)

/// A timer the loop fires once; cancel it to forget it.
public struct LoopTimer: Hashable, Sendable {
    let id: UInt64
    let slot: Int
}

struct LoopTimers {
    private struct Entry {
        var deadline: Int64
        var id: UInt64
        var slot: Int
    }
    private struct Slot {
        /// The live timer's id; 0 when the slot is free (ids start at 1).
        var id: UInt64
        var action: () -> Void
    }
    private var heap: [Entry] = []
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var nextID: UInt64 = 0

    /// Timers scheduled and neither fired nor cancelled.
    private(set) var count = 0

    /// The earliest live deadline, nil when no timer is pending.
    mutating func nextDeadline() -> Int64? {
        while let top = heap.first, !isLive(top) { popTop() }
        return heap.first?.deadline
    }

    mutating func schedule(at deadline: Int64, _ action: @escaping () -> Void) -> LoopTimer {
        nextID += 1
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = Slot(id: nextID, action: action)
        } else {
            slot = slots.count
            slots.append(Slot(id: nextID, action: action))
        }
        count += 1
        heap.append(Entry(deadline: deadline, id: nextID, slot: slot))
        siftUp(heap.count - 1)
        return LoopTimer(id: nextID, slot: slot)
    }

    /// Forgets `timer`; true when it was still pending.
    @discardableResult
    mutating func cancel(_ timer: LoopTimer) -> Bool {
        guard timer.slot < slots.count, slots[timer.slot].id == timer.id else { return false }
        free(timer.slot)
        // Cancelled entries are skipped lazily; a heap mostly made of them is rebuilt.
        if heap.count > 64 && heap.count > 4 * count { compact() }
        return true
    }

    /// Removes and returns the action of the earliest timer due at `now`, nil when none is.
    mutating func popDue(at now: Int64) -> (() -> Void)? {
        while let top = heap.first {
            guard isLive(top) else { popTop(); continue }
            guard top.deadline <= now else { return nil }
            popTop()
            let action = slots[top.slot].action
            free(top.slot)
            return action
        }
        return nil
    }

    private func isLive(_ entry: Entry) -> Bool { slots[entry.slot].id == entry.id }

    /// Empties `slot` (dropping its action and what it captured) for the next timer.
    private mutating func free(_ slot: Int) {
        slots[slot] = Slot(id: 0, action: {})
        freeSlots.append(slot)
        count -= 1
    }

    private mutating func compact() {
        let slots = self.slots
        heap.removeAll { slots[$0.slot].id != $0.id }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
    }

    private static func earlier(_ a: Entry, _ b: Entry) -> Bool {
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
