// SPDX-License-Identifier: MIT
import Foundation
import Testing

/// The frame pacer on a real fbdev driver (bochs' DRM fbdev emulation, whose FBIO_WAITFORVSYNC
/// returns at once, so the pacer runs on its timerfd): the guest program (Tests/PacerGuest) runs a
/// static HUD for ~3 s, then an animating spinner for ~3 s, measuring its own CPU time with
/// getrusage, then the static HUD again through HUDRuntime. A static HUD must arm no timer and cost
/// (almost) no CPU; the spinner must keep presenting frames. One boot, about 25 s.
@Suite("Frame pacer end to end under QEMU")
struct PacerEndToEndTests {
    /// One "PACER <phase> wall <ms> cpu <ms> frames <n> missed <n> timers <n> waits <n> timing <t>" line.
    struct Phase {
        var wall = 0.0, cpu = 0.0, frames = 0, missed = 0, timers = 0, waits = 0
        init?(_ line: String, phase: String) {
            let words = line.split(separator: " ").map(String.init)
            guard words.count >= 14, words[0] == "PACER", words[1] == phase else { return nil }
            var values: [String: String] = [:]
            var i = 2
            while i + 1 < words.count { values[words[i]] = words[i + 1]; i += 2 }
            guard let w = values["wall"].flatMap(Double.init), let c = values["cpu"].flatMap(Double.init),
                  let f = values["frames"].flatMap(Int.init), let m = values["missed"].flatMap(Int.init),
                  let t = values["timers"].flatMap(Int.init), let n = values["waits"].flatMap(Int.init) else { return nil }
            wall = w / 1000; cpu = c / 1000; frames = f; missed = m; timers = t; waits = n
        }
        var cpuPercent: Double { wall > 0 ? 100 * cpu / wall : 100 }
        var framesPerSecond: Double { wall > 0 ? Double(frames) / wall : 0 }
    }

    /// `splashhud-pacer-guest` beside this test binary, built on demand.
    static func program() throws -> String { try GuestProgram.path(product: "splashhud-pacer-guest") }

    @Test("a static HUD arms no timer and costs < 2 % CPU; a spinner keeps presenting frames")
    func staticCostsNothingSpinnerAnimates() throws {
        try VMSelftestTests.requireQEMUTools()
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-pacer-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: shots) }
        let run = try VMRun(display: "bochs", program: try Self.program(), shotsDir: shots, timed: true, args: [])
        print("pacer: \(run.summary)")
        for line in run.info { print("  \(line)") }
        try #require(run.status == 0, "guest failed (status \(run.status)):\n\(run.output)")

        let still = try #require(run.info.lazy.compactMap { Phase($0, phase: "static") }.first, "no static figures:\n\(run.output)")
        let spin = try #require(run.info.lazy.compactMap { Phase($0, phase: "spinner") }.first, "no spinner figures:\n\(run.output)")

        // Static: the loop blocked with no deadline until SIGALRM woke it after ~3 s.
        #expect(still.wall >= 2.5, "static phase lasted \(still.wall) s")
        #expect(still.timers == 0, "a static HUD armed \(still.timers) timer(s)")
        #expect(still.waits <= 3, "a static HUD woke \(still.waits) times")
        #expect(still.cpuPercent < 2, "static HUD used \(still.cpu) s CPU in \(still.wall) s (\(still.cpuPercent) %)")

        // Spinner: paced by the timerfd at 60 Hz; TCG is slow, so at least 20 frames a second.
        #expect(spin.wall >= 2.5, "spinner phase lasted \(spin.wall) s")
        #expect(spin.framesPerSecond >= 20, "spinner: \(spin.frames) frames in \(spin.wall) s")
        // Never faster than the mode's refresh ("PACER display WxH interval N ns").
        let interval = try #require(run.info.first { $0.hasPrefix("PACER display ") }.flatMap { line in
            line.split(separator: " ").firstIndex(of: "interval").flatMap { i in Double(line.split(separator: " ")[i + 1]) } }, "no interval line")
        #expect(spin.framesPerSecond <= 1.02e9 / interval, "spinner presented faster than the refresh: \(spin.framesPerSecond)/s, interval \(interval) ns")
        #expect(spin.timers >= spin.frames - 1, "spinner frames came without the timer: \(spin.timers) timers, \(spin.frames) frames")
        // Capped at 15 frames a second: every k-th refresh (k = ceil(refresh rate / 15)), so at most
        // 15 a second and close to it; and cheaper per second than the uncapped spinner.
        let capped = try #require(run.info.lazy.compactMap { Phase($0, phase: "spinner15") }.first, "no capped figures:\n\(run.output)")
        #expect(capped.wall >= 2.5, "capped phase lasted \(capped.wall) s")
        // (frames - 1 intervals: the phase's first frame comes at its start.)
        let cappedRate = Double(capped.frames - 1) / capped.wall
        #expect(cappedRate <= 15.05 && cappedRate >= 11, "capped spinner: \(capped.frames) frames in \(capped.wall) s")
        #expect(capped.cpuPercent < spin.cpuPercent, "capped spinner used \(capped.cpuPercent) % CPU, uncapped \(spin.cpuPercent) %")
        print(String(format: "pacer figures: spinner %.1f frames/s %.2f %% CPU %.3f ms CPU/frame; capped %.1f frames/s %.2f %% CPU %.3f ms CPU/frame",
                     spin.framesPerSecond, spin.cpuPercent, spin.cpu * 1000 / Double(max(spin.frames, 1)),
                     capped.framesPerSecond, capped.cpuPercent, capped.cpu * 1000 / Double(max(capped.frames, 1))))
        // The same static HUD through HUDRuntime: no timer, (almost) no CPU.
        let runtime = try #require(run.info.lazy.compactMap { Phase($0, phase: "runtime-static") }.first, "no runtime figures:\n\(run.output)")
        #expect(runtime.wall >= 2.5, "runtime phase lasted \(runtime.wall) s")
        #expect(runtime.timers == 0, "HUDRuntime's static HUD armed \(runtime.timers) timer(s)")
        #expect(runtime.waits <= 3, "HUDRuntime's static HUD woke \(runtime.waits) times")
        #expect(runtime.cpuPercent < 2, "HUDRuntime's static HUD used \(runtime.cpu) s CPU in \(runtime.wall) s")
        print(String(format: "pacer figures: runtime static %.3f s CPU in %.2f s (%.2f %%), %d timers, %d frames",
                     runtime.cpu, runtime.wall, runtime.cpuPercent, runtime.timers, runtime.frames))
        print(String(format: "pacer figures: static %.3f s CPU in %.2f s (%.2f %%), %d timers; spinner %.1f frames/s, %d missed, %.1f %% CPU",
                     still.cpu, still.wall, still.cpuPercent, still.timers, spin.framesPerSecond, spin.missed, spin.cpuPercent))
    }
}
