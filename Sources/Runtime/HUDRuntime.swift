// SPDX-License-Identifier: MIT
// The HUD running on a display: a board profile's settings applied, one HUDScene mirrored on every
// output, the event loop that owns every descriptor, the frame scheduler deciding when a frame is
// due, hotplug followed, and the VT in graphics mode while it runs.
//
// A request travels one way: a transport hands it to the runtime - `post` from any thread queues it
// in `inbox`, `enqueue` from the loop's own transports (the socket, the FIFO); the loop takes every
// queued request in order at its next turn, drops progress values a later one in the same turn
// replaces, and applies the rest (`apply`): a HUD command changes the controller's state and marks
// the scene dirty; a service verb goes to `onServiceRequest` (the session). Whoever asked hears
// what became of its request. The frame scheduler then draws at most one frame, and the turn ends
// by handing the HUD's new events to the listeners. `quit` ends the loop and gives the screen back
// (or retains the last frame) and the console its text mode.
//
// The runtime is a façade over parts with one job each, which talk back to it through narrow
// protocols: RequestPipeline (queues, coalescing), CommandApplier (what a request does to the HUD,
// with AssetPolicy's confinement and the progress ramp), InputResponder (touches, keys, key
// watches), ConsoleKeeper (the VT and signals), PromptDesk (prompts), FrameScheduler (frames).
//
// Threading: everything here runs on one thread, the loop's, except `post` (and the inbox).
import LinuxSystem
import Assets
import Board
import Display
import HUD
import HUDProtocol
import Logging
import Raster

public final class HUDRuntime: RequestTarget {
    public let display: any Display
    public let profile: BoardProfile?
    let scene: HUDScene
    /// The loop that owns every descriptor; run it through `step` and `run`.
    let loop: EventLoop
    /// When frames are due, and the frames.
    let frames: FrameScheduler
    /// Requests from any thread, applied in order at the loop's next turn.
    public var inbox: MessageQueue<Submission> { requests.inbox }
    public let logger: Logger
    /// Where lines that peers cause are logged, at a bounded rate (LogRateLimiter.swift).
    public let peerLog: LogRateLimiter
    /// The VT in graphics mode, when one was taken.
    public var console: Console? { consoles.console }
    /// The signal self-pipe that follows VT switches and termination (on any display but memory,
    /// unless the console mode is `.off`; on any display after `catchTerminationSignals`): one per
    /// process, so callers must not make another.
    public var consoleSignals: ConsoleSignals? { consoles.signals }
    /// The VT and the signals (ConsoleKeeper.swift).
    private let consoles: ConsoleKeeper
    /// True once `quit` ran: `run` returns and `step` does nothing.
    public private(set) var isFinished = false
    /// The first frame is on the screen, or there is no screen yet (waiting for the display's
    /// driver): from then on the daemon is ready for its clients and the boot may go on.
    public var isReady: Bool { turnEnd.isReady }
    /// The HUD's state (commands go through `submit`; read it for tests and status).
    public var controller: HUDController { scene.controller }

    /// The loop's clock (CLOCK_MONOTONIC ns, or the test's).
    let clock: () -> Int64
    /// Events handed out and ready steps run at each turn's end (TurnEnd.swift).
    private let turnEnd: TurnEnd
    /// Progress values dropped because a later one in the same turn replaced them.
    public var coalescedRequests: Int { requests.coalesced }
    /// Every request's way in (RequestPipeline.swift).
    private let requests: RequestPipeline
    /// What touches, clicks and keys do (InputResponder.swift).
    private let input: InputResponder
    /// Passphrase and question prompts (Plymouth's, the control socket's ask-password).
    let prompts: PromptDesk
    /// What the runtime does with a service verb (`quit`, psplash's `QUIT`); the session sets it.
    /// Without one, `quit [--retain]` quits at once and `QUIT` dismisses the HUD.
    public var onServiceRequest: ((Request) -> Void)?
    /// Told of every request applied (the boot estimate stops when a client sends progress).
    public var onApplied: ((Request) -> Void)?
    /// Told once the daemon has moved into a new root (`moveRoot(to:)`).
    private var rootObservers: [() -> Void] = []
    /// The directory the last `moveRoot(to:)` moved into, as it was named.
    private var movedInto: String?
    /// `observer` runs after each move into a new root (the boot estimate reads its record there).
    public func whenRootMoves(_ observer: @escaping () -> Void) { rootObservers.append(observer) }
    /// Where commands may name image and font files (the daemon's `--asset-dir`): a path is
    /// resolved (symlinks, `..`) and opened only inside one of these. nil: anywhere (a program's
    /// own HUD, tests). The profile's own font and logo are not commands and not confined.
    public var assetDirectories: [String]? {
        get { commands.assets.directories }
        set { commands.assets.directories = newValue }
    }
    /// What requests do to the HUD (CommandApplier.swift).
    private let commands: CommandApplier
    /// `deactivate`/`reactivate` and the watchdog over the gap (DisplayHandover.swift).
    private lazy var handover = DisplayHandover(runtime: self)

