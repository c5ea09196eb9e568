// SPDX-License-Identifier: MIT
// Where the time from exec to the first frame goes, as one log line once the first frame is on
// the screen: the CPU used before `main` (the dynamic loader's mapping and relocations, the Swift
// runtime's start), then each phase the program marks (options, profile, sockets, display and
// modeset, fonts and scene, …), then the first frame itself (render, commit, flip).
import Logging

public final class StartupTimeline {
    private let clock: () -> Int64
    /// CPU nanoseconds the process had used when `main` ran: loading and starting the program,
    /// plus whatever its parent did after fork (little for systemd or a shell).
    public let beforeMain: Int64
    /// The wall time from exec to `main`, when the launcher said when it exec'd us
    /// (`SPLASHHUD_EXEC_NS`, CLOCK_MONOTONIC; the benchmark's launcher sets it).
    public let execToMain: Int64?
    /// The phases marked, from "main", and when each ended: two arrays rather than one of
    /// `(phase, at)` tuples, whose type the runtime would build at run time on every start.
    public private(set) var phases: [String]
    public private(set) var times: [Int64]
    private var reported = false

    /// Starts at `main`: `cpuBeforeMain` is ProcessCPUClock's reading there.
    public init(clock: @escaping () -> Int64, cpuBeforeMain: Int64, execAt: Int64? = nil) {
        self.clock = clock
        beforeMain = cpuBeforeMain
        let now = clock()
        execToMain = execAt.map { now - $0 }
        phases = ["main"]
        times = [now]
    }

    /// The phase that ended now.
    public func mark(_ phase: String) {
        phases.append(phase)
        times.append(clock())
    }

    /// `start-up: 38.0 ms CPU before main; options 0.2 ms, profile 1.1 ms, …, first frame 9.8 ms; main to first frame 52.3 ms`.
    public func summary() -> String {
        // Appended, not joined: the unspecialized joined(separator:) looks its types up at run time.
        var parts = ""
        for i in 1..<phases.count {
            if i > 1 { parts += ", " }
            parts += "\(phases[i]) \(Self.ms(times[i] - times[i - 1]))"
        }
        let total = times[times.count - 1] - times[0]
        let loading = execToMain.map { "exec to main \(Self.ms($0)) (\(Self.ms(beforeMain)) CPU)" } ?? "\(Self.ms(beforeMain)) CPU before main"
        return "start-up: \(loading); \(parts); main to \(phases[phases.count - 1]) \(Self.ms(total))"
    }

    /// Logs the summary at the end of the loop turn that presented `runtime`'s first frame (or,
    /// with no screen yet, the first turn: the daemon serves from then on).
    public func reportAtFirstFrame(of runtime: HUDRuntime, logger: Logger) {
        runtime.whenReady { [weak self, unowned runtime] in
            guard let self, !self.reported else { return }
            self.reported = true
            self.mark(runtime.outputs.isEmpty ? "serving (no screen yet)" : "first frame")
            logger.info("\(self.summary())")
        }
    }

    static func ms(_ ns: Int64) -> String {
        let tenths = (ns + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}
