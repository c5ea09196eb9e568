// SPDX-License-Identifier: MIT
// What VKMSEndToEndTests reads from the guest beyond the capture summaries: the CRC changes
// vblank by vblank ("NAME-SEQ FRAME:CRC ..."), vkms's own record of a phase from the kernel's
// trace ("NAME-VKMS E:FRAME:CRC:US ... F:VBLANK:US ..."), and the status requests vkmscrc posted
// ("SENT I VBLANK VBLANK_NS SEND_NS"), turned into intervals, spinner phase errors and latencies.
import Foundation

/// The pictures a capture saw change to, with the vblank (vkms's frame count) of each change.
struct CRCChanges {
    var changes: [(frame: Int64, crc: UInt32)] = []

    /// From a "NAME-SEQ FRAME:CRC ..." line (its first entry is where the capture began).
    init?(_ info: [String], prefix: String) {
        guard let line = info.first(where: { $0.hasPrefix(prefix + " ") }) else { return nil }
        for word in line.split(separator: " ").dropFirst() {
            let pair = word.split(separator: ":")
            guard pair.count == 2, let f = Int64(pair[0]), let c = UInt32(pair[1], radix: 16) else { return nil }
            changes.append((f, c))
        }
    }

    /// Vblanks between consecutive changes, from the second change on (the capture's first entry
    /// is no change).
    var intervals: [Int64] {
        guard changes.count > 2 else { return [] }
        return zip(changes.dropFirst(2), changes.dropFirst()).map { $0.frame - $1.frame }
    }

    /// How far the spinner's step moved against the vblanks between two changes, for each pair of
    /// changes whose pictures are both in `steps` (CRC -> step of `turn`): 0 when the spinner moved
    /// one step a vblank, whatever the vblanks skipped; -1 when a frame a vblank late was drawn one
    /// step on instead of two (a spinner slowed by a late loop).
    func phaseErrors(steps: [UInt32: Int], turn: Int) -> [Int] {
        zip(changes.dropFirst(2), changes.dropFirst()).compactMap { b, a in
            guard let sa = steps[a.crc], let sb = steps[b.crc] else { return nil }
            var e = (sb - sa - Int((b.frame - a.frame) % Int64(turn))) % turn
            if e >= turn / 2 { e -= turn }
            if e < -turn / 2 { e += turn }
            return e
        }
    }
}

/// A phase as the guest kernel recorded it: every CRC entry vkms added, with when (its composer
/// ends there), and every flip event delivered, with the vblank the flip completed at.
///
/// Under QEMU vkms composes each frame 3-4 refreshes after its vblank (43 ms of emulated CPU at
/// 640x480; the composer skips vblanks to catch up and gives each skipped one the CRC of its next
/// composition). Its flip event, though, comes at the vblank, and from then on the buffer that
/// flip replaced is the program's again (the KMS contract a board's scanout keeps: the buffer is
/// never read after that). So an entry vkms composed after that event shows whatever the program
/// had drawn into the buffer by then: a later frame, or two frames mixed. The flip events are
/// the exact record of when each frame reached the screen; an entry is evidence of what was on
/// screen only when vkms composed it before its buffer went back.
struct VKMSRecord {
    /// A CRC entry: its vblank, its CRC and when vkms added it (µs, CLOCK_MONOTONIC).
    typealias Entry = (frame: Int64, crc: UInt32, added: Int64)
    var entries: [Entry] = []
    var flips: [(vblank: Int64, delivered: Int64)] = []

    init?(_ info: [String], prefix: String) {
        guard let line = info.first(where: { $0.hasPrefix(prefix + " ") }) else { return nil }
        for word in line.split(separator: " ").dropFirst() {
            let f = word.split(separator: ":")
            if f.count == 4, f[0] == "E", let n = Int64(f[1]), let c = UInt32(f[2], radix: 16), let t = Int64(f[3]) {
                entries.append((n, c, t))
            } else if f.count == 3, f[0] == "F", let n = Int64(f[1]), let t = Int64(f[2]) {
                flips.append((n, t))
            } else {
                return nil
            }
        }
        flips.sort { $0.vblank < $1.vblank }
    }

