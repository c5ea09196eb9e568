// SPDX-License-Identifier: MIT
// The runtime's console: the VT taken into graphics mode (with the first output when there is
// none yet), VT switches and termination signals followed, the screen restored before dying.

import Display
import Logging

extension HUDRuntime {
    /// Takes the VT (graphics mode, VT switches by signal) and, for any real screen, catches
    /// SIGTERM/SIGINT/SIGHUP so the screen and the VT are restored before the process dies.
    func takeConsole(_ mode: ConsoleMode) {
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
        pendingConsole = console
        logger.info("console \(console.device): graphics mode once the first output opens")
        loop.addTurnStep { [unowned self] in
            guard let pending = pendingConsole, !display.outputs.isEmpty, !isFinished else { return }
            pendingConsole = nil
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

    /// Catches SIGTERM/SIGINT/SIGHUP where the runtime did not already (the memory display, or a
    /// console mode of `.off`), so `onTermination` hears of them on every display. Until `quit`.
    public func catchTerminationSignals() throws(DisplayError) {
        guard consoleSignals == nil, !isFinished else { return }
        try follow(try ConsoleSignals())
    }

    private func follow(_ signals: ConsoleSignals) throws(DisplayError) {
        do { try watch(signals.descriptor.rawValue) { [unowned self] _ in self.handleConsoleSignals() } } catch {
            throw .unsupported("the event loop", "cannot watch the signal pipe: \(error)")
        }
        consoleSignals = signals
    }

    private func handleConsoleSignals() {
        guard let signals = consoleSignals else { return }
        while true {
            let signal: ConsoleSignal?
            do { signal = try signals.wait(timeoutMilliseconds: 0) } catch {
                logger.error("console signals: \(error)")
                return
            }
            guard let signal else { return }
            guard let console else {
                // No VT: only termination matters (release/acquire are never asked for).
                if case .terminate(let number) = signal { terminated(by: number) }
                continue
            }
            let outcome: Console.Outcome
            do {
                outcome = try console.handle(signal, onRelease: { [unowned self] in
                    frames.isPaused = true
                    // Only KMS has a master to give up; fbdev and memory have nothing to release.
                    do { try display.releaseMaster() } catch { logger.warning("releasing DRM master: \(error)") }
                }, onAcquire: { [unowned self] in
                    scene.redrawAll()
                    frames.isPaused = false
                    frames.markDirty()
                })
            } catch {
                logger.error("VT switch: \(error)")
                continue
            }
            if case .terminate(let number) = outcome { terminated(by: number) }
        }
    }

    private func terminated(by number: Int32) {
        if let onTermination {
            logger.info("signal \(number): ending")
            onTermination(number)
        } else {
            terminate(by: number)
        }
    }

    /// SIGTERM and friends: the screen and the VT restored, then death by the same signal.
    private func terminate(by number: Int32) -> Never {
        logger.info("terminated by signal \(number)")
        quit(retain: false)
        ConsoleSignals.die(of: number)
    }
}
