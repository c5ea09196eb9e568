// SPDX-License-Identifier: MIT
// The Swift API's HUD on a display the program owns: the same runtime, loop and queue as the
// daemon's, with the loop on a thread of its own. Any thread posts requests (they reach the loop's
// inbox, in order); the loop answers each, publishes the state after every turn, calls the
// `whenHidden` completions once the HUD is gone and feeds the event streams.
//
//     let hud = try LocalHUD(display: .memory(width: 800, height: 480))
//     SplashHUD.use(hud)
//     SplashHUD.show(status: "Working")
import Board
import Dispatch
import Display
import HUDClient
import HUDProtocol
import LinuxSystem
import Logging
import Runtime

/// The HUD on a display this program owns: the daemon's runtime, loop and queue, the loop on a
/// thread of its own.
///
/// Any thread posts requests (they reach the loop's inbox, in order); the loop answers each,
/// publishes the state after every turn, calls the ``whenHidden(_:)`` completions once the HUD is
/// gone and feeds the ``events()`` streams. Hand it to `SplashHUD.use(_:)` or `ProgressHUD`.
public final class LocalHUD: HUDConnection, @unchecked Sendable {
    /// Which screen to take.
    public enum Screen: Sendable {
        /// The best one: the profile's backends, else DRM then fbdev, memory when none opens. On a
        /// real screen the touchscreens, pointers and keyboards the profile's `[input]` names (all,
        /// by default) are read too: touches and keys reach `events()` and ProgressHUD's button.
        case automatic(profile: String?)
        /// An off-screen framebuffer (tests, headless rendering).
        case memory(width: Int32, height: Int32)
    }

    /// Set once on the loop thread before `init` returns; afterwards only `post` (thread-safe) is
    /// used from other threads.
    private var runtime: HUDRuntime!
    /// The input devices, on a real screen (owned by the loop thread).
    private var input: InputHub?
    private let lock = Lock()
    /// Guarded by `lock`.
    private var published: HUDState
    private var hiddenWaiters: [@Sendable () -> Void] = []
    private var streams: [Int: AsyncStream<HUDEvent>.Continuation] = [:]
    private var nextStream = 0
    private var finished = false

    /// Opens `screen` and starts the HUD's loop on its own thread. Throws when the profile or the
    /// runtime cannot be set up (a memory display always opens).
    public init(display screen: Screen, logger: Logger = Logger(label: "splashhud.local")) throws {
        published = HUDState(visible: false, mode: "hidden", progress: nil, status: nil, outputs: [])
        let ready = DispatchSemaphore(value: 0)
        let failure = Box()
        let started = Threads.detach { [self] in
            do {
                let display: any Display
                var profile: BoardProfile?
                switch screen {
                case .memory(let w, let h): display = MemoryDisplay(width: w, height: h)
                case .automatic(let name):
                    profile = try name.map { n in try ProfileLocator.load(n) }
                    display = DisplayOpener(profile: profile, logger: logger).open().display
                }
                let runtime = try HUDRuntime(display: display, profile: profile, console: .off, logger: logger)
                if !display.showsOnRealScreen { runtime.pacing = .timer }
                runtime.addEventListener { [unowned self] events in
                    let targets = lock.withLock { Array(streams.values) }
                    for e in events { for s in targets { s.yield(e) } }
                }
                runtime.atTurnEnd { [unowned self, unowned runtime] in publish(runtime) }
                if display.showsOnRealScreen { input = InputHub(runtime: runtime, configuration: InputConfiguration(profile: profile)) }
                self.runtime = runtime
                publish(runtime)
            } catch {
                failure.error = error
            }
            ready.signal()
            guard failure.error == nil else { return }
            do { try runtime.run() } catch { logger.error("the HUD's loop failed: \(error)") }
            input?.close()
            finish()
        }
        guard started else { throw ControlClientError.io("cannot start the HUD's thread") }
        ready.wait()
        if let error = failure.error { throw error }
    }

    final class Box: @unchecked Sendable { var error: (any Error)? }

    /// Ends the HUD's loop and gives the screen back (or keeps the last frame).
    public func quit(retain: Bool = false) { runtime.post(.quit(retain: retain)) }

    /// Queues `request` for the HUD's loop; never blocks. `completion` (on the loop's thread) hears
    /// whether it was applied, or that the HUD has quit.
    public func post(_ request: Request, completion: (@Sendable (Result<Void, ControlClientError>) -> Void)?) {
        if lock.withLock({ finished }) {
            completion?(.failure(.notRunning(socket: "the local HUD", detail: "it has quit")))
            return
        }
        runtime.post(request) { outcome in
            switch outcome {
            case .applied: completion?(.success(()))
            case .refused(let why): completion?(.failure(.rejected(code: ControlErrorCode.refused.rawValue, message: why)))
            }
        }
    }

    /// The HUD as the loop published it after its last turn; never blocks.
    public func state() throws(ControlClientError) -> HUDState { lock.withLock { published } }

    /// Calls `completion` once the HUD is hidden (at once when it is, or has quit).
    public func whenHidden(_ completion: @escaping @Sendable () -> Void) {
        let now = lock.withLock { () -> Bool in
            if finished || published.mode == "hidden" { return true }
            hiddenWaiters.append(completion)
            return false
        }
        if now { completion() }
    }

    /// The HUD's events from now on, until the HUD quits or the stream is dropped.
    public func events() -> AsyncStream<HUDEvent> {
        AsyncStream { continuation in
            let id = lock.withLock { () -> Int? in
                guard !finished else { return nil }
                nextStream += 1
                streams[nextStream] = continuation
                return nextStream
            }
            guard let id else { continuation.finish(); return }
            continuation.onTermination = { [weak self] _ in self?.lock.withLock { _ = self?.streams.removeValue(forKey: id) } }
        }
    }

    /// After every turn, on the loop's thread.
    private func publish(_ runtime: HUDRuntime) {
        let state = runtime.state()
        let hidden = runtime.isHidden
        let waiters = lock.withLock { () -> [@Sendable () -> Void] in
            published = state
            guard hidden else { return [] }
            defer { hiddenWaiters = [] }
            return hiddenWaiters
        }
        for w in waiters { w() }
    }

    private func finish() {
        let (waiters, ends) = lock.withLock { () -> ([@Sendable () -> Void], [AsyncStream<HUDEvent>.Continuation]) in
            finished = true
            defer { hiddenWaiters = []; streams = [:] }
            return (hiddenWaiters, Array(streams.values))
        }
        for w in waiters { w() }
        for s in ends { s.finish() }
    }
}
