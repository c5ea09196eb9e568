// What VKMSEndToEndTests reads from the guest beyond the capture summaries: the CRC changes
// vblank by vblank ("NAME-SEQ FRAME:CRC ..."), and the status requests vkmscrc posted ("SENT I
// VBLANK VBLANK_NS SEND_NS"), turned into intervals, spinner phase errors and latencies.
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
