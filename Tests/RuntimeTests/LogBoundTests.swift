// SPDX-License-Identifier: MIT
// What peers can make the daemon log, counted line by line on the runtime's own logger: 100,000
// refused lines through the control socket, 100,000 bad words through a FIFO and 3,000 connections
// one after another each leave at most 101 lines per window of the rate limiter (1 s here), and
// every refused line is accounted for, written in full or counted in a summary.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LinuxSystem
import Logging
import Runtime
import Testing

@Suite("Log bounds", .serialized)
struct LogBoundTests {
    static let window: Int64 = 1_000_000_000
    /// The most lines one window may write: 50 in full, 50 summaries, one shared summary.
    static let perWindow = 101

    /// The sum of N over the summaries "… and N more WHAT from ORIGIN in the last 1 s" (or what
    /// the window lasted: a busy turn may fire its timer late).
    static func summed(_ lines: ArraySlice<(level: Logger.Level, text: String)>, _ what: String, from origin: String) -> Int {
        let middle = " more \(what) from \(origin) in the last "
        return lines.reduce(0) { total, line in
            guard line.text.hasPrefix("… and "), let range = line.text.range(of: middle) else { return total }
            let number = line.text[line.text.index(line.text.startIndex, offsetBy: 6)..<range.lowerBound].filter { $0 != "," }
            return total + (Int(number) ?? 0)
        }
    }

    /// Windows that may have opened since `start`, the one still open included.
    static func windows(since start: Int64) -> Int {
        Int((MonotonicClock.nanoseconds() - start) / window) + 2
    }

    /// After `total` lines of `what` from `origin` since `start` (the log then `logged` lines
    /// long): once the last window has closed, each is written in full (`isFull`) or counted in
    /// a summary, at most 5 in full per window, and no window writes more than its bound.
    static func expectBounded(_ rig: ControlRig, logged: Int, since start: Int64, total: Int, _ what: String, from origin: String,
                              isFull: ((level: Logger.Level, text: String)) -> Bool) throws {
        let windows = Self.windows(since: start)
        try rig.run(for: 1.2)  // the last window closes: its summary comes without another line
        let new = rig.log.lines[logged...]
        let full = new.filter(isFull).count
        let summed = Self.summed(new, what, from: origin)
        #expect(full + summed == total, "\(full) in full + \(summed) summed up")
        #expect(full <= 5 * windows, "\(full) in full over \(windows) windows")
        #expect(new.count <= Self.perWindow * windows, "\(new.count) lines over \(windows) windows")
    }

    @Test func aHundredThousandRefusedLinesOnTheSocketLeaveABoundedLog() throws {
        let rig = try ControlRig()
        rig.runtime.peerLog.window = Self.window
        let c = try rig.connect()
        let total = 100_000
        let line = Array("image /nonexistent/flood.png\n".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.count * total)
        for _ in 0..<total { bytes += line }
        let logged = rig.log.lines.count
        let start = MonotonicClock.nanoseconds()
        var sent = 0, refused = 0, other: [String] = []
        try rig.run(for: 60) {
            // Replies are longer than the requests: a client that sends faster than it reads
            // would be cut off at 1 MiB unread, so it keeps 2,000 requests in flight at most.
            if sent < bytes.count && sent / line.count - refused - other.count < 2000 {
                sent += c.sendSome(Array(bytes[sent..<min(sent + 16384, bytes.count)]))
            }
            for reply in c.readLines() {
                if reply.hasPrefix("error refused image /nonexistent/flood.png") { refused += 1 } else { other.append(reply) }
            }
            return refused + other.count == total
        }
        #expect(refused == total && other.isEmpty, "\(refused) refused, others: \(other.prefix(3)), closed \(c.closedByPeer)")
        try Self.expectBounded(rig, logged: logged, since: start, total: total, "refused requests", from: "uid \(geteuid()) on the control socket") {
            $0.text.hasPrefix("command refused: image /nonexistent/flood.png")
        }
    }

    @Test func aHundredThousandBadWordsThroughTheFIFOLeaveABoundedLog() throws {
        let rig = try ControlRig()
        rig.runtime.peerLog.window = Self.window
        let path = "\(rig.dir)/fifo"
        let session = try SplashSession(runtime: rig.runtime, script: [], duration: nil, fifoPath: path, fifoMode: 0o600,
                                        retain: false, catchSignals: false, logger: rig.log.logger)
        let writer = open(path, O_WRONLY | O_NONBLOCK)
        try #require(writer >= 0)
        defer { close(writer) }
        // Half of them do not parse, half are not UTF-8.
        let total = 100_000
        var bytes: [UInt8] = []
        for i in 0..<total / 2 { bytes += Array("progress nan\(i)\n".utf8) + [0x70, 0xFF, 0x0A] }
        let logged = rig.log.lines.count
        let start = MonotonicClock.nanoseconds()
        var sent = 0
        try rig.run(for: 120) {
            if sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { write(writer, $0.baseAddress, min($0.count, 65536)) }
                if n > 0 { sent += n }
            }
            return session.refusedLines == total
        }
        #expect(session.refusedLines == total)
        try Self.expectBounded(rig, logged: logged, since: start, total: total, "bad words", from: "the FIFO \(path)") {
            $0.level == .error && !$0.text.hasPrefix("…")
        }
    }

    /// Each connection would bring its own "connected", refusal and "closed" lines; sources are
    /// named by uid, so the thousands share one allowance.
    @Test func reconnectingOverAndOverBuysNoFreshAllowance() throws {
        let rig = try ControlRig()
        rig.runtime.peerLog.window = Self.window
        let logged = rig.log.lines.count
        let start = MonotonicClock.nanoseconds()
        var answered = 0
        for _ in 0..<3000 {
            let c = try rig.connect()
            c.send("image /nonexistent/churn.png\n")
            if try rig.lines(c, count: 1).first?.hasPrefix("error refused") == true { answered += 1 }
        }
        #expect(answered == 3000)
        let windows = Self.windows(since: start)
        try rig.run(for: 1.2)
        let new = rig.log.lines[logged...]
        let connected = new.filter { $0.text.hasSuffix(" connected") }.count
        let refused = new.filter { $0.text.hasPrefix("command refused:") }.count
        #expect(connected <= 5 * windows && refused <= 5 * windows, "\(connected) arrivals, \(refused) refusals in full over \(windows) windows")
        #expect(new.count <= Self.perWindow * windows, "\(new.count) lines over \(windows) windows")
        let origin = "uid \(geteuid()) on the control socket"
        #expect(refused + Self.summed(new, "refused requests", from: origin) == 3000)
        #expect(connected + Self.summed(new, "connections", from: origin) == 3000)
    }
}
