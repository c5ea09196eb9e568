// SPDX-License-Identifier: MIT
// One run of the HUD as a splash (`splashhudd`, the demo on a real screen): a HUDRuntime plus
// what feeds it - the command FIFO, a timed script, a duration - and how it ends: psplash's QUIT /
// fbsplash's exit (the HUD's fade-out plays first), `quit [--retain]`, SIGTERM/SIGINT, the end of
// the duration. Everything runs on the runtime's loop: the FIFO and the signal pipe are descriptors
// it watches, the script and the duration are its timers, and every line read from the FIFO is a
// request queued in the runtime's inbox like any other transport's.
import Display
import HUD
import HUDProtocol
import Logging

public final class SplashSession {
    public struct Ending: Equatable, Sendable {
        public var retain: Bool
        public var reason: String
        /// The signal that ended us: die of it after cleaning up (status 128+n, as the parent expects).
        public var signal: Int32?

        public init(retain: Bool, reason: String, signal: Int32?) {
            self.retain = retain; self.reason = reason; self.signal = signal
        }
    }

    public let runtime: HUDRuntime
    public let logger: Logger
    public let start: Int64
    public let retain: Bool
    /// The command FIFOs read (the first is `fifo`): ours, psplash's, fbsplash's.
    public private(set) var fifos: [CommandFIFO] = []
    public var fifo: CommandFIFO? { fifos.first }
    public private(set) var ending: Ending?
    /// Lines refused by the parser or the FIFO (for tests and the exit summary).
    public private(set) var refusedLines = 0
    /// Runs once the session has ended, before the runtime quits (the screen is still as it was):
    /// a recorder writes its files here.
    public var onFinish: ((Ending) -> Void)?
    /// More of the same, run after `onFinish` in the order added (the control socket closes here).
    private var finishSteps: [(Ending) -> Void] = []
    /// The CPU the process has used (nanoseconds), said in the ending's line: what a splash cost
    /// its boot, as systemd says "Consumed" for a unit (the initramfs's daemon is no unit).
    public var cpuClock: (() -> Int64)?

    private let clock: () -> Int64
    private let script: [TimedCommand]
    private var nextCommand = 0
    /// After QUIT: the latest instant the fade-out may take before we end anyway.
    private var quitDeadline: Int64?

    /// The longest a QUIT waits for the fade-out.
    public static let quitGraceNanoseconds: Int64 = 2_000_000_000

    /// Starts a session on `runtime`: the FIFO at `fifoPath` (nil: none) made with `fifoMode`, the
    /// `script` from now, an end after `duration` seconds (nil: none), SIGTERM/SIGINT caught when
    /// `catchSignals`. `retain` keeps the last frame on the screen at every ending.
    public convenience init(runtime: HUDRuntime, script: [TimedCommand], duration: Double?, fifoPath: String?, fifoMode: UInt32,
                            retain: Bool, catchSignals: Bool = true, logger: Logger) throws {
        try self.init(runtime: runtime, script: script, duration: duration, fifoPaths: fifoPath.map { [$0] } ?? [],
                      fifoMode: fifoMode, retain: retain, catchSignals: catchSignals, logger: logger)
    }

    /// The same with every FIFO in `fifoPaths` read (each line from any of them is a request).
    public init(runtime: HUDRuntime, script: [TimedCommand], duration: Double?, fifoPaths: [String], fifoMode: UInt32,
                retain: Bool, catchSignals: Bool = true, logger: Logger) throws {
        self.runtime = runtime; self.script = script; self.retain = retain; self.logger = logger
        clock = runtime.clock
        let now = clock()
        start = now
        // Everything that can fail comes first: a throwing init must leave no handler behind in
        // the runtime (it would fire for a closed descriptor).
        // SIGTERM/SIGINT reach us through the runtime's onTermination (so the FIFO is removed and
        // retain honoured); it catches them on a real screen, and on memory when asked. Before
        // the FIFO exists: a writer may take the FIFO as the sign we are up and signal us at once.
        if catchSignals { try runtime.catchTerminationSignals() }
        for fifoPath in fifoPaths {
            let fifo: CommandFIFO
            do { fifo = try CommandFIFO(path: fifoPath, mode: fifoMode) { [unowned self] in self.input($0, from: fifoPath) } } catch {
                closeFIFOs()
                throw error
            }
            fifos.append(fifo)
            do {
                try runtime.watch(fifo.descriptor.rawValue) { [unowned self, unowned fifo] _ in
                    do { try fifo.drain() } catch { self.runtime.peerLog.log(.error, "read errors", from: "the FIFO \(fifo.path)", "\(error)") }
                }
            } catch {
                closeFIFOs()
                throw error
            }
            logger.info("reading commands from \(fifo.path)\(fifo.created ? "" : " (existing FIFO)")")
        }
        runtime.onTermination = { [unowned self] n in
            end(Ending(retain: self.retain, reason: "signal \(n)", signal: n))
        }
        runtime.onServiceRequest = { [unowned self] in service($0) }
        runtime.atTurnEnd { [unowned self] in checkFadeOut() }
        if let duration {
            runtime.schedule(at: now + Int64((duration * 1e9).rounded())) { [unowned self] in
                end(Ending(retain: self.retain, reason: "--duration reached", signal: nil))
            }
        }
        scheduleScript()
        if !runtime.showsOnRealScreen {
            // Its virtual vblank stamps are made up: pace by the timer.
            runtime.pacing = .timer
        }
    }

