// SPDX-License-Identifier: MIT
// What the frame scheduler remembers about each output, by name: when a new one was noticed, when
// it is owed its whole frame again, and whether its last present failed. The sets are empty in
// nearly every frame: looking a name up hashes it, so each is asked only when it holds something.
struct OutputLedger {
    /// Outputs that came with a hotplug and have not shown a frame yet, with when it was noticed.
    private var noticed: [String: Int64] = [:]
    /// New outputs owed their whole frame again at these instants: a card that just appeared is
    /// also being set up by the kernel's fbdev emulation and console, which may set a mode under
    /// our first frame; and our own first commit sets the mode, which some drivers do by clearing
    /// the video memory our frame is in (QEMU's std VGA under bochs-drm), so the frame after it
    /// is whole again at once. Real screens only.
    private var settleRepaints: [String: [Int64]] = [:]
    static let settleRepaintNanoseconds: [Int64] = [1_000_000, 1_000_000_000]
    /// Outputs whose last present failed (logged once).
    private var failing: Set<String> = []
    /// Outputs that get their whole frame next time: what they show is unknown.
    private var owedWhole: Set<String> = []

    /// Output `name` came with a hotplug noticed at `at`.
    mutating func arrived(_ name: String, at: Int64) { noticed[name] = at }

    /// Settle repaints due by `now` become whole frames owed.
    mutating func settle(at now: Int64) {
        guard !settleRepaints.isEmpty else { return }
        for (name, dues) in settleRepaints where dues.contains(where: { $0 <= now }) {
            let ahead = dues.filter { $0 > now }
            settleRepaints[name] = ahead.isEmpty ? nil : ahead
            owedWhole.insert(name)
        }
    }

    /// The earliest settle repaint still ahead.
    var nextSettle: Int64? { settleRepaints.values.compactMap { $0.min() }.min() }

    func owesWholeFrame(_ name: String) -> Bool { !owedWhole.isEmpty && owedWhole.contains(name) }

    /// Output `name` took a frame. Returns when it had been noticed, if this was a new output's
    /// first frame, and whether it had been failing.
    mutating func presented(_ name: String) -> (noticedAt: Int64?, recovered: Bool) {
        if !owedWhole.isEmpty { owedWhole.remove(name) }
        let first = noticed.isEmpty ? nil : noticed.removeValue(forKey: name)
        let recovered = !failing.isEmpty && failing.remove(name) != nil
        return (first, recovered)
    }

    /// A new output on a real screen showed its first frame at `now`: repainted whole in the next
    /// frame (which waits for the first one's commit to complete) and a second later.
    mutating func settling(_ name: String, at now: Int64) { settleRepaints[name] = Self.settleRepaintNanoseconds.map { now + $0 } }

    /// What output `name` shows is unknown (a call the display finished off the loop failed): it
    /// gets its whole frame next time.
    mutating func owe(_ name: String) { owedWhole.insert(name) }

    /// Output `name`'s present failed: it is owed its whole frame. Returns whether it had been working.
    mutating func failed(_ name: String) -> Bool {
        owedWhole.insert(name)
        return failing.insert(name).inserted
    }
}
