// SPDX-License-Identifier: MIT
// The HUD as the frame scheduler's scene, on every output at once: one HUDController (one clock, one
// state) and one HUDSceneRenderer per output, laid out for that output's frame size and scale, so
// the HUD is mirrored and laid out for each resolution. Renderers are kept by output name: after a
// hotplug the outputs that stayed keep their frames (no redraw), a new one is drawn completely at
// the next frame (its renderer's first render damages the whole screen).
//
// HUD time is CLOCK_MONOTONIC minus `origin`, on a ManualClock the scene moves forward itself, so
// commands and frames see the same instants and tests drive it with any clock.
import Display
import HUD
import HUDProtocol
import Raster

public final class HUDScene: PacedScene {
    /// HUD time: advanced to (monotonic ns - origin) by `frame(at:)` and `advance(to:)`.
    public let clock: ManualClock
    public let controller: HUDController
    /// The CLOCK_MONOTONIC instant (ns) that is HUD time zero.
    public let origin: Int64
    public let theme: SceneTheme
    public let resources: HUDResources
    /// The scale of an output's renderer (points to pixels).
    public let scale: (DisplayOutput) -> Fixed16_16
    /// The outputs laid out for, in the display's order.
    public private(set) var outputs: [DisplayOutput]
    private var renderers: [HUDSceneRenderer]
    /// Each output's damage in the last frame (see `frame`).
    private var damage: [PacedFrame.Output] = []

    public init(
        outputs: [DisplayOutput], origin: Int64, theme: SceneTheme = SceneTheme(), resources: HUDResources,
        appearance: HUDAppearance = HUDAppearance(), scale: @escaping (DisplayOutput) -> Fixed16_16 = { _ in .one }
    ) {
        clock = ManualClock()
        controller = HUDController(clock: clock, appearance: appearance)
        self.origin = origin; self.theme = theme; self.resources = resources; self.scale = scale
        self.outputs = outputs
        renderers = []
        renderers = outputs.map(makeRenderer)
    }

    /// Rounds the spinner to one step per animation frame on every output (so its frames repeat
    /// every turn and are drawn once); nil: exact.
    public var spinnerSteps: SpinnerSteps? {
        didSet { for r in renderers { r.spinnerSteps = spinnerSteps } }
    }

    private func makeRenderer(_ output: DisplayOutput) -> HUDSceneRenderer {
        let s = scale(output)
        let background = theme.background(width: output.frameWidth, height: output.frameHeight, scale: s, rotation: output.rotation)
        // Compact: with a solid background only the HUD's box is kept, not the whole frame.
        let r = HUDSceneRenderer(width: output.frameWidth, height: output.frameHeight, scale: s, background: background,
                                 resources: resources, compact: true)
        r.spinnerSteps = spinnerSteps
        return r
    }

    /// The renderer of the output called `name` (its `frame` is that output's picture).
    public func renderer(named name: String) -> HUDSceneRenderer? {
        outputs.firstIndex { $0.name == name }.map { renderers[$0] }
    }

    /// What pixel (x, y) of output `name`'s frame shows now (nil: no such output).
    public func hit(output name: String, x: Int32, y: Int32) -> HUDHit? {
        renderer(named: name)?.hit(x: x, y: y, controller.presentation())
    }

    /// Moves HUD time to `nanoseconds` (monotonic; never backwards: an earlier instant stays put)
    /// and fires the controller's timers due by then.
    public func advance(to nanoseconds: Int64) {
        let t = Instant(nanoseconds: nanoseconds - origin)
        if t > clock.now { clock.advance(to: t) }
        controller.update()
    }

    /// Applies `command` at `nanoseconds` (monotonic).
    public func apply(_ command: HUDCommand, at nanoseconds: Int64) {
        advance(to: nanoseconds)
        controller.apply(command)
    }

