// SPDX-License-Identifier: MIT
// The two things a HUD's behaviour is made of on a virtual clock: animated properties kept the way
// Core Animation keeps them, and one-shot timers.
//
// Core Animation's model (what UIKit's view animations rest on, and what both libraries' "only if
// the alpha is still 1" checks read): every property has a *model* value, the one the code sets
// and reads back, and, while an animation runs, a *presentation* value that the screen shows.
// - An animated change sets the model at once and adds an animation from the value on screen
//   (`UIViewAnimationOptionBeginFromCurrentState`) to the new model value; it replaces any animation
//   already running on that property. UIKit adds no animation when the model value does not change.
// - A change outside an animation sets only the model; a running animation keeps driving the
//   screen until it ends, then the screen shows the model.
import HUDProtocol
import Raster

/// One animated property.
struct AnimatedValue {
    struct Segment {
        var from: Fixed16_16
        var to: Fixed16_16
        var start: Instant
        var duration: Interval
        var curve: Easing
        /// The animation group (one `animateWithDuration:` call) it belongs to.
        var group: Int
        var end: Instant { start + duration }
    }

    /// What the code reads back.
    var model: Fixed16_16
    /// The running (or finished, not yet cleared) animation.
    var segment: Segment?

    init(_ value: Fixed16_16) { model = value }

    /// The segment if it is still running at `t`.
    func running(at t: Instant) -> Segment? {
        guard let s = segment, t < s.end else { return nil }
        return s
    }

    /// What the screen shows at `t`.
    func presented(at t: Instant) -> Fixed16_16 {
        guard let s = running(at: t) else { return model }
        let eased = s.curve.value(at: Easing.progress(elapsed: t - s.start, duration: s.duration))
        return s.from + (s.to - s.from) * eased
    }

    /// A change outside an animation block: the model only.
    mutating func set(_ value: Fixed16_16) { model = value }

    /// An animated change at `t`. Returns the group of the animation it replaced (if any was still
    /// running), or nil. Adds nothing when the model does not change.
    @discardableResult
    mutating func animate(to value: Fixed16_16, at t: Instant, duration: Interval, curve: Easing, group: Int) -> Int? {
        guard value != model else { return nil }
        let replaced = running(at: t)?.group
        segment = Segment(from: presented(at: t), to: value, start: t, duration: duration, curve: curve, group: group)
        model = value
        return replaced
    }

    /// `removeAllAnimations`: the screen jumps to the model. Returns the removed running group.
    @discardableResult
    mutating func removeAnimation(at t: Instant) -> Int? {
        let removed = running(at: t)?.group
        segment = nil
        return removed
    }
}

/// One-shot timers in firing order: by instant, then by the order they were scheduled (an NSTimer
/// or `dispatch_after` due at the same instant as another runs after it). Kept sorted, so the next
/// timer is the first entry and a frame's `popDue` and `nextFire` look at one entry, whatever else
/// is pending.
struct TimerQueue<Action> {
    struct Entry {
        var id: Int
        var fire: Instant
        var action: Action
    }
    private(set) var entries: [Entry] = []
    private var nextID = 1

    var count: Int { entries.count }

    /// Schedules `action` at `fire`; returns its id (for cancelling).
    @discardableResult
    mutating func schedule(_ action: Action, at fire: Instant) -> Int {
        let id = nextID
        nextID += 1
        insert(Entry(id: id, fire: fire, action: action))
        return id
    }

    /// Inserts after every entry due at or before `entry.fire` (its id is the newest).
    private mutating func insert(_ entry: Entry) {
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].fire <= entry.fire { low = mid + 1 } else { high = mid }
        }
        entries.insert(entry, at: low)
    }

    /// Cancels the timer `id` if it is still pending (a fired or unknown id is ignored, like
    /// invalidating an NSTimer that already fired).
    mutating func cancel(_ id: Int?) {
        guard let id, let i = entries.firstIndex(where: { $0.id == id }) else { return }
        entries.remove(at: i)
    }

    func isPending(_ id: Int?) -> Bool {
        guard let id else { return false }
        return entries.contains { $0.id == id }
    }

    /// Moves a pending timer to `fire`, behind everything already due then, with a new action.
    mutating func reschedule(_ id: Int, to fire: Instant, action: Action) {
        guard let i = entries.firstIndex(where: { $0.id == id }) else { return }
        entries.remove(at: i)
        let newID = nextID
        nextID += 1
        insert(Entry(id: newID, fire: fire, action: action))
    }

    /// The first pending entry whose action matches `predicate`.
    func first(where predicate: (Action) -> Bool) -> Entry? { entries.first { predicate($0.action) } }

    /// How many pending entries match `predicate`.
    func count(where predicate: (Action) -> Bool) -> Int { entries.reduce(0) { $0 + (predicate($1.action) ? 1 : 0) } }

    /// The earliest entry due at or before `t`, removed from the queue.
    mutating func popDue(upTo t: Instant) -> Entry? {
        guard let first = entries.first, first.fire <= t else { return nil }
        return entries.removeFirst()
    }

    /// The earliest pending instant.
    var nextFire: Instant? { entries.first?.fire }

    mutating func removeAll() { entries.removeAll() }
}