    /// Starts the HUD on `display`, configured by `profile` (scale, theme, logo, `[hud]` defaults,
    /// pacing; the profile's device keys are `DisplayOpener`'s). `poller` nil waits for real (timerfd,
    /// eventfd, the watched descriptors); tests pass one on virtual time and a fake `clock`
    /// (CLOCK_MONOTONIC ns). Throws for a bad `[hud]` entry (naming file:line:key). `resources` nil:
    /// the Debian fonts, opened after the first frame (`whenReady`).
    public init(
        display: any Display, profile: BoardProfile? = nil, resources: HUDResources? = nil,
        poller: (any LoopPoller)? = nil, clock: @escaping () -> Int64 = MonotonicClock.nanoseconds,
        console consoleMode: ConsoleMode = .automatic, logger: Logger = Logger(label: runtimeLoggerLabel)
    ) throws(RuntimeError) {
        self.display = display; self.profile = profile; self.clock = clock; self.logger = logger
        // A memory display's virtual vblanks follow the loop's clock (else they count from 0).
        display.useClock(clock)
        let settings: [HUDSetting]
        do { settings = try profile?.hudSettings() ?? [] } catch { throw .profile(error) }
        scene = HUDScene(outputs: display.outputs, profile: profile, settings: settings, resources: resources, origin: clock(), logger: logger)
        input = InputResponder(scene: scene)
        let chosenPoller: any LoopPoller
        if let poller { chosenPoller = poller } else {
            do { chosenPoller = try EpollPoller() } catch { throw .loop("\(error)") }
        }
        loop = EventLoop(poller: chosenPoller, clock: clock)
        consoles = ConsoleKeeper(display: display, loop: loop, logger: logger)
        let timers = loop
        peerLog = LogRateLimiter(logger: logger, clock: clock, schedule: { timers.schedule(at: $0, $1) })
        prompts = PromptDesk(loop: loop, logger: logger, peerLog: peerLog)
        requests = RequestPipeline(inbox: loop.makeQueue(of: Submission.self), waker: loop.waker)
        let log = logger
        frames = FrameScheduler(display: display, scene: scene, clock: clock, log: { log.info("\($0)") })
        frames.configure(profile: profile, settings: settings)
        commands = CommandApplier(scene: scene, frames: frames, loop: loop, peerLog: peerLog, logger: logger)
        turnEnd = TurnEnd(loop: loop, scene: scene, frames: frames, display: display, logger: logger)
        do { try frames.attach(to: loop) } catch { throw .loop("\(error)") }
        loop.addTurnStep { [unowned self] in requests.runTurn(self) }
        for o in display.outputs {
            logger.info("output \(o.name): \(o.mode.name) \(o.format.name) rotation \(o.rotation.name) frame \(o.frameWidth)x\(o.frameHeight)")
        }
        consoles.owner = self
        commands.owner = self
        input.owner = self
        consoles.take(consoleMode)
        prompts.surface = self
    }

    deinit { quit(retain: false) }

    /// The most animation frames a second (nil: one every display refresh): set here by the
    /// program (a command-line option), by the profile's `[hud] max-fps` and by `set max-fps
    /// N|refresh`; the last one set wins (values are clamped to 1...1000).
    /// Frames come on every k-th refresh (FrameScheduler); the spinner keeps its speed.
    public var maxFramesPerSecond: Int32? {
        get { frames.maxFramesPerSecond }
        set { frames.maxFramesPerSecond = newValue.map { min(max($0, 1), CommandParser.maxFramesPerSecond) } }
    }

    /// Whether prompts can take keys: a terminal was named, or there is a VT (taken, or waiting for
    /// the display to appear), or the on-screen keyboard shows (`always`, or a touch-only kiosk).
    public var canReadPromptKeys: Bool {
        prompts.terminalPath != nil || consoles.console != nil || consoles.pending != nil || prompts.showsKeyboard
    }

