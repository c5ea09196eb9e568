// One run of the HUD as a service (`splashhud show`, and the demo on a real screen): a HUDRuntime
// plus what feeds it - the command FIFO, a timed script, a duration - and how it ends: psplash's
// QUIT / fbsplash's exit (the HUD's fade-out plays first), `quit [--retain]`, SIGTERM/SIGINT, the
// end of --duration. Everything runs on the runtime's loop thread: the FIFO, the service timer and
// the signal pipe are descriptors the loop watches.
import Display
import HUD
import HUDProtocol
import Logging
import Runtime

final class ShowSession {
    struct Ending {
        var retain: Bool
        var reason: String
        /// The signal that ended us: die of it after cleaning up (status 128+n, as the parent expects).
        var signal: Int32?
    }

    let runtime: HUDRuntime
    let logger: Logger
    let clock: () -> Int64
    let start: Int64
    let retain: Bool
    private let script: [TimedCommand]
    private var nextCommand = 0
    private let stopAt: Int64?
    private(set) var fifo: CommandFIFO?
    private let timer: ServiceTimer
    let recorder: ShowRecorder?
    /// After QUIT: the latest instant the fade-out may take before we end anyway.
    private var quitDeadline: Int64?
    private(set) var ending: Ending?
    /// Lines refused by the parser or the FIFO (for tests and the exit summary).
    private(set) var refusedLines = 0

    /// Poll interval while a QUIT's fade-out plays (the pacer sleeps without timeout once the HUD
    /// is hidden, so something must look again).
    static let quitPollNanoseconds: Int64 = 50_000_000
    /// The longest a QUIT waits for the fade-out.
    static let quitGraceNanoseconds: Int64 = 2_000_000_000

    init(runtime: HUDRuntime, script: [TimedCommand], duration: Double?, fifoPath: String?, fifoMode: UInt32,
         retain: Bool, recorder: ShowRecorder?, catchSignals: Bool = true, logger: Logger,
         clock: @escaping () -> Int64 = FramePacer.monotonicNanoseconds) throws {
        self.runtime = runtime; self.script = script; self.retain = retain; self.recorder = recorder
        self.logger = logger; self.clock = clock
        let now = clock()
        start = now
        stopAt = duration.map { now + Int64(($0 * 1e9).rounded()) }
        timer = try ServiceTimer()
        // Everything that can fail comes first: a throwing init must leave no handler behind in
        // the runtime (it would fire for a closed descriptor).
        // SIGTERM/SIGINT reach us through the runtime's onTermination (so the FIFO is removed and
        // --retain honoured); it catches them on a real screen, and on memory when asked. Before
        // the FIFO exists: a writer may take the FIFO as the sign we are up and signal us at once.
        if catchSignals { try runtime.catchTerminationSignals() }
        if let fifoPath {
            fifo = try CommandFIFO(path: fifoPath, mode: fifoMode) { [unowned self] in self.input($0) }
        }
        runtime.onTermination = { [unowned self] n in
            if ending == nil { ending = Ending(retain: self.retain, reason: "signal \(n)", signal: n) }
        }
        runtime.watch(timer.descriptor) { [unowned self] _ in
            do { try timer.acknowledge() } catch { self.logger.error("\(error)") }
        }
        if let fifo {
            runtime.watch(fifo.descriptor.rawValue) { [unowned self] _ in
                do { try self.fifo?.drain() } catch { self.logger.error("\(error)") }
            }
            logger.info("reading commands from \(fifo.path)\(fifo.created ? "" : " (existing FIFO)")")
        }
        if !runtime.display.showsOnRealScreen {
            // Its virtual vblank stamps count from 0, not CLOCK_MONOTONIC: pace by the timer.
            runtime.pacer.pacing = .timer
        }
    }

    /// Runs until an ending; returns it (the runtime has quit, the FIFO is closed). Display errors
    /// end the run too (after cleaning up) and are thrown.
    func run() throws -> Ending {
        _ = turn()
        do {
            if ending == nil { try runtime.run(until: { [unowned self] in turn() }) }
        } catch {
            logger.error("display failed: \(error)")
            finish(Ending(retain: false, reason: "display error", signal: nil))
            throw error
        }
        let end = ending ?? Ending(retain: retain, reason: "runtime finished", signal: nil)
        finish(end)
        return end
    }

    private func finish(_ end: Ending) {
        let now = clock()
        if let recorder {
            do {
                for line in try recorder.finish(at: now, events: runtime.controller.events) { logger.notice("wrote \(line)") }
            } catch { logger.error("--out \(recorder.directory): \(error)") }
        }
        if let fifo { runtime.unwatch(fifo.descriptor.rawValue); fifo.close() }
        fifo = nil
        runtime.unwatch(timer.descriptor)
        runtime.quit(retain: end.retain)
        logger.info("ended: \(end.reason) (\(runtime.pacer.framesPresented) frames presented, \(runtime.pacer.missedFrames) refresh boundaries missed)")
    }

    /// After every wake of the loop: record, run due script commands, check every way to end,
    /// arm the timer for the next thing due. True to stop.
    private func turn() -> Bool {
        let now = clock()
        if let recorder {
            do { try recorder.capture(at: now) } catch { logger.error("--out: \(error)") }
        }
        while nextCommand < script.count && start + script[nextCommand].time.nanoseconds <= now {
            runtime.submit(script[nextCommand].command)
            nextCommand += 1
        }
        if ending == nil, let quitDeadline {
            // Hidden, and nothing more scheduled (the did-disappear event has been posted).
            if runtime.controller.presentation().isHidden && runtime.controller.nextEventTime() == nil {
                ending = Ending(retain: retain, reason: "QUIT (after the fade-out)", signal: nil)
            } else if now >= quitDeadline {
                ending = Ending(retain: retain, reason: "QUIT (fade-out cut short)", signal: nil)
            }
        }
        if ending == nil, let stopAt, now >= stopAt {
            ending = Ending(retain: retain, reason: "--duration reached", signal: nil)
        }
        if ending != nil { return true }
        var due: [Int64] = []
        if nextCommand < script.count { due.append(start + script[nextCommand].time.nanoseconds) }
        if let stopAt { due.append(stopAt) }
        if let quitDeadline { due.append(min(quitDeadline, now + Self.quitPollNanoseconds)) }
        do { try timer.arm(at: due.min()) } catch { logger.error("\(error)") }
        return false
    }

    /// A line from the FIFO (or why one was dropped).
    func input(_ result: Result<String, CommandFIFOError>) {
        switch result {
        case .failure(let e):
            refusedLines += 1
            logger.error("FIFO: \(e)")
        case .success(let line):
            logger.debug("FIFO: \(line)")
            let request: Request?
            do { request = try CommandParser.parseRequest(line) } catch {
                refusedLines += 1
                logger.error("command refused: \(error) in \"\(line)\"")
                return
            }
            switch request {
            case .quit(let keep)?:
                ending = Ending(retain: retain || keep, reason: "quit\(keep ? " --retain" : "") from the FIFO", signal: nil)
                runtime.pacer.markDirty()
            case .dismissAndQuit?:
                runtime.submit(.dismiss(delay: .zero))
                if quitDeadline == nil { quitDeadline = clock() + Self.quitGraceNanoseconds }
            case .hud(let command)?:
                runtime.submit(command)
            case nil:
                break
            }
        }
    }
}
