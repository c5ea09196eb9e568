// SPDX-License-Identifier: MIT
// The rate limiter for lines peers cause, on a fake clock with its timer fired by hand: the first
// lines of each source in full, the rest counted into one summary per source when the window's
// timer fires (also when nothing more comes), a total over all sources that new sources cannot
// get around, and every line accounted for.
import Logging
@testable import Runtime
import Testing

@Suite struct LogRateLimiterTests {
    final class Rig {
        let log = LogLines()
        var now: Int64 = 5_000_000_000
        /// Timers armed: their instant and action.
        var timers: [(at: Int64, action: () -> Void)] = []
        lazy var limiter = LogRateLimiter(logger: log.logger, clock: { [unowned self] in now }, schedule: { [unowned self] in timers.append(($0, $1)) })

        /// Moves the clock to `t` and fires the timers due.
        func advance(to t: Int64) {
            now = t
            let due = timers.filter { $0.at <= t }
            timers.removeAll { $0.at <= t }
            for timer in due { timer.action() }
        }

        var texts: [String] { log.lines.map(\.text) }
    }

    @Test func theFirstLinesAreWrittenInFullAndTheRestSummedUpWhenTheWindowCloses() {
        let rig = Rig()
        for i in 0..<11_878 { rig.limiter.log(.error, "refused requests", from: "uid 7 on the control socket", "command refused: line \(i)") }
        #expect(rig.texts == (0..<5).map { "command refused: line \($0)" })
        #expect(rig.timers.count == 1 && rig.timers[0].at == 15_000_000_000, "one timer, at the window's end")
        // The flood stops: the summary comes from the timer, not from a next line.
        rig.advance(to: 15_000_000_000)
        #expect(rig.texts.last == "… and 11,873 more refused requests from uid 7 on the control socket in the last 10 s")
        #expect(rig.log.lines.last?.level == .error)
        #expect(rig.limiter.written == 5 && rig.limiter.summarized == 11_873)
        // A new window: the source writes again, and nothing is armed while all is quiet.
        #expect(rig.timers.isEmpty)
        rig.limiter.log(.error, "refused requests", from: "uid 7 on the control socket", "command refused: again")
        #expect(rig.texts.last == "command refused: again" && rig.timers.count == 1)
    }

    @Test func eachSourceHasItsOwnShareAndNoSummaryWhenNothingWasHeldBack() {
        let rig = Rig()
        for i in 0..<3 { rig.limiter.log(.warning, "refused connections", from: "uid 1000 on the control socket", "a\(i)") }
        for i in 0..<8 { rig.limiter.log(.warning, "refused connections", from: "uid 1001 on the control socket", "b\(i)") }
        for i in 0..<2 { rig.limiter.log(.error, "bad words", from: "the FIFO /run/f", "c\(i)") }
        #expect(rig.texts == ["a0", "a1", "a2", "b0", "b1", "b2", "b3", "b4", "c0", "c1"])
        rig.advance(to: rig.now + 10_000_000_000)
        #expect(rig.texts.count == 11)
        #expect(rig.texts.last == "… and 3 more refused connections from uid 1001 on the control socket in the last 10 s")
    }

    /// Sources named per connection would each bring a fresh allowance; the total holds anyway,
    /// and the sources that got nothing through share one summary.
    @Test func manySourcesCannotPassTheTotal() {
        let rig = Rig()
        for client in 0..<10_000 {
            for _ in 0..<3 { rig.limiter.log(.info, "connections", from: "client \(client)", "client \(client) connected") }
        }
        #expect(rig.texts.count == 50, "\(rig.texts.count) lines in full")
        rig.advance(to: rig.now + 10_000_000_000)
        // 16 sources wrote 3 each (48), the 17th 2 of its 3: it gets a summary of its own.
        let summaries = rig.texts.dropFirst(50)
        #expect(summaries.count == 2, "\(Array(summaries))")
        #expect(summaries.first == "… and 1 more connections from client 16 in the last 10 s")
        #expect(summaries.last == "… and 29,949 more lines from other sources in the last 10 s (50 lines in full per 10 s at most)")
        #expect(rig.limiter.written + rig.limiter.summarized == 30_000, "every line is written or counted")
    }