    /// Wakes a blocked loop from another thread or a signal handler.
    public var waker: any LoopWaker { loop.waker }

    /// Queues `request` for the loop's next turn; `completion` (on the loop's thread) hears what
    /// became of it. Safe from any thread.
    public func post(_ request: Request, completion: (@Sendable (RequestOutcome) -> Void)? = nil) {
        requests.post(Submission(request, completion: completion))
    }

    /// Queues `request` from the loop's own thread (a socket or FIFO handler) for this turn's
    /// requests, in order with everything else queued; `completion` runs on the loop's thread.
    /// `origin` names the sender in the log when the HUD refuses it ("uid 1000 on the control
    /// socket", "the FIFO /run/splashhud.fifo"): refusals are logged at a bounded rate per origin.
    public func enqueue(_ request: Request, from origin: String? = nil, completion: ((RequestOutcome) -> Void)? = nil) {
        requests.enqueue(request, from: origin, completion: completion)
    }

    /// Queues a message from an input device (InputHub, on the loop's thread) for this turn, in
    /// order with the requests the loop's transports queue.
    public func enqueue(_ input: InputMessage) { requests.enqueue(input) }

    /// Applies `request` now, on the loop's thread: a HUD command changes the HUD, a service verb
    /// goes to `onServiceRequest`. Returns whether it was applied.
    @discardableResult
    public func apply(_ request: Request) -> RequestOutcome {
        onApplied?(request)
        return commands.apply(request)
    }

    /// Runs `step` once at the end of the turn in which the runtime became ready (`isReady`: its
    /// first frame presented, or no screen yet), or at the next turn's end when it already is.
    /// Steps run in the order added (systemd's READY=1, the start-up line), then the default fonts
    /// open: the first status finds them ready, and fonts that do not load are logged at start
    /// rather than at the first text (the HUD goes on, drawing no text).
    public func whenReady(_ step: @escaping () -> Void) {
        turnEnd.whenReady(step)
    }

    /// The loop's clock now (CLOCK_MONOTONIC ns, or the test's).
    public var now: Int64 { clock() }

    /// Runs `action` on the loop's thread at `deadline` (the loop's clock), unless cancelled.
    @discardableResult
    public func schedule(at deadline: Int64, _ action: @escaping () -> Void) -> LoopTimer { loop.schedule(at: deadline, action) }

    /// Cancels a scheduled action; false when it already ran or was cancelled.
    @discardableResult
    public func cancel(_ timer: LoopTimer) -> Bool { loop.cancel(timer) }

    /// Runs `step` at the end of every turn, after the frame.
    public func atTurnEnd(_ step: @escaping () -> Void) { loop.addTurnEndStep(step) }

    /// How animation frames are timed (a profile's `pacing`; `.timer` where vblanks mean nothing).
    public var pacing: FramePacing {
        get { frames.pacing }
        set { frames.pacing = newValue }
    }

    /// A change is waiting for its frame (a snapshot taken now would not show it yet).
    public var hasUndrawnChange: Bool { frames.hasUndrawnChange }

    /// Whether the display is a real screen (not the memory framebuffer).
    public var showsOnRealScreen: Bool { display.showsOnRealScreen }

    /// The terminal prompts read keys from (the daemon's `--prompt-terminal`); nil: the VT taken.
    public var promptTerminal: String? {
        get { prompts.terminalPath }
        set { prompts.terminalPath = newValue }
    }

    /// Opens the prompt terminal now, while the daemon may still (before it drops root).
    public func openPromptTerminalEarly() { prompts.openTerminalEarly() }

    /// The outputs the HUD is laid out for, in the display's order.
    public var outputs: [DisplayOutput] { scene.outputs }

    /// The complete current picture of output `index` of `outputs`.
    public func picture(output index: Int) -> ComposedFrame { scene.pixels(output: index) }

    /// What the runtime has done so far.
    public var counters: RuntimeCounters {
        RuntimeCounters(framesPresented: frames.framesPresented, missedFrames: frames.missedFrames, flipsAbandoned: frames.flipsAbandoned,
                        lastTiming: frames.lastTiming, turns: loop.turns, timedWaits: loop.timedWaits)
    }

    /// The progress the HUD shows now (ring, pie, annular, bar), nil for anything else.
    public var currentProgress: Double? { commands.currentProgress }

