// SPDX-License-Identifier: MIT
// The loop never blocks on the display: a card that loses every third page-flip event and takes
// 200 ms to set its mode (at the first frame, and again after each lost flip) while 20 clients
// ping and another takes snapshots of the whole screen. The lost flips are waited for on the
// loop's own timer and then given up (a display's present would otherwise wait for them a second
// time, as DRMDisplay's does for a caller that did not wait: this one sleeps its flip timeout
// then, as that one polls), a modeset is waited for like a flip (its event, as an atomic
// nonblocking modeset's), and the PNGs are encoded off the loop: every ping is answered, 99 % of
// them within 50 ms, while the spinner goes on.
// The 50 ms bound is the issue's and holds in the plain run (scripts/test.sh runs this suite
// before the sanitizers, on a quiet machine). Under a sanitizer, with every suite running beside
// it (whose start once stalled the whole test process for 4 s), the latencies are only printed and
// the clients wait up to 10 s; that no present waited for a lost flip is checked all the same.
#if canImport(Glibc)
import Glibc
#endif
import Display
import Foundation
import HUDClient
import LinuxSystem
import Raster
@testable import Runtime
import Testing

@Suite("The loop never blocks on the display", .serialized)
struct LoopLatencyTests {
    /// A card whose flips complete at once (QEMU's drivers) but for every third, whose event never
    /// comes, and whose modesets (the first frame's, and the next after a flip was given up) send
    /// their event 200 ms after the commit. Presenting with a flip in flight blocks for the flip
    /// timeout, as a real card's present does when nobody waited for the event.
    final class LossyCard: Display {
        let memory: MemoryDisplay
        private let events: EventFd
        static let flipTimeoutMicroseconds: UInt32 = 1_000_000
        static let modesetMicroseconds: UInt32 = 200_000
        /// A flip or a modeset in flight, and whether its event will come.
        private var pending = false
        private var lost = false
        private var needsModeset = true
        private(set) var modesets = 0
        private(set) var flips = 0
        private(set) var lostFlips = 0
        private(set) var abandoned = 0
        /// Presents made while a flip was in flight: each held the loop for the flip timeout.
        private(set) var blocked = 0

        init(_ memory: MemoryDisplay) throws {
            self.memory = memory
            events = try EventFd()
        }

        var outputs: [DisplayOutput] { memory.outputs }
        var frameIntervalNanoseconds: Int64 { memory.frameIntervalNanoseconds }
        var showsOnRealScreen: Bool { false }
        func useClock(_ clock: @escaping () -> Int64) { memory.useClock(clock) }
        func presentCount(output index: Int) -> Int? { memory.presentCount(output: index) }
        func shownPicture(output index: Int) -> Pixmap? { memory.shownPicture(output: index) }
        func close(_ how: CloseBehaviour) { memory.close(how) }

        func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming {
            if pending {
                blocked += 1
                usleep(Self.flipTimeoutMicroseconds)
                pending = false
            }
            _ = try memory.present(frame, damage: damage)
            if needsModeset {
                needsModeset = false
                modesets += 1
                pending = true
                lost = false
                let events = self.events
                Thread.detachNewThread {
                    usleep(Self.modesetMicroseconds)
                    events.signal()
                }
                return .timer
            }
            flips += 1
            pending = true
            lost = flips % 3 == 0
            if lost { lostFlips += 1 } else { events.signal() }
            return .timer
        }

        var eventDescriptors: [Int32] { [events.descriptor.rawValue] }

        func handleEvents(on descriptor: Int32) throws(DisplayError) {
            _ = try? events.drain()
            if pending && !lost { pending = false }
        }

        func isFlipPending(output index: Int) -> Bool { pending }

        func abandonFlip(output index: Int) {
            guard pending else { return }
            abandoned += 1
            pending = false
            needsModeset = true
        }
    }

    final class Tally: @unchecked Sendable {
        let lock = NSLock()
        var latencies: [Int64] = []
        var failures: [String] = []
        var snapshots = 0
        var running = 0
    }

    static var sanitized: Bool {
        // RTLD_DEFAULT (nil on glibc): the sanitizers' runtimes export their entry points.
        dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil
    }

