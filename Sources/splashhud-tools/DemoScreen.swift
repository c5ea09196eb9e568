// SPDX-License-Identifier: MIT
// The demo on a real screen: when a DRM card or an fbdev device can be opened (it exists and we
// may open it), `splashhud demo` also plays its update sequence there through HUDRuntime, after
// writing its pictures from the memory framebuffer. The answer says which display was used (and
// how many frames reached it) and why the others were not, one reason per backend. A screen that
// opened but never took a frame (a compositor holds DRM master, so every present fails and is
// retried until the end) did not show the demo, and the answer says so with the last failure.
import Board
import Display
import HUD
import HUDProtocol
import Logging
import Runtime
import Synchronization

enum DemoScreen {
    /// What happened, for the demo's summary.
    struct Outcome {
        /// "drm (Virtual-1 1024x768, 372 frames presented)", or nil when no screen showed the demo.
        var played: String?
        /// "drm: /dev/dri: … no card nodes" per backend that failed, in the order tried; a screen
        /// that opened but presented nothing is one of them.
        var notUsed: [String]
        /// Frames presented on the screen that opened (0 when none opened or none was shown).
        var framesPresented = 0
    }

    /// Tries the profile's screen backends (DRM then fbdev without one); plays `script` for
    /// `duration` seconds on the first that opens.
    static func play(script: [TimedCommand], duration: Double, profile: BoardProfile?, logLevel: Logger.Level = .warning) throws -> Outcome {
        var logger = Logger(label: "splashhud.demo") { StreamLogHandler.standardError(label: $0) }
        // The opener's own lines about failed backends are summarised by the caller instead.
        logger.logLevel = .critical
        var p = profile ?? BoardProfile(file: "(demo)")
        p.backends = p.backends.filter { $0 != .memory }
        if p.backends.isEmpty { p.backends = [.drm, .fbdev] }
        let opened = DisplayOpener(profile: p, logger: logger).open()
        guard opened.backend != .memory else {
            opened.display.close(.restore)
            return Outcome(played: nil, notUsed: opened.failures)
        }
        return try play(on: opened.display, backend: opened.backend.rawValue, failures: opened.failures, script: script,
                        duration: duration, profile: profile, logLevel: logLevel)
    }

    /// Plays `script` on `display` (already open; `backend` names it, `failures` are the backends
    /// tried before it) and closes it. `console` and `catchSignals` are for tests: a real screen
    /// takes the VT and its signals.
    static func play(on display: any Display, backend: String, failures: [String], script: [TimedCommand], duration: Double,
                     profile: BoardProfile?, logLevel: Logger.Level, console: ConsoleMode = .automatic,
                     catchSignals: Bool = true) throws -> Outcome {
        let failure = PresentFailureLog.Box()
        var logger = Logger(label: "splashhud.demo") { PresentFailureLog(box: failure, forward: StreamLogHandler.standardError(label: $0)) }
        logger.logLevel = logLevel
        let outputs = display.outputs.map { "\($0.name) \($0.mode.width)x\($0.mode.height)" }.joined(separator: ", ")
        let runtime: HUDRuntime
        do { runtime = try HUDRuntime(display: display, profile: profile, console: console, logger: logger) } catch {
            display.close(.restore)
            return Outcome(played: nil, notUsed: failures + ["\(backend): \(error)"])
        }
        let session = try SplashSession(runtime: runtime, script: script, duration: duration, fifoPath: nil, fifoMode: CommandFIFO.ownerOnly,
                                        retain: false, catchSignals: catchSignals, logger: logger)
        let end = try session.run()
        if let signal = end.signal { ConsoleSignals.die(of: signal) }
        let frames = runtime.counters.framesPresented
        guard frames > 0 else {
            let why = failure.last.withLock { $0 } ?? "no present succeeded"
            return Outcome(played: nil, notUsed: failures + ["\(backend) (\(outputs)): opened, but the demo was NOT shown (0 frames presented): \(why)"])
        }
        return Outcome(played: "\(backend) (\(outputs), \(frames) frame\(frames == 1 ? "" : "s") presented)", notUsed: failures,
                       framesPresented: frames)
    }
}

/// Passes log lines on at the caller's level and keeps the last present failure, which the frame
/// frame scheduler logs at info (once per failing output, not per retry) whatever level the demo shows.
struct PresentFailureLog: LogHandler {
    final class Box: Sendable {
        /// "output 0 (Virtual-1): present failed: …", the scheduler's line.
        let last = Mutex<String?>(nil)
    }

    let box: Box
    var forward: StreamLogHandler

    var metadata: Logger.Metadata {
        get { forward.metadata }
        set { forward.metadata = newValue }
    }
    var metadataProvider: Logger.MetadataProvider? {
        get { forward.metadataProvider }
        set { forward.metadataProvider = newValue }
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { forward[metadataKey: key] }
        set { forward[metadataKey: key] = newValue }
    }
    /// Info at least, so the scheduler's failure lines arrive; what is printed follows the level set.
    var logLevel: Logger.Level {
        get { min(forward.logLevel, .info) }
        set { forward.logLevel = newValue }
    }

    func log(event: LogEvent) {
        let text = "\(event.message)"
        if text.contains("present failed: ") { box.last.withLock { $0 = text } }
        if event.level >= forward.logLevel { forward.log(event: event) }
    }
}