    /// The HUD now, with the outputs it is on.
    public func state() -> HUDState { HUDState(controller, outputs: outputs) }

    /// Hidden for good: not visible, nothing left on screen (a fade-out has finished).
    public var isHidden: Bool { !controller.isVisible && controller.presentation().isHidden }

    /// Whether the HUD animates now (HUD time brought up to the loop's clock first).
    public var isAnimating: Bool {
        scene.advance(to: now)
        return controller.presentation().isAnimating
    }

    /// Calls `listener` at the end of every turn with the HUD events of that turn (never empty),
    /// each event once; the controller keeps none of them.
    public func addEventListener(_ listener: @escaping ([HUDEvent]) -> Void) {
        turnEnd.addListener(listener)
    }

    /// Applies one line of the command language now. A bad line is logged and returned as the
    /// parser's error; the HUD's state is untouched by it. Blank and comment lines do nothing.
    @discardableResult
    public func submit(_ line: String) -> Result<Void, CommandError> { commands.submit(line) }

    /// Applies `command` now (already parsed), unless the HUD refuses it (a bound it would pass):
    /// then the refusal is logged and returned, and nothing changes.
    @discardableResult
    public func submit(_ command: HUDCommand) -> String? { commands.submit(command) }

    /// One turn of the loop: waits for the next frame, timer, request or descriptor, handles it,
    /// and draws what changed.
    public func step() throws {
        guard !isFinished else { return }
        try loop.runOnce()
    }

    /// Runs the loop until `stop` returns true (checked after every turn) or `quit` is called.
    public func run(until stop: () -> Bool = { false }) throws {
        guard !isFinished else { return }
        try loop.run(until: { stop() || isFinished })
    }

    /// Calls `onReadable` on the loop's thread when `descriptor` is readable (read it there).
    /// Replaces an earlier handler for it.
    public func watch(_ descriptor: Int32, onReadable: @escaping (Int32) -> Void) throws {
        try loop.watch(descriptor, interest: .read) { onReadable($0.descriptor) }
    }

    /// Stops watching `descriptor` (before closing it).
    public func unwatch(_ descriptor: Int32) {
        loop.unwatch(descriptor)
    }

    /// Ends the loop and releases the screen: `retain` leaves the last frame on it, else what was
    /// there before is restored; the console goes back to text mode. Idempotent.
    public func quit(retain: Bool) {
        guard !isFinished else { return }
        isFinished = true
        commands.stopRamp()
        prompts.close()
        if retain { FBDevHandover.write(scene, display: display, logger: logger) }
        display.close(retain ? .retain : .restore)
        consoles.giveBack(retain: retain)
        peerLog.flush()
        logger.info("quit (\(retain ? "retaining the last frame" : "restoring the screen"))")
    }

    /// Plymouth's deactivate: stop drawing and give the display up (DRM master) so another
    /// program may take it; `reactivate` takes it back and redraws everything.
    public func deactivate() {
        frames.isPaused = true
        // Only KMS has a master to give up; fbdev and memory have nothing to release.
        do { try display.releaseMaster() } catch { logger.warning("releasing DRM master: \(error)") }
    }

    public func reactivate() {
        scene.redrawAll()
        frames.isPaused = false
        frames.markDirty()
    }

    /// Called instead of dying when SIGTERM/SIGINT/SIGHUP arrives (on a real screen): the owner
    /// ends its loop, cleans up (a FIFO, pictures), quits (restoring or retaining) and then dies of
    /// the signal itself. Without it the runtime restores the screen and dies at once.
    public var onTermination: ((_ signal: Int32) -> Void)?

    /// Catches SIGTERM/SIGINT/SIGHUP where the runtime did not already (the memory display, or a
    /// console mode of `.off`), so `onTermination` hears of them on every display. Until `quit`.
    public func catchTerminationSignals() throws(DisplayError) {
        guard !isFinished else { return }
        try consoles.catchTerminationSignals()
    }
}

extension HUDRuntime: InputOwner {
    /// Handles one input message now, on the loop's thread.
    public func handle(_ message: InputMessage) {
        guard !isFinished else { return }
        input.handle(message, at: clock())
    }

    /// Clients watching keys now; `key` events are made only while there is one.
    public var isWatchingKeys: Bool { input.keyWatches.count > 0 }

    /// Starts one client's key watch: it lasts until the token is ended or dropped.
    public func watchKeys() -> KeyWatch { input.keyWatches.watch() }