    /// Runs until an ending; returns it (the runtime has quit, the FIFO is closed). Display errors
    /// end the run too (after cleaning up) and are thrown.
    public func run() throws -> Ending {
        do {
            if ending == nil { try runtime.run(until: { [unowned self] in ending != nil }) }
        } catch {
            logger.error("display failed: \(error)")
            finish(Ending(retain: false, reason: "display error", signal: nil))
            throw error
        }
        let end = ending ?? Ending(retain: retain, reason: "runtime finished", signal: nil)
        finish(end)
        return end
    }

    private func end(_ e: Ending) {
        if ending == nil { ending = e }
    }

    /// Runs `step` when the session ends, before the runtime quits (after `onFinish`).
    public func addFinishStep(_ step: @escaping (Ending) -> Void) { finishSteps.append(step) }

    private func closeFIFOs() {
        for fifo in fifos { runtime.unwatch(fifo.descriptor.rawValue); fifo.close() }
        fifos = []
    }

    private func finish(_ end: Ending) {
        onFinish?(end)
        for step in finishSteps { step(end) }
        closeFIFOs()
        runtime.quit(retain: end.retain)
        let counters = runtime.counters
        let cpu = cpuClock.map { ", \(StartupTimeline.ms($0())) CPU" } ?? ""
        logger.notice("ended: \(end.reason) after \(StartupTimeline.ms(clock() - start))\(cpu) (\(counters.framesPresented) frames presented, \(counters.missedFrames) refresh boundaries missed)")
    }

    /// Queues the script's commands due now and schedules the next one on the loop.
    private func scheduleScript() {
        let now = clock()
        while nextCommand < script.count && start + script[nextCommand].time.nanoseconds <= now {
            runtime.post(.hud(script[nextCommand].command))
            nextCommand += 1
        }
        guard nextCommand < script.count else { return }
        runtime.schedule(at: start + script[nextCommand].time.nanoseconds) { [unowned self] in scheduleScript() }
    }

    /// After every frame: a QUIT ends once the HUD is hidden and nothing more is scheduled (the
    /// did-disappear event has been posted), or when its grace period is over.
    private func checkFadeOut() {
        guard ending == nil, let quitDeadline else { return }
        if runtime.controller.presentation().isHidden && runtime.controller.nextEventTime() == nil {
            end(Ending(retain: retain, reason: "QUIT (after the fade-out)", signal: nil))
        } else if clock() >= quitDeadline {
            end(Ending(retain: retain, reason: "QUIT (fade-out cut short)", signal: nil))
        }
    }

    private func service(_ request: Request) {
        switch request {
        case .quit(let keep):
            end(Ending(retain: retain || keep, reason: "quit\(keep ? " --retain" : "")", signal: nil))
        case .dismissAndQuit:
            runtime.submit(.dismiss(delay: .zero))
            guard quitDeadline == nil else { return }
            let deadline = clock() + Self.quitGraceNanoseconds
            quitDeadline = deadline
            runtime.schedule(at: deadline) { [unowned self] in checkFadeOut() }
        case .hud, .progressKeepingStatus, .progressOver, .pressButton, .deactivate, .reactivate, .newRoot:
            runtime.apply(request)
        }
    }

    /// A line from the FIFO at `path` (or why one was dropped): refused at once when it does not
    /// parse, else queued like a request from any other transport. A FIFO has no peer to tell
    /// apart (whoever may write it writes as one), so its lines are logged at a bounded rate per
    /// FIFO (`peerLog`).
    func input(_ result: Result<String, CommandFIFOError>, from path: String = "") {
        let origin = "the FIFO \(path)"
        switch result {
        case .failure(let e):
            refusedLines += 1
            runtime.peerLog.log(.error, "bad words", from: origin, "FIFO \(path): \(e)")
        case .success(let line):
            runtime.peerLog.log(.debug, "lines", from: origin, "FIFO \(path): \(line)")
            do {
                if let request = try CommandParser.parseRequest(line) { runtime.enqueue(request, from: origin) }
            } catch {
                refusedLines += 1
                runtime.peerLog.log(.error, "bad words", from: origin, "command refused: \(error) in \"\(line)\"")
            }
        }
    }
}
