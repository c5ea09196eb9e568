// SPDX-License-Identifier: MIT
// What a request does to the HUD: a command checked (the controller's bounds, the asset policy),
// applied to the scene and drawn; `progress-over`'s ramp started or stopped; the button pressed.
// Refusals are logged at the rate the sender's origin allows. Service verbs (quit) stop the ramp
// and go to the owner, which ends the loop or hands them to its session.
import HUD
import HUDProtocol
import Logging
import Raster

/// What applying a command needs of the runtime.
protocol CommandOwner: AnyObject {
    /// Queues an event the runtime made (the button's press) for this turn's hand-out.
    func post(_ event: HUDEvent)
    /// The origin of the request being applied, for a refusal's log line; nil: this process.
    var applyingOrigin: String? { get }
    /// Serves a service verb (`quit`, psplash's `QUIT`).
    func serve(_ verb: Request) -> RequestOutcome
    /// `deactivate`: the display given up for the next program, under the profile's watchdog.
    func handOverDisplay()
    /// `reactivate`: the display taken back.
    func takeDisplayBack()
    /// `newroot DIR`: the process moved into the real root mounted at DIR.
    func moveRoot(to directory: String) -> RequestOutcome
}

final class CommandApplier {
    private let scene: HUDScene
    private let frames: FrameScheduler
    private let peerLog: LogRateLimiter
    private let clock: () -> Int64
    /// Which files commands may name (AssetPolicy.swift).
    var assets: AssetPolicy
    private let ramp: ProgressRampRunner
    private let logger: Logger
    /// What `--support` made the runtime say already (each said once).
    private var supportNotes: Set<String> = []
    weak var owner: (any CommandOwner)?

    init(scene: HUDScene, frames: FrameScheduler, loop: EventLoop, peerLog: LogRateLimiter, logger: Logger) {
        self.scene = scene; self.frames = frames; self.peerLog = peerLog; self.logger = logger; clock = loop.clock
        assets = AssetPolicy(resources: scene.resources)
        ramp = ProgressRampRunner(loop: loop)
        ramp.target = self
    }

    private var controller: HUDController { scene.controller }

    /// Applies a request now: returns whether it was applied.
    func apply(_ request: Request) -> RequestOutcome {
        switch request {
        case .hud(let command):
            switch command {
            case .show, .progress, .image, .dismiss, .pop, .reset: ramp.stop()
            case .status, .set: break
            }
            return outcome(submit(command))
        case .progressKeepingStatus(let fraction):
            ramp.stop()
            return outcome(submit(.progress(fraction: fraction, status: controller.presentation().status)))
        case .progressOver(let fraction, let seconds):
            let from = min(max(currentProgress ?? 0, 0), 1)
            return ramp.start(ProgressRamp(start: clock(), duration: max(seconds.nanoseconds, 0), from: from, to: min(from + fraction.double, 1)))
        case .pressButton:
            scene.advance(to: clock())
            guard controller.isVisible, let title = controller.presentation().button, !title.isEmpty else {
                return .refused("no button is shown (set a mode and a button title first)")
            }
            owner?.post(HUDEvent(time: scene.clock.now, kind: .buttonPressed, status: title))
            frames.markDirty()
            return .applied
        case .quit, .dismissAndQuit:
            ramp.stop()
            return owner?.serve(request) ?? .refused("nothing serves \(request) here")
        case .deactivate:
            owner?.handOverDisplay()
            return .applied
        case .reactivate:
            owner?.takeDisplayBack()
            return .applied
        case .newRoot(let directory):
            let outcome = owner?.moveRoot(to: directory) ?? .refused("nothing serves \(request) here")
            if case .refused(let why) = outcome { logRefusal(why) }
            return outcome
        }
    }

    /// Stops a running `progress-over` where it is.
    func stopRamp() { ramp.stop() }

    private func outcome(_ refusal: String?) -> RequestOutcome { refusal.map { .refused($0) } ?? .applied }

    /// The progress the HUD shows now (ring, pie, annular, bar), nil for anything else.
    var currentProgress: Double? {
        switch controller.presentation().indicator {
        case .ring(let p), .pie(let p), .annular(let p), .bar(let p): return p.double
        default: return nil
        }
    }

    /// Parses and applies one line; a bad line is logged and returned as the parser's error.
    func submit(_ line: String) -> Result<Void, CommandError> {
        let command: HUDCommand?
        do { command = try CommandParser.parse(line) } catch {
            logRefusal("\(error) in \"\(line)\"")
            return .failure(error)
        }
        if let command { _ = submit(command) }
        return .success(())
    }

    /// Applies `command` now unless the HUD refuses it: then the refusal is logged and returned.
    func submit(_ command: HUDCommand) -> String? {
        if case .set(.maxFramesPerSecond(let n)) = command {
            // The frame scheduler's pace, not the HUD's state.
            frames.maxFramesPerSecond = n.map { min(max($0, 1), CommandParser.maxFramesPerSecond) }
            return nil
        }
        scene.advance(to: clock())
        var command = command
        if let refusal = controller.refusal(of: command) ?? assets.admit(&command) {
            logRefusal(refusal)
            return refusal
        }
        scene.apply(command, at: clock())
        frames.markDirty()
        if case .image(_, _, _, true) = command { noteSupportCode() }
        return nil
    }

    /// An image with `--support` where the profile names no support address, or whose code an
    /// output has no room for: said once each (the image is shown without the code).
    private func noteSupportCode() {
        var notes: [String] = []
        if controller.support == nil {
            notes.append("--support: the board profile names no support address ([updates] support-url); no QR code shown")
        } else {
            let p = controller.presentation()
            for o in scene.outputs {
                guard let layout = scene.renderer(named: o.name)?.layout(for: p) else { continue }
                for case .supportCode(_, let reason) in layout.issues { notes.append("output \(o.name): no support QR code: \(reason)") }
            }
        }
        for note in notes where supportNotes.insert(note).inserted { logger.info("\(note)") }
    }

    /// A refused command's line, at the rate `peerLog` allows its sender.
    private func logRefusal(_ why: String) {
        peerLog.log(.error, "refused requests", from: owner?.applyingOrigin ?? "this process", "command refused: \(why)")
    }
}

extension CommandApplier: ProgressRampTarget {
    func rampProgress(to fraction: Double) -> String? {
        submit(.progress(fraction: Fixed16_16(fraction), status: controller.presentation().status))
    }

    var frameIntervalNanoseconds: Int64 { frames.frameIntervalNanoseconds }
}
