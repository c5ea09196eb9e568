// SPDX-License-Identifier: MIT
// What one link to the daemon sends, cut into what it means: reply lines (matched to requests by
// order, as the protocol answers them), a snapshot's reply line and the PNG bytes after it, event
// lines and `state` event lines (docs/protocol.md). Bounded as ControlClient bounds it: a line at
// 64 KiB, a PNG at the size its picture's pixels allow.
import HUDClient
import HUDProtocol

struct DaemonLinkReader {
    private var input: [UInt8] = []
    private var start = 0
    /// For each request still owed a reply, whether that reply carries a PNG.
    private var snapshots: [Bool] = []
    /// The snapshot whose bytes are being read.
    private var png: (length: Int, output: String, size: String)?

    mutating func expect(snapshot: Bool) { snapshots.append(snapshot) }

    /// Takes `bytes`; what they complete, as `link`'s events. Anything that is not the protocol throws.
    mutating func take(_ bytes: UnsafeRawBufferPointer, link: Int) throws(ControlClientError) -> [DaemonEvent] {
        input += bytes
        var out: [DaemonEvent] = []
        defer {
            if start == input.count || start > 65536 { input.removeFirst(start); start = 0 }
        }
        while true {
            if let p = png {
                guard input.count - start >= p.length else { break }
                out.append(.snapshot(link: link, png: Array(input[start..<(start + p.length)]), output: p.output, size: p.size))
                start += p.length
                png = nil
                continue
            }
            let end = min(input.count, start + ControlClient.maxReplyLineBytes + 1)
            guard let nl = input[start..<end].firstIndex(of: 0x0A) else {
                guard input.count - start <= ControlClient.maxReplyLineBytes else {
                    throw .protocolError("a line of over \(ControlClient.maxReplyLineBytes) bytes (the daemon's are far shorter)")
                }
                break
            }
            let line = String(decoding: input[start..<nl], as: UTF8.self)
            start = nl + 1
            if line.hasPrefix("event ") {
                // An event of a kind this bridge does not know (a later daemon's) is skipped.
                if let state = HUDState(eventLine: line) { out.append(.state(link: link, state)) } else if let e = HUDEvent(line: line) { out.append(.event(link: link, e)) }
                continue
            }
            guard let reply = ControlReply(line: line) else { throw .protocolError("unexpected line '\(line.prefix(80))'") }
            let snapshot = snapshots.isEmpty ? false : snapshots.removeFirst()
            if snapshot, case .ok(let data) = reply {
                png = try Self.header(data ?? "")
                continue
            }
            out.append(.reply(link: link, reply))
        }
        return out
    }

    /// `png LENGTH OUTPUT WxH`, checked as ControlClient checks it.
    static func header(_ data: String) throws(ControlClientError) -> (length: Int, output: String, size: String) {
        let words = data.split(separator: " ")
        let side = words.count == 4 ? words[3].split(separator: "x", omittingEmptySubsequences: false).compactMap { Int($0) } : []
        guard words.count == 4, words[0] == "png", let length = Int(words[1]), length >= 0,
              side.count == 2, side.allSatisfy({ (1...ControlClient.maxSnapshotSide).contains($0) }) else {
            throw .protocolError("unexpected snapshot reply 'ok \(data.prefix(80))'")
        }
        let most = ControlClient.maxSnapshotBytes(width: side[0], height: side[1])
        guard length <= most else { throw .protocolError("a snapshot of \(length) bytes for \(words[3]), over the \(most) its PNG can take") }
        return (length, String(words[2]), String(words[3]))
    }
}