    @Test func theBoundHoldsWindowAfterWindow() {
        let rig = Rig()
        rig.limiter.window = 1_000_000_000
        let start = rig.now
        var perWindow: [Int] = []
        for window in 0..<5 {
            let before = rig.texts.count
            for step in 0..<1000 {
                rig.now = start + Int64(window) * 1_000_000_000 + Int64(step) * 999_000
                for uid in 0..<200 { rig.limiter.log(.error, "refused requests", from: "uid \(uid)", "x") }
            }
            rig.advance(to: start + Int64(window + 1) * 1_000_000_000)
            perWindow.append(rig.texts.count - before)
        }
        // 50 in full (the first 50 uids, once each), a summary for each of them, one for the rest:
        // the bound of 2 x 50 + 1 lines a window, 200,000 lines offered.
        #expect(perWindow == [101, 101, 101, 101, 101], "\(perWindow)")
        #expect(rig.texts[rig.texts.count - 2] == "… and 999 more refused requests from uid 49 in the last 1 s")
        #expect(rig.texts.last == "… and 150,000 more lines from other sources in the last 1 s (50 lines in full per 1 s at most)")
        #expect(rig.limiter.written + rig.limiter.summarized == 5 * 200_000)
    }

    /// The runtime quits with a window open: its counts are written, over the time it lasted,
    /// and its timer, when it comes, closes no later window.
    @Test func flushSumsUpTheOpenWindowAndItsTimerClosesNoOther() {
        let rig = Rig()
        for _ in 0..<8 { rig.limiter.log(.warning, "idle closes", from: "uid 9 on Plymouth's socket", "closed") }
        rig.now += 2_500_000_000
        rig.limiter.flush()
        #expect(rig.texts.last == "… and 3 more idle closes from uid 9 on Plymouth's socket in the last 2.5 s")
        rig.limiter.flush()
        #expect(rig.texts.count == 6, "nothing more to sum up")
        // A new window opens with its own timer; the first one's, firing now, leaves it alone.
        for _ in 0..<7 { rig.limiter.log(.warning, "idle closes", from: "uid 9 on Plymouth's socket", "closed") }
        rig.advance(to: rig.now + 7_500_000_000)
        #expect(rig.texts.count == 11, "\(rig.texts)")
        rig.advance(to: rig.now + 2_500_000_000)
        #expect(rig.texts.last == "… and 2 more idle closes from uid 9 on Plymouth's socket in the last 10 s")
    }

    @Test func linesBelowTheLevelAreNeitherWrittenNorCounted() {
        let rig = Rig()
        var logger = rig.log.logger
        logger.logLevel = .info
        let limiter = LogRateLimiter(logger: logger, clock: { rig.now }, schedule: { rig.timers.append(($0, $1)) })
        for _ in 0..<100 { limiter.log(.debug, "lines", from: "the FIFO /f", "show") }
        #expect(rig.texts.isEmpty && rig.timers.isEmpty && limiter.summarized == 0)
        limiter.log(.error, "bad words", from: "the FIFO /f", "bad")
        #expect(rig.texts == ["bad"])
    }

    @Test func numbersAndDurationsReadWell() {
        #expect(LogRateLimiter.grouped(0) == "0" && LogRateLimiter.grouped(999) == "999" && LogRateLimiter.grouped(1000) == "1,000")
        #expect(LogRateLimiter.grouped(11_873) == "11,873" && LogRateLimiter.grouped(1_234_567) == "1,234,567")
        #expect(LogRateLimiter.duration(10_000_000_000) == "10 s" && LogRateLimiter.duration(1_500_000_000) == "1.5 s")
        #expect(LogRateLimiter.duration(300_000_000) == "300 ms")
    }
}
