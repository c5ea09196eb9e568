// SPDX-License-Identifier: MIT
// A flood through the real daemon: clients sending progress as fast as the socket takes it while
// the spinner animates and another client sends lifecycle commands. Every lifecycle request is
// answered `ok` in order (applied, never dropped), the HUD ends on some flooder's last value (no
// older one applied after it), and the daemon's peak RSS stays bounded. The figures (rates, frame
// rate, RSS) are the benchmark's: `splashhud-control-bench --flood-clients 8 --flood-seconds 10`.
import Foundation
import HUDClient
import Testing

extension DaemonProcessTests {
    final class FloodTally: @unchecked Sendable {
        let lock = NSLock()
        var running = 0
        var failures: [String] = []
        /// The lifecycle client is done: the flooders' last values come after its last command.
        var lifecycleDone = false
    }

    /// Whether `binary` was built with AddressSanitizer or ThreadSanitizer (their runtimes' entry
    /// points are in it).
    static func isSanitized(_ binary: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: binary) else { return false }
        return data.range(of: Data("__asan_init".utf8)) != nil || data.range(of: Data("__tsan_init".utf8)) != nil
    }

    @Test func aFloodLosesNoLifecycleCommandAndEndsOnTheLatestProgress() throws {
        let d = try Running()
        defer { d.end() }
        func peakRSS() -> Int {
            let status = (try? String(contentsOfFile: "/proc/\(d.process.processIdentifier)/status", encoding: .utf8)) ?? ""
            return status.split(separator: "\n").first { $0.hasPrefix("VmHWM") }.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        }
        let life = try ControlClient(socket: d.socket, timeoutMilliseconds: 10_000)
        _ = try life.request("show Spinning")
        let before = peakRSS()
        let tally = FloodTally()
        let end = ContinuousClock.now + .seconds(2)
        let socket = d.socket
        for i in 0..<4 {
            tally.lock.withLock { tally.running += 1 }
            Thread.detachNewThread {
                defer { tally.lock.withLock { tally.running -= 1 } }
                do {
                    let c = try ControlClient(socket: socket, timeoutMilliseconds: 10_000)
                    var n = 0
                    while ContinuousClock.now < end || !tally.lock.withLock({ tally.lifecycleDone }) {
                        for r in try c.pipeline((0..<100).map { "progress \(Double(($0 + n) % 97) / 100) \"flood \(i)\"" }) { _ = try r.get() }
                        n += 100
                    }
                    _ = try c.request("progress \(0.5 + Double(i) / 100) \"last \(i)\"")
                } catch {
                    tally.lock.withLock { tally.failures.append("flooder \(i): \(error)") }
                }
            }
        }
        var rounds = 0
        while ContinuousClock.now < end {
            let lines = ["show \"Round \(rounds)\"", "success \"Done \(rounds)\"", "dismiss", "status \"after \(rounds)\""]
            let replies = try life.pipeline(lines)
            #expect(replies.count == 4)
            for (line, r) in zip(lines, replies) {
                if case .failure(let e) = r { Issue.record("\(line) was not applied: \(e)") }
            }
            rounds += 1
        }
        tally.lock.withLock { tally.lifecycleDone = true }
        while tally.lock.withLock({ tally.running }) > 0 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(tally.failures.isEmpty, "\(tally.failures)")
        #expect(rounds > 0)
        let state = try life.request("state") ?? ""
        let lastShown = (0..<4).contains { state.contains("progress \(0.5 + Double($0) / 100) status \"last \($0)\"") }
        #expect(lastShown, "the HUD must show a flooder's last value with its text: \(state)")
        let after = peakRSS()
        // A sanitizer's own bookkeeping (ASan's quarantine, shadow memory) grows without the HUD.
        if !Self.isSanitized(try SplashBinary.path("splashhudd")) {
            #expect(after - before < 16 * 1024, "peak RSS grew from \(before) to \(after) kB")
        }
    }
}