    public func frame(at nanoseconds: Int64) -> PacedFrame {
        advance(to: nanoseconds)
        // Usually the HUD at rest, every output showing its generation: only the indicator's time
        // to bring up to date, each output's damage written over its last (the same outputs, in
        // the same order), with no content value made and no array rebuilt.
        if damage.count == renderers.count, let rest = controller.restingIndicator(),
           renderers.allSatisfy({ $0.shows(generation: controller.presentationGeneration) }) {
            for i in renderers.indices { damage[i].damage = renderers[i].render(indicator: rest.indicator) }
            return PacedFrame(outputs: damage, animating: rest.isAnimating, nextChange: rest.isAnimating ? nil : nextChange())
        }
        // Filled in place: the last frame's array is free again by now, so a frame allocates none.
        damage.removeAll(keepingCapacity: true)
        let content = controller.frameContent { g in renderers.allSatisfy { $0.shows(generation: g) } }
        for i in renderers.indices {
            damage.append(PacedFrame.Output(name: outputs[i].name, damage: renderers[i].render(content, generation: controller.presentationGeneration)))
        }
        return PacedFrame(outputs: damage, animating: content.isAnimating,
                          nextChange: content.isAnimating ? nil : nextChange())
    }

    /// The controller's next timer, in monotonic nanoseconds (nil: none, or past Int64).
    private func nextChange() -> Int64? {
        guard let t = controller.nextEventTime() else { return nil }
        let (sum, overflow) = t.nanoseconds.addingReportingOverflow(origin)
        return overflow ? nil : sum
    }

    /// The picture of the scene's output at `index` in `outputs` (and in each frame's outputs).
    public func pixels(output index: Int) -> ComposedFrame { renderers[index].composed }

    public func outputsChanged(_ outputs: [DisplayOutput]) {
        var kept: [String: (DisplayOutput, HUDSceneRenderer)] = [:]
        for (o, r) in zip(self.outputs, renderers) { kept[o.name] = (o, r) }
        let names = Set(outputs.map(\.name))
        // Outputs gone, whose frames a new output of the same frame, scale and rotation can take:
        // the splash moving from the firmware's framebuffer to the GPU's card shows its first
        // frame there without drawing it again (the frame scheduler owes a new output its whole
        // frame, so it is presented complete).
        var vacated = zip(self.outputs, renderers).filter { !names.contains($0.0.name) }
        renderers = outputs.map { o in
            // The same output (name, mode, format, rotation): what is on its screen is still this
            // frame. Anything else (a new mode means new scanout buffers) is drawn afresh.
            if let (old, r) = kept[o.name], old == o {
                return r
            }
            if kept[o.name] == nil, let i = vacated.firstIndex(where: { Self.sameFrame($0.0, o) && scale($0.0) == scale(o) }) {
                return vacated.remove(at: i).1
            }
            return makeRenderer(o)
        }
        self.outputs = outputs
        damage = []  // named for the outputs before
    }

    /// Whether two outputs' frames are laid out alike (size and rotation; the scanout format is
    /// the blit's business).
    static func sameFrame(_ a: DisplayOutput, _ b: DisplayOutput) -> Bool {
        a.frameWidth == b.frameWidth && a.frameHeight == b.frameHeight && a.rotation == b.rotation
    }

    /// The current picture laid out for `output` (any output, not only the scene's): for handing
    /// the HUD over to another screen, such as a DRM driver's fbdev emulation.
    public func picture(for output: DisplayOutput) -> ComposedFrame {
        let renderer = makeRenderer(output)
        _ = renderer.render(controller.presentation())
        return renderer.composed
    }

    /// The spinner is rounded to one step per animation frame (the scheduler draws each for its
    /// boundary on that grid, so every frame is the next step): its frames repeat every turn and
    /// are drawn once (IndicatorTileCache).
    public func animationIntervalChanged(_ nanoseconds: Int64) {
        spinnerSteps = SpinnerSteps(frameInterval: nanoseconds)
    }

    /// Forgets every output's frame so the next `frame` draws all of them completely (after a VT
    /// switch back, or when DRM master was regained and the screen content is unknown).
    public func redrawAll() {
        renderers = outputs.map(makeRenderer)
    }
}