    @Test func pingsAreAnsweredWhileFlipEventsGetLostAndSnapshotsAreEncoded() throws {
        var card: LossyCard?
        let rig = try ControlRig(width: 1280, height: 800) { memory in
            let c = try! LossyCard(memory)
            card = c
            return c
        }
        let lossy = try #require(card)
        try rig.run(for: 0.2)
        let starter = try rig.connect()
        starter.send("show Working\n")
        #expect(try rig.lines(starter, count: 1) == ["ok"])

        let tally = Tally()
        let sanitized = Self.sanitized
        let path = rig.path
        let end = MonotonicClock.nanoseconds() + 5_000_000_000
        for i in 0..<20 {
            tally.lock.withLock { tally.running += 1 }
            Thread.detachNewThread {
                defer { tally.lock.withLock { tally.running -= 1 } }
                do {
                    let client = try ControlClient(socket: path, timeoutMilliseconds: sanitized ? 10_000 : 500)
                    while MonotonicClock.nanoseconds() < end {
                        let t0 = MonotonicClock.nanoseconds()
                        let reply = try client.request("ping")
                        let took = MonotonicClock.nanoseconds() - t0
                        tally.lock.withLock {
                            tally.latencies.append(took)
                            if reply != "pong" { tally.failures.append("client \(i): \(reply ?? "nil")") }
                        }
                        usleep(20_000)
                    }
                } catch {
                    tally.lock.withLock { tally.failures.append("client \(i): \(error)") }
                }
            }
        }
        tally.lock.withLock { tally.running += 1 }
        Thread.detachNewThread {
            defer { tally.lock.withLock { tally.running -= 1 } }
            do {
                let client = try ControlClient(socket: path, timeoutMilliseconds: 10_000)
                while MonotonicClock.nanoseconds() < end {
                    let shot = try client.snapshot()
                    tally.lock.withLock {
                        if shot.size == "1280x800" && shot.png.count > 100 { tally.snapshots += 1 } else { tally.failures.append("snapshot \(shot.size)") }
                    }
                }
            } catch {
                tally.lock.withLock { tally.failures.append("snapshots: \(error)") }
            }
        }
        let presentsBefore = rig.display.presentCount(output: 0) ?? 0
        let finished = try rig.run(for: 20) { tally.lock.withLock { tally.running == 0 } }
        #expect(finished)
        let presents = (rig.display.presentCount(output: 0) ?? 0) - presentsBefore

        tally.lock.withLock {
            #expect(tally.failures.isEmpty, "\(tally.failures.prefix(10))")
            #expect(tally.snapshots >= 2, "\(tally.snapshots) snapshots")
            let sorted = tally.latencies.sorted()
            #expect(sorted.count >= (sanitized ? 20 : 20 * 20), "\(sorted.count) pings")
            let p99 = sorted.isEmpty ? Int64.max : sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
            print("loop latency: \(sorted.count) pings, p50 \(sorted.isEmpty ? 0 : sorted[sorted.count / 2] / 1000) us, p99 \(p99 / 1000) us, slowest \((sorted.last ?? 0) / 1000) us; \(tally.snapshots) snapshots; \(lossy.lostFlips) flip events lost, \(lossy.modesets) modesets of 200 ms")
            #expect(sanitized || p99 <= 50_000_000, "p99 \(p99 / 1_000_000) ms, slowest \((sorted.last ?? 0) / 1_000_000) ms, of \(sorted.count) pings")
        }
        // Flip events were lost, each waited for on the loop and then given up: no present ever
        // had to wait for one. Between the lost ones the spinner went on (two frames after each).
        #expect(lossy.lostFlips >= (sanitized ? 2 : 3) && lossy.blocked == 0, "\(lossy.lostFlips) lost, \(lossy.blocked) presents blocked")
        #expect(rig.runtime.frames.flipsAbandoned >= lossy.lostFlips - 1 && lossy.abandoned == rig.runtime.frames.flipsAbandoned)
        #expect(presents >= 3 * (lossy.lostFlips - 1), "\(presents) frames presented, \(lossy.lostFlips) flips lost")
        #expect(lossy.modesets >= lossy.abandoned + 1, "\(lossy.modesets) modesets")
    }
}
