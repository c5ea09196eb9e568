// SPDX-License-Identifier: MIT
// Log lines that peers cause (refused requests and connections, bad FIFO words, idle closes,
// input-device errors), written at a bounded rate so that no peer can fill the journal.
//
// Time is cut into windows of `window` (10 s), each opened by the first line after a quiet spell
// and closed by a timer on the runtime's clock. Within a window every source (what happened and
// who did it: "refused requests" from "uid 65534 on the control socket") has its first
// `perSource` lines (5) written in full, and all sources together at most `total` (50); the rest
// are counted. When the window closes (the timer, so a flood that stops is still summed up), each
// source that was held back gets one summary line ("… and 11,873 more refused requests from uid
// 65534 on the control socket in the last 10 s"), and sources that got no line through at all
// (the total was spent) share one. So a window writes at most `total` full lines, `total`
// summaries and one shared summary (101 lines per 10 s), whatever peers do: sources are named by
// uid or path rather than by connection, so reconnecting buys no fresh allowance, and the total
// holds even against many uids at once. Lines below the logger's level are neither written nor
// counted. Every line is accounted for: written, or counted in a summary (`flush` sums up the
// window still open when the runtime quits). No timer is armed while nothing is logged.
import Logging

public final class LogRateLimiter {
    /// Lines each source may write in full per window.
    public var perSource = 5
    /// Lines all sources together may write in full per window.
    public var total = 50
    /// The window's length (ns).
    public var window: Int64 = 10_000_000_000

    /// Lines written in full and counted into summaries since the start (for tests and the exit summary).
    public private(set) var written = 0
    public private(set) var summarized = 0

    private let logger: Logger
    private let clock: () -> Int64
    /// Runs the action once at the instant given (the loop's timer).
    private let schedule: (Int64, @escaping () -> Void) -> Void

    private struct Source {
        var what: String
        var origin: String
        var written = 0
        var held = 0
        var level: Logger.Level
    }
    /// The window's sources in the order they first wrote (summaries come out in that order).
    private var sources: [Source] = []
    private var index: [String: Int] = [:]
    private var writtenInWindow = 0
    /// Lines of sources that got none through in this window (the total was spent).
    private var others = 0
    private var othersLevel: Logger.Level = .trace
    private var windowOpen = false
    /// Counts windows, so a timer left from one closed early (`flush`) closes no later one.
    private var windowNumber = 0
    private var windowStart: Int64 = 0

    /// Writes to `logger`; `clock` is the runtime's (CLOCK_MONOTONIC ns); `schedule` arms a
    /// one-shot timer (the loop's `schedule(at:)`).
    public init(logger: Logger, clock: @escaping () -> Int64, schedule: @escaping (Int64, @escaping () -> Void) -> Void) {
        self.logger = logger; self.clock = clock; self.schedule = schedule
    }

    /// Writes `message` unless `origin` has written its share of `what` in this window (or all
    /// sources the total); then it is counted for the window's summary. `message` is built only
    /// when written.
    public func log(_ level: Logger.Level, _ what: String, from origin: String, _ message: @autoclosure () -> String) {
        guard level >= logger.logLevel else { return }
        if !windowOpen {
            windowOpen = true
            windowNumber += 1
            let number = windowNumber
            windowStart = clock()
            schedule(windowStart + window) { [weak self] in
                guard let self, windowNumber == number else { return }
                flush()
            }
        }
        let key = what + "\u{0}" + origin
        if let i = index[key] {
            if sources[i].written < perSource && writtenInWindow < total {
                sources[i].written += 1
                write(level, message())
            } else {
                sources[i].held += 1
                sources[i].level = max(sources[i].level, level)
                summarized += 1
            }
        } else if writtenInWindow < total {
            // Only sources that wrote get an entry: at most `total` of them, whatever the churn.
            index[key] = sources.count
            sources.append(Source(what: what, origin: origin, written: 1, level: level))
            write(level, message())
        } else {
            others += 1
            othersLevel = max(othersLevel, level)
            summarized += 1
        }
    }

    private func write(_ level: Logger.Level, _ message: String) {
        writtenInWindow += 1
        written += 1
        logger.log(level: level, "\(message)")
    }

    /// Closes the window now: summaries of what was held back, then a fresh window at the next
    /// line. The window's timer does this; the runtime does it when it quits, so that no count
    /// is lost with the process.
    public func flush() {
        guard windowOpen else { return }
        // What the window lasted: `window` from its timer (give or take a busy turn), less when
        // it is closed early.
        let span = Self.duration(clock() - windowStart)
        for s in sources where s.held > 0 {
            logger.log(level: s.level, "… and \(Self.grouped(s.held)) more \(s.what) from \(s.origin) in the last \(span)")
        }
        if others > 0 {
            logger.log(level: othersLevel, "… and \(Self.grouped(others)) more lines from other sources in the last \(span) (\(total) lines in full per \(Self.duration(window)) at most)")
        }
        sources.removeAll(keepingCapacity: true)
        index.removeAll(keepingCapacity: true)
        writtenInWindow = 0
        others = 0
        othersLevel = .trace
        windowOpen = false
    }

    /// 11873 as "11,873".
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return n < 0 ? "-" + out : out
    }

    /// "10 s", "1.5 s", "300 ms".
    static func duration(_ ns: Int64) -> String {
        if ns >= 1_000_000_000 {
            let tenths = (ns + 50_000_000) / 100_000_000
            return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
        }
        return "\((ns + 500_000) / 1_000_000) ms"
    }
}