    /// Flips per vblank, over the vblanks from the first flip to the last.
    var flipRate: Double {
        guard let first = flips.first, let last = flips.last, last.vblank > first.vblank else { return 0 }
        return Double(flips.count - 1) / Double(last.vblank - first.vblank)
    }

    /// Vblanks between consecutive flips.
    var flipIntervals: [Int64] { zip(flips.dropFirst(), flips).map { $0.vblank - $1.vblank } }

    /// For each flip, how many vblanks it came after the grid of every `k`th vblank from the
    /// first flip: 0 on the grid, 1...k-1 for a flip whose commit missed the vblank it was meant
    /// for (the emulated CPU stalled past the refresh it had to commit in).
    func gridLags(every k: Int64) -> [Int64] {
        guard let first = flips.first else { return [] }
        return flips.map { ($0.vblank - first.vblank) % k }
    }

    /// Whether vkms composed `entry` after the buffer shown at its vblank went back to the program:
    /// after the event of the next flip was delivered.
    func composedLate(_ entry: Entry) -> Bool {
        guard let next = flips.first(where: { $0.vblank > entry.frame }) else { return false }
        return entry.added > next.delivered
    }

    /// Entries vkms composed in time (before their buffer went back).
    var inTime: [Entry] { entries.filter { !composedLate($0) } }

    /// "E entries (I in time, U no frame of `drawn`), F flips" for the figures line.
    func summary(drawn: Set<UInt32>) -> String {
        "\(entries.count) entries (\(inTime.count) in time, \(entries.filter { !drawn.contains($0.crc) }.count) no frame), \(flips.count) flips"
    }

    /// Vblanks at which an entry composed in time shows another picture than the entry before it,
    /// composed in time too, though no flip completed there: a picture that changed on screen
    /// without a flip (drawn into the buffer being shown).
    var changesWithoutFlip: [Int64] {
        let flipped = Set(flips.map(\.vblank))
        return zip(entries.dropFirst(), entries).compactMap { b, a in
            a.crc != b.crc && !composedLate(a) && !composedLate(b) && !flipped.contains(b.frame) ? b.frame : nil
        }
    }
}

/// One status request vkmscrc posted: the vblank before it (count and stamp) and when it was sent.
struct SentRequest {
    let index: Int
    let vblank: Int64
    let vblankNanoseconds: Int64
    let sentNanoseconds: Int64

    static func all(_ info: [String], prefix: String) -> [SentRequest] {
        info.compactMap { line in
            guard line.hasPrefix(prefix + "SENT ") else { return nil }
            let w = line.split(separator: " ").dropFirst().compactMap { Int64($0) }
            guard w.count == 4 else { return nil }
            return SentRequest(index: Int(w[0]), vblank: w[1], vblankNanoseconds: w[2], sentNanoseconds: w[3])
        }
    }

    /// The refresh period vkmscrc measured ("...STATUS period N ns").
    static func period(_ info: [String], prefix: String) -> Int64? {
        info.first { $0.hasPrefix(prefix + "STATUS period ") }.flatMap { Int64($0.split(separator: " ")[2]) }
    }

    /// When its text was first on screen: the first change after its vblank to a picture in
    /// `shows`, as vblanks after the one before the request and as time from the request to that
    /// vblank. Nil when it never showed.
    func latency(in seq: CRCChanges, shows: Set<UInt32>, period: Int64) -> (vblanks: Int64, nanoseconds: Int64)? {
        guard let c = seq.changes.dropFirst().first(where: { $0.frame > vblank && shows.contains($0.crc) }) else { return nil }
        let n = c.frame - vblank
        return (n, vblankNanoseconds + n * period - sentNanoseconds)
    }
}

/// "min / median / 90th percentile / max" of some figures (the docs' latency table).
func distribution(_ values: [Double], format: String = "%.1f") -> String {
    guard !values.isEmpty else { return "-" }
    let s = values.sorted()
    func at(_ q: Double) -> Double { s[min(s.count - 1, Int((Double(s.count - 1) * q).rounded()))] }
    return [s[0], at(0.5), at(0.9), s[s.count - 1]].map { String(format: format, $0) }.joined(separator: " / ")
}
