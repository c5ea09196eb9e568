// SPDX-License-Identifier: MIT
// Boot progress without a client reporting it, in Plymouth's manner: each boot remembers when each
// status text arrived, as a fraction of the whole boot, and how long the boot took (a small file
// in a state directory); the next boot shows the progress from those fractions and the time since
// start, never going backwards. A client that sends progress values itself wins: the estimate stops
// for the rest of the run. A state directory that is missing, unreadable or read-only only means
// no estimate this time, or none remembered for the next: it never stops the splash.
import HUD
import HUDProtocol
import LinuxSystem
import Logging
import Raster

public final class BootEstimate {
    /// The remembered boot: its length and when each text arrived (fraction of it).
    public struct Record: Equatable, Sendable {
        public var seconds: Double
        public var marks: [(text: String, fraction: Double)]
        public static func == (a: Record, b: Record) -> Bool {
            a.seconds == b.seconds && a.marks.map(\.text) == b.marks.map(\.text) && a.marks.map(\.fraction) == b.marks.map(\.fraction)
        }

        /// `boot-duration` as written: `total SECONDS`, then `FRACTION "TEXT"` lines.
        public var text: String {
            (["total \(seconds)"] + marks.map { "\($0.fraction) \(CommandParser.quote($0.text))" }).joined(separator: "\n") + "\n"
        }

        /// nil for anything that is not such a file (a damaged file is ignored, not trusted).
        public init?(text: String) {
            var seconds: Double?
            var marks: [(String, Double)] = []
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { return nil }
                if parts[0] == "total" {
                    guard let s = Double(parts[1]), s > 0, s < 86_400 else { return nil }
                    seconds = s
                } else {
                    // The text as the command language quotes it: read back through `status`.
                    guard let f = Double(parts[0]), (0...1).contains(f), parts[1].hasPrefix("\""),
                          case .status(let text)? = try? CommandParser.parse("status " + parts[1]) else { return nil }
                    marks.append((text, f))
                }
            }
            guard let seconds else { return nil }
            self.init(seconds: seconds, marks: marks)
        }

        public init(seconds: Double, marks: [(text: String, fraction: Double)]) { self.seconds = seconds; self.marks = marks }
    }

    public let path: String
    /// Last boot's record, nil when there was none (or it could not be read).
    public private(set) var previous: Record?
    public private(set) var shown: Double = 0
    /// False once a client sent progress itself.
    public private(set) var active = true
    private let start: Int64
    private var marks: [(text: String, at: Int64)] = []
    private let logger: Logger
    private weak var runtime: HUDRuntime?
    private var applying = false
    private var lastStatus: String?
    /// What the last look at the status saw of the controller (see `HUDController.hasMoved(since:)`).
    private var watch = RestWatch()

    /// Follows `runtime` from now on, remembering in `stateDirectory`/boot-duration.
    public init(runtime: HUDRuntime, stateDirectory: String, logger: Logger) {
        path = stateDirectory + "/boot-duration"
        self.logger = logger
        self.runtime = runtime
        start = runtime.now
        previous = Self.load(path, logger: logger)
        runtime.onApplied = { [weak self] request in self?.observe(request) }
        runtime.atTurnEnd { [weak self] in self?.turnEnded() }
        // Started in the initramfs, whose state directory is empty: the record is read again in
        // the real root once the daemon has moved there, as plymouthd reads its boot-duration.
        runtime.whenRootMoves { [weak self] in self?.rootMoved() }
        if previous != nil { scheduleTick() }
    }

    private static func load(_ path: String, logger: Logger) -> Record? {
        do {
            let bytes = try Files.readFile(path, limit: 65536)
            let record = Record(text: String(decoding: bytes, as: UTF8.self))
            if record == nil { logger.notice("boot estimate: \(path) is not a boot-duration file; ignored") }
            return record
        } catch {
            logger.info("boot estimate: no previous boot (\(error))")
            return nil
        }
    }

    private func rootMoved() {
        guard previous == nil else { return }
        previous = Self.load(path, logger: logger)
        if previous != nil { scheduleTick() }
    }

    /// The estimate at `now`: the time since start over last boot's length, or the fraction
    /// remembered for the text shown now when that is further; at most 0.99 until the end.
    public func estimate(at now: Int64, status: String?) -> Double {
        guard let previous else { return 0 }
        let elapsed = Double(now - start) / 1e9
        var value = elapsed / previous.seconds
        if let status, let mark = previous.marks.first(where: { $0.text == status }) { value = max(value, mark.fraction) }
        return min(max(value, shown), 0.99)
    }

    /// Plymouth's progress pause (`plymouth pause-progress`): the estimate holds still.
    public var paused = false

    /// A status that is not the HUD's text (systemd's unit names through Plymouth's `--update`):
    /// remembered like a text, and it moves the estimate.
    public func note(_ status: String) {
        guard let runtime, !status.isEmpty else { return }
        if !marks.contains(where: { $0.text == status }) { marks.append((status, runtime.now)) }
        noted = status
        update()
    }

    private var noted: String?

    private func observe(_ request: Request) {
        guard !applying, active else { return }
        switch request {
        case .progressOver, .progressKeepingStatus, .hud(.progress):
            active = false
            logger.info("boot estimate: a client sends progress itself; the estimate stops")
        default: break
        }
    }

    private func turnEnded() {
        guard let runtime else { return }
        // At rest on the generation last looked at: the status is the same (every turn but a few).
        guard runtime.controller.hasMoved(since: &watch) else { return }
        let status = runtime.controller.isVisible ? runtime.controller.status : nil
        if let status, status != lastStatus {
            lastStatus = status
            if !marks.contains(where: { $0.text == status }) { marks.append((status, runtime.now)) }
            update()
        }
    }

    private func scheduleTick() {
        guard let runtime else { return }
        runtime.schedule(at: runtime.now + 250_000_000) { [weak self] in
            self?.update()
            if self?.active == true { self?.scheduleTick() }
        }
    }

    /// Shows the estimate (while active and the HUD is up), never going backwards.
    private func update() {
        guard let runtime, active, !paused, previous != nil, runtime.controller.isVisible else { return }
        let byText = estimate(at: runtime.now, status: runtime.controller.status)
        let value = max(byText, estimate(at: runtime.now, status: noted))
        guard value > shown + 0.001 else { return }
        shown = value
        applying = true
        runtime.apply(.progressKeepingStatus(Fixed16_16(value)))
        applying = false
    }

    /// This boot's record, as the next boot will read it (`end` in monotonic ns).
    public func record(end: Int64) -> Record {
        let total = max(Double(end - start) / 1e9, 0.001)
        return Record(seconds: total, marks: marks.map { ($0.text, min(Double($0.at - start) / 1e9 / total, 1)) })
    }

    /// Writes this boot's record (temporary file, then rename); a failure is logged, not thrown.
    public func save(end: Int64) {
        let record = record(end: end)
        do {
            if let slash = path.lastIndex(of: "/") { try Files.makeDirectory(String(path[..<slash]), mode: 0o755) }
            try Files.writeAtomically(Array(record.text.utf8), to: path, durable: true)
            logger.info("boot estimate: this boot took \(record.seconds) s; remembered in \(path)")
        } catch {
            logger.info("boot estimate: not remembered (\(error))")
        }
    }
}
