// The demo on a real screen: when a DRM card or an fbdev device can be opened (it exists and we
// may open it), `splashhud demo` also plays its update sequence there through HUDRuntime, after
// writing its pictures from the memory framebuffer. The answer says which display was used and
// why the others were not, one reason per backend.
import Display
import HUD
import Logging
import Runtime

enum DemoScreen {
    /// What happened, for the demo's summary.
    struct Outcome {
        /// "drm (Virtual-1 1024x768)" or nil when no screen opened.
        var played: String?
        /// "drm: /dev/dri: … no card nodes" per backend that failed, in the order tried.
        var notUsed: [String]
    }

    /// Tries the profile's screen backends (DRM then fbdev without one); plays `script` for
    /// `duration` seconds on the first that opens.
    static func play(script: [TimedCommand], duration: Double, profile: BoardProfile?, logLevel: Logger.Level = .warning) throws -> Outcome {
        var logger = Logger(label: "splashhud.demo") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = logLevel
        // The opener's own lines about failed backends are summarised by the caller instead.
        var quiet = logger
        quiet.logLevel = .critical
        var p = profile ?? BoardProfile(file: "(demo)")
        p.backends = p.backends.filter { $0 != .memory }
        if p.backends.isEmpty { p.backends = [.drm, .fbdev] }
        let opened = DisplayOpener(profile: p, logger: quiet).open()
        guard opened.backend != .memory else {
            opened.display.close(.restore)
            return Outcome(played: nil, notUsed: opened.failures)
        }
        let outputs = opened.display.outputs.map { "\($0.name) \($0.mode.width)x\($0.mode.height)" }.joined(separator: ", ")
        let runtime: HUDRuntime
        do { runtime = try HUDRuntime(display: opened.display, profile: profile, logger: logger) } catch {
            opened.display.close(.restore)
            return Outcome(played: nil, notUsed: opened.failures + ["\(opened.backend.rawValue): \(error)"])
        }
        let session = try ShowSession(runtime: runtime, script: script, duration: duration, fifoPath: nil, fifoMode: CommandFIFO.ownerOnly,
                                      retain: false, recorder: nil, logger: logger)
        let end = try session.run()
        if let signal = end.signal { ConsoleSignals.die(of: signal) }
        return Outcome(played: "\(opened.backend.rawValue) (\(outputs))", notUsed: opened.failures)
    }
}
