// SPDX-License-Identifier: MIT
// The runtime's console: the VT taken into graphics mode (with the first output when there is none
// yet), VT switches and termination signals followed, and given back at the end. What a switch or a
// termination does to the HUD is its owner's (`ConsoleOwner`, the runtime).
import Display
import Logging

/// Whether and how the runtime takes the virtual terminal.
public enum ConsoleMode: Equatable, Sendable {
    /// Take stdin's VT, else the foreground VT (/dev/tty0), unless the display is memory or no
    /// VT can be opened (then run without, logging why).
    case automatic
    /// Never touch a VT (tests, a display on a card without a console).
    case off
    /// This VT device, e.g. "/dev/tty1"; failing to open it is logged and the HUD runs without.
    case device(String)
}

/// What the console tells the runtime.
protocol ConsoleOwner: AnyObject {
    /// True once the HUD has quit.
    var isFinished: Bool { get }
    /// The VT was switched away: stop drawing and give the display up.
    func consoleReleased()
    /// The VT came back: draw everything again.
    func consoleAcquired()
    /// SIGTERM, SIGINT or SIGHUP arrived.
    func terminated(by signal: Int32)
}

final class ConsoleKeeper {
    /// The VT in graphics mode, when one was taken.
    private(set) var console: Console?
    /// The VT opened while there was no output yet (waiting for the display's driver), taken
    /// once the first output opens.
    private(set) var pending: Console?
    /// The signal self-pipe that follows VT switches and termination: one per process.
    private(set) var signals: ConsoleSignals?
    private let display: any Display
    private unowned let loop: EventLoop
    private let logger: Logger
    weak var owner: (any ConsoleOwner)?

    init(display: any Display, loop: EventLoop, logger: Logger) {
        self.display = display; self.loop = loop; self.logger = logger
    }

    /// Takes the VT (graphics mode, VT switches by signal) and, for any real screen, catches
    /// SIGTERM/SIGINT/SIGHUP so the screen and the VT are restored before the process dies.
    func take(_ mode: ConsoleMode) {
        let memory = !display.showsOnRealScreen
        if mode == .off || (memory && mode == .automatic) { return }
        let candidates: [String?]
        if case .device(let path) = mode { candidates = [path] } else { candidates = ["/proc/self/fd/0", nil] }
        var opened: Console?
        for path in candidates {
            do { opened = try Console.open(path: path); break } catch {
                logger.debug("no VT at \(path ?? "/dev/tty0's foreground VT"): \(error)")
            }
        }
        if opened == nil && mode != .automatic {
            logger.error("cannot open the VT \(candidates.compactMap { $0 }.joined()); running without console")
        }
        if opened == nil && memory { return }
        let signals: ConsoleSignals
        do { signals = try ConsoleSignals() } catch {
            logger.error("cannot catch termination and VT signals: \(error); running without console")
            return
        }
        do { try follow(signals) } catch {
            logger.error("\(error); running without console")
            return
        }
        guard let console = opened else { return }
        guard display.outputs.isEmpty else { return enterGraphics(console, signals) }
        // No screen yet: a driver that loads while the VT is in graphics mode leaves the console
        // black when text mode comes back, so the VT is taken with the first output (in the turn
        // its hotplug is handled, before its first frame).
        pending = console
        logger.info("console \(console.device): graphics mode once the first output opens")
        loop.addTurnStep { [unowned self] in
            guard let pending, !display.outputs.isEmpty, owner?.isFinished == false else { return }
            self.pending = nil
            enterGraphics(pending, signals)
        }
    }

    private func enterGraphics(_ console: Console, _ signals: ConsoleSignals) {
        do {
            try console.enterGraphics(releaseSignal: signals.releaseSignal, acquireSignal: signals.acquireSignal)
            self.console = console
            logger.info("console \(console.device) in graphics mode")
        } catch {
            console.restore()
            logger.error("cannot take the VT \(console.device): \(error); running without console")
        }
    }

    /// Catches SIGTERM/SIGINT/SIGHUP where `take` did not already (the memory display, or a console
    /// mode of `.off`), so the owner hears of them on every display.
    func catchTerminationSignals() throws(DisplayError) {
        guard signals == nil else { return }
        try follow(try ConsoleSignals())
    }

    private func follow(_ signals: ConsoleSignals) throws(DisplayError) {
        do {
            try loop.watch(signals.descriptor.rawValue, interest: .read) { [unowned self] _ in handleSignals() }
        } catch {
            throw .unsupported("the event loop", "cannot watch the signal pipe: \(error)")
        }
        self.signals = signals
    }

    private func handleSignals() {
        guard let signals else { return }
        while true {
            let signal: ConsoleSignal?
            do { signal = try signals.wait(timeoutMilliseconds: 0) } catch {
                logger.error("console signals: \(error)")
                return
            }
            guard let signal else { return }
            guard let console else {
                // No VT: only termination matters (release/acquire are never asked for).
                if case .terminate(let number) = signal { owner?.terminated(by: number) }
                continue
            }
            let outcome: Console.Outcome
            do {
                outcome = try console.handle(signal, onRelease: { [unowned self] in owner?.consoleReleased() },
                                             onAcquire: { [unowned self] in owner?.consoleAcquired() })
            } catch {
                logger.error("VT switch: \(error)")
                continue
            }
            if case .terminate(let number) = outcome { owner?.terminated(by: number) }
        }
    }

    /// Gives the VT back (text mode; `retain` keeps the last picture on it) and stops following
    /// signals.
    func giveBack(retain: Bool) {
        if let console {
            console.restore(keepingPicture: retain)
            for line in console.diagnostics { logger.warning("console: \(line)") }
        }
        pending?.restore()
        if let fd = signals?.descriptor.rawValue { loop.unwatch(fd) }
        console = nil
        pending = nil
        signals = nil
    }
}