    func post(_ event: HUDEvent) { turnEnd.post(event) }
    func sceneChanged() { frames.markDirty() }
    var promptIsActive: Bool { prompts.isActive }
    func promptPointer(_ phase: InputMessage.Phase, output: String, x: Int32, y: Int32) -> Bool {
        prompts.pointer(phase, output: output, x: x, y: y)
    }
    func promptCapsLock(_ on: Bool) { prompts.capsLock = on }
}

extension HUDRuntime: CommandOwner {
    var applyingOrigin: String? { requests.applyingOrigin }

    /// A service verb goes to the session; without one, `quit` quits at once and `QUIT` dismisses.
    func serve(_ verb: Request) -> RequestOutcome {
        if let onServiceRequest {
            onServiceRequest(verb)
            return .applied
        }
        if case .quit(let retain) = verb {
            quit(retain: retain)
            return .applied
        }
        return commands.apply(.hud(.dismiss(delay: .zero)))
    }

    func handOverDisplay() { handover.handOver() }
    func takeDisplayBack() { handover.takeBack() }

    /// Into the real root mounted at `directory` (ProcessRoot.swift), then what follows the
    /// root (the boot estimate's record) is told; refused with the reason when the move fails
    /// (the caller logs it as its transport words it).
    public func moveRoot(to directory: String) -> RequestOutcome {
        // Said twice (SplashHUD's hand-over, then Plymouth's own init-bottom script or dracut's
        // `--newroot`), the path would be taken inside the new root (its /root, root's home).
        guard directory != movedInto else {
            logger.notice("already moved into the new root \(directory): nothing to do")
            return .applied
        }
        do { try ProcessRoot.change(to: directory) } catch {
            return .refused("cannot move into the new root: \(error); the root stays as it was")
        }
        movedInto = directory
        logger.notice("moved into the new root \(directory): what is opened from now on is found there")
        for observer in rootObservers { observer() }
        return .applied
    }
}

extension HUDRuntime: PromptSurface {
    func showPrompt(_ entry: HUDEntry?) {
        guard controller.entry != entry else { return }
        controller.entry = entry
        frames.markDirty()
    }

    var consoleDevice: String? { consoles.console?.device }

    func keyboardKey(output: String, x: Int32, y: Int32) -> KeyboardKey? {
        scene.renderer(named: output)?.keyboardKey(x: x, y: y, controller.presentation())
    }

    /// The `keyboard` reply for output `name` (nil: the first): `OUTPUT WxH`, then a word per key,
    /// `NAME:X,Y,W,H:BASE,SHIFT,SYMBOLS`, its frame in frame pixels and the Unicode scalar each
    /// level types (0: none). Nothing of what was typed: not the level shown, not a key held.
    public func keyboardReply(output name: String?) -> (words: String?, noOutput: Bool, why: String) {
        let outputs = scene.outputs
        guard let o = name.map({ n in outputs.first { $0.name == n } }) ?? outputs.first,
              let renderer = scene.renderer(named: o.name) else { return (nil, true, "no output \(name ?? "at all")") }
        guard let state = controller.entry?.keyboard else { return (nil, false, "no on-screen keyboard is shown") }
        var words = ["\(o.name)", "\(renderer.width)x\(renderer.height)"]
        for (key, f) in renderer.keyboardKeys(controller.presentation()) {
            let codes = [KeyboardLayout.Level.base, .shift, .symbols].map { level in
                KeyboardState(layout: state.layout, level: level).text(of: key).flatMap { $0.unicodeScalars.first?.value } ?? 0
            }
            let name: String
            switch key {
            case .character: name = "char"
            case .shift: name = "shift"
            case .symbols: name = "symbols"
            case .backspace: name = "backspace"
            case .space: name = "space"
            case .enter: name = "enter"
            }
            words.append("\(name):\(f.x),\(f.y),\(f.width),\(f.height):\(codes.map(String.init).joined(separator: ","))")
        }
        return (words.joined(separator: " "), false, "")
    }
}

extension HUDRuntime: ConsoleOwner {
    func consoleReleased() { deactivate() }
    func consoleAcquired() { reactivate() }

    func terminated(by number: Int32) {
        if let onTermination {
            logger.info("signal \(number): ending")
            onTermination(number)
        } else {
            // The screen and the VT restored, then death by the same signal.
            logger.info("terminated by signal \(number)")
            quit(retain: false)
            ConsoleSignals.die(of: number)
        }
    }
}
