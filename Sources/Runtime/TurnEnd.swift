// SPDX-License-Identifier: MIT
// What the runtime does at the end of each turn, after the frame: the turn's HUD events handed to
// the listeners (each event once, kept by none), and once the runtime is ready, the steps that
// waited for it, then the default fonts opened.
import Display
import HUD
import HUDProtocol
import Logging

final class TurnEnd {
    private let scene: HUDScene
    private let frames: FrameScheduler
    private let display: any Display
    private let logger: Logger
    private var listeners: [([HUDEvent]) -> Void] = []
    /// Events the runtime makes itself (a button press), handed out with the controller's.
    private var own: [HUDEvent] = []
    /// `whenReady`'s steps not run yet, and whether the default fonts were opened after them.
    private var readySteps: [() -> Void] = []
    private var fontsOpened = false

    init(loop: EventLoop, scene: HUDScene, frames: FrameScheduler, display: any Display, logger: Logger) {
        self.scene = scene; self.frames = frames; self.display = display; self.logger = logger
        loop.addTurnEndStep { [unowned self] in handOutEvents() }
        loop.addTurnEndStep { [unowned self] in runReadySteps() }
    }

    /// The first frame is on the screen, or there is no screen yet (waiting for the display's
    /// driver).
    var isReady: Bool { frames.framesPresented > 0 || display.outputs.isEmpty }

    func addListener(_ listener: @escaping ([HUDEvent]) -> Void) { listeners.append(listener) }

    /// Queues an event the runtime made for this turn's hand-out.
    func post(_ event: HUDEvent) { own.append(event) }

    func whenReady(_ step: @escaping () -> Void) { readySteps.append(step) }

    /// Hands the turn's events out; with no listener they are dropped, never kept.
    private func handOutEvents() {
        // Nearly every turn has none, and `+` allocates even for two empty arrays.
        var events = scene.controller.drainEvents()
        if !own.isEmpty {
            events += own
            own.removeAll()
        }
        guard !events.isEmpty else { return }
        for listener in listeners { listener(events) }
    }

    private func runReadySteps() {
        // At the end of every turn: the check that is almost always false after start comes first.
        guard !(fontsOpened && readySteps.isEmpty), isReady else { return }
        let steps = readySteps
        readySteps = []
        for step in steps { step() }
        guard !fontsOpened else { return }
        fontsOpened = true
        do { try scene.resources.loadFonts() } catch { logger.error("HUD fonts: \(error); status text is left out") }
    }
}
