// SPDX-License-Identifier: MIT
// The scene renderer: keeps a complete picture of a background and the HUD, and brings it up to
// date with each new presentation by redrawing only what changed.
//
// Damage rules, from cheapest to dearest:
// - nothing differs → no pixels are touched and no rect is reported;
// - only the indicator's animation phase differs (the spinner turning, the petals stepping) →
//   the indicator's box;
// - the bezel or its content differs (text, progress, colours, a fade or zoom of the bezel) → the
//   union of the old and new bezel rects;
// - the backdrop differs (mask, colour, or its alpha during a fade) → the whole screen.
// Each damaged rect is cleared to the background and redrawn clipped to itself; HUDPainter
// guarantees that gives exactly the pixels of a full redraw there.
//
// Memory. A plain renderer holds the whole frame (the RAM shadow buffer, 4 MB at 1280x800). A
// `compact` one holds only what differs from a single colour when the picture allows it: with a
// solid background and no backdrop or a solid one (every mask but the gradient), every pixel
// outside the HUD's bounds is the same colour, so it keeps one row of that colour and a box the
// size of the HUD (`ComposedFrame`), a few hundred KB; the gradient mask or an image background
// need the whole frame, which it then allocates and frees again when the picture goes back.
// Both give the same bytes for every pixel (tests compare them in every state).
//
// Steps of an animation that comes round again (the 12 petals of the activity indicator, the
// spinner when it is rounded to `spinnerSteps`) are drawn once and then copied
// from `IndicatorTileCache` while nothing else about the HUD changes.
import Assets
import HUDProtocol
import Raster

/// What lies behind the HUD.
public enum SceneBackground: Sendable {
    case color(Color)
    /// An image scaled to fill the screen.
    case image(Pixmap)
}

public final class HUDSceneRenderer {
    public let width: Int32
    public let height: Int32
    /// Points to pixels.
    public let scale: Fixed16_16
    public let background: SceneBackground
    /// Every background pixel is opaque: a colour with alpha 0xFF, or an image of the frame's size
    /// (drawn pixel for pixel) with no translucent pixel. Looked at once.
    public let backgroundIsOpaque: Bool
    /// Whether the renderer keeps only the HUD's box when the picture allows it (see above).
    public let compact: Bool
    /// When set, the spinner is rounded to one step per animation frame (SpinnerSteps), so its
    /// frames repeat every turn and are drawn once; the scene sets it to its frames' interval.
    public var spinnerSteps: SpinnerSteps? {
        // Step k of one rounding is another phase than step k of another: the tiles are stale.
        didSet { if spinnerSteps != oldValue { tiles.clear() } }
    }
    let resources: HUDResources
    let painter = HUDPainter()
    let tiles = IndicatorTileCache()

    /// The whole frame and its canvas (always when not compact; else only while needed).
    private var whole: (pixmap: Pixmap, canvas: Canvas)? { didSet { composedFrame = nil } }
    /// Compact: the colour of every pixel outside `box`, one row of it, and the box.
    private var uniform: (color: UInt32, row: Pixmap)? { didSet { composedFrame = nil } }
    /// The backdrop `uniform.color` was made for (the colour is worked out only when it changes).
    private var uniformBackdrop: (mask: HUDMask, color: Color, alpha: Fixed16_16)?
    private var box: (rect: IntRect, pixmap: Pixmap, canvas: Canvas)? { didSet { composedFrame = nil } }
    /// `composed` as last made: its views show the pixmaps above as they are drawn, so it is made
    /// again only when one of them is replaced (not at every animation frame).
    private var composedFrame: ComposedFrame?

    private struct Shown {
        var presentation: HUDPresentation
        var layout: HUDLayout
        var hud: IntRect
        var indicator: IntRect
    }
    private var shown: Shown?
    /// The controller's generation of the presentation last rendered, when it was given.
    private var shownGeneration: UInt64?
    /// The damage of the last phase frame (the indicator's box), returned again while the box
    /// stays: the spinner's frames then allocate no array.
    private var phaseDamage: [IntRect] = []
    /// The indicator's box in the frame last rendered.
    var indicatorRect: IntRect? { shown?.indicator }
    private var cachedLayout: (key: HUDLayoutKey, layout: HUDLayout)?

    public init(width: Int32, height: Int32, scale: Fixed16_16 = .one, background: SceneBackground,
                resources: HUDResources, compact: Bool = false) {
        precondition(width > 0 && height > 0 && scale.raw > 0, "bad scene size \(width)x\(height) at scale \(scale)")
        self.width = width; self.height = height; self.scale = scale; self.background = background
        self.resources = resources; self.compact = compact
        switch background {
        case .color(let c): backgroundIsOpaque = c.a == 0xFF
        case .image(let image):
            backgroundIsOpaque = image.width == width && image.height == height && image.view.isOpaque(image.view.bounds)
        }
        if !compact { whole = Self.makeWhole(width, height) }
    }

    private static func makeWhole(_ width: Int32, _ height: Int32) -> (pixmap: Pixmap, canvas: Canvas) {
        let p = Pixmap(width: width, height: height)
        return (p, Canvas(p.view))
    }

    private var screenRect: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    /// The complete picture as the display takes it.
    public var composed: ComposedFrame {
        // Opaque once drawn over an opaque background: the HUD is composited over it (source-over).
        let opaque = shown != nil && backgroundIsOpaque
        if let c = composedFrame, c.isOpaque == opaque { return c }
        let c: ComposedFrame
        if let whole {
            c = ComposedFrame(whole.pixmap.view, opaque: opaque)
        } else if let uniform {
            c = ComposedFrame(width: width, height: height, row: uniform.row,
                              tile: box.map { $0.pixmap.view.moved(toX: $0.rect.x, y: $0.rect.y) }, opaque: opaque)
        } else {  // nothing rendered yet: transparent black, as a new pixmap
            c = ComposedFrame(width: width, height: height, row: Pixmap(width: width, height: 1), tile: nil)
        }
        composedFrame = c
        return c
    }

    /// The frame: premultiplied ARGB32, complete after `render`. A compact renderer makes a new
    /// pixmap of the whole picture each time (snapshots and tests); a plain one returns its own.
    public var frame: Pixmap { whole?.pixmap ?? composed.materialized() }

    /// Bytes of pixel memory the renderer holds now (the frame or the colour row and the box, and
    /// cached indicator tiles).
    public var pixelBytes: Int {
        let w = whole.map { Int($0.pixmap.width) * Int($0.pixmap.height) * 4 } ?? 0
        let u = uniform.map { Int($0.row.width) * 4 } ?? 0
        let b = box.map { Int($0.pixmap.width) * Int($0.pixmap.height) * 4 } ?? 0
        return w + u + b + tiles.bytes
    }

    /// The screen in points.
    public var screen: Size { Size(width: Fixed16_16(width) / scale, height: Fixed16_16(height) / scale) }

    /// The layout of `p`, recomputed only when something it depends on changes.
    public func layout(for p: HUDPresentation) -> HUDLayout {
        let key = HUDLayoutKey(p, screen: screen)
        if let c = cachedLayout, c.key == key { return c.layout }
        let l = HUDLayout.compute(p, screen: screen, resources: resources, scale: scale)
        cachedLayout = (key, l)
        return l
    }

    /// What the frame pixel (x, y) shows of `p`: its centre in points, hit-tested on the layout.
    public func hit(x: Int32, y: Int32, _ p: HUDPresentation) -> HUDHit {
        let point = Point(x: (Fixed16_16(x) + .half) / scale, y: (Fixed16_16(y) + .half) / scale)
        return layout(for: p).hit(point)
    }

    /// The on-screen keyboard's key at frame pixel (x, y) of `p`, nil when there is none there.
    public func keyboardKey(x: Int32, y: Int32, _ p: HUDPresentation) -> KeyboardKey? {
        let point = Point(x: (Fixed16_16(x) + .half) / scale, y: (Fixed16_16(y) + .half) / scale)
        return layout(for: p).entry?.keyboard?.key(at: point)
    }

    /// The on-screen keyboard's keys as `p` shows them, each with its frame in frame pixels (the
    /// pixels its frame covers, rounded outwards); empty when no keyboard is shown.
    public func keyboardKeys(_ p: HUDPresentation) -> [(key: KeyboardKey, frame: IntRect)] {
        guard let k = layout(for: p).entry?.keyboard else { return [] }
        return k.keys.map { key in
            let f = key.frame
            let x0 = (f.minX * scale).floor, y0 = (f.minY * scale).floor
            let x1 = (f.maxX * scale).ceil, y1 = (f.maxY * scale).ceil
            return (key.key, IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        }
    }

    /// Whether the frame shows a presentation of controller generation `generation`: then
    /// `render(indicator:)` brings it to a later instant of that generation.
    public func shows(generation: UInt64) -> Bool { shown != nil && shownGeneration == generation }

    /// The frame of the generation shown (see `shows(generation:)`) with the indicator at another
    /// instant (`HUDController.restingIndicator`): `render`'s pixels and damage for that
    /// presentation, without the presentation (copying it retains every string of its appearance).
    public func render(indicator: HUDPresentation.Indicator) -> [IntRect] {
        precondition(shown != nil, "render(indicator:) before anything was rendered")
        return renderPhase(indicator)
    }

    /// Brings the frame up to `content` (`HUDController.frameContent`), of controller generation
    /// `generation`, and returns the rects of pixels that changed.
    @discardableResult
    public func render(_ content: HUDFrameContent, generation: UInt64) -> [IntRect] {
        switch content {
        case .indicator(let indicator, _): return render(indicator: indicator)
        case .presentation(let p): return render(p, generation: generation)
        }
    }

    /// Brings the frame up to `p` and returns the rects of pixels that changed (possibly none).
    /// `generation` is the controller's `presentationGeneration` for `p`: one equal to the last
    /// frame's says that only the indicator's time moved, which then goes unchecked.
    @discardableResult
    public func render(_ presentation: HUDPresentation, generation: UInt64? = nil) -> [IntRect] {
        let onlyPhase = generation != nil && generation == shownGeneration
        shownGeneration = generation
        if shown != nil, onlyPhase || shown!.presentation.equalsIgnoringPhase(presentation) {
            return renderPhase(presentation.indicator)
        }
        let p = stepped(presentation)
        let layout = layout(for: p)
        let hud = p.alpha == .zero ? IntRect.zero : painter.bounds(p, layout: layout, scale: scale)
        let indicator = p.alpha == .zero ? IntRect.zero : painter.indicatorBounds(p, layout: layout, scale: scale)
        var damage = damaged(from: shown, to: p, hud: hud, indicator: indicator)
        let old = shown
        shown = Shown(presentation: p, layout: layout, hud: hud, indicator: indicator)
        let useWhole = !compact || !isUniform(p)
        if useWhole != (whole != nil) { damage = [screenRect] }  // switching between the two
        if damage.isEmpty { return [] }
        // An indicator whose steps repeat, and only its step changed: the step's tile serves.
        var step: Int32?
        if let s = self.step(p.indicator) {
            let withoutPhase = Self.withoutPhase(p)
            tiles.retain(for: withoutPhase, rect: indicator)
            if let old, damage == [indicator], Self.withoutPhase(old.presentation) == withoutPhase { step = s }
        } else {
            tiles.clear()
        }
        if useWhole {
            uniform = nil; uniformBackdrop = nil; box = nil
            if whole == nil { whole = Self.makeWhole(width, height) }
            draw(damage, p, layout, step: step, into: whole!.canvas)
        } else {
            whole = nil
            renderCompact(damage, p, layout, hud: hud, step: step)
        }
        return damage
    }

    /// The usual animation frame, cheaply: only the indicator's phase differs from what is shown,
    /// so the layout, the bezel and the indicator's box are the shown ones, the damage is that box
    /// (none when the stepped phase is the same) and a repeating step comes from the tile cache.
    /// The same pixels and rects as `render`'s general path, which the profile of a 15 fps spinner
    /// showed spending most of a cached frame on copying, comparing and laying out presentations.
    /// Only once something is shown.
    private func renderPhase(_ phase: HUDPresentation.Indicator) -> [IntRect] {
        let indicator = stepped(phase)
        if shown!.presentation.indicator == indicator { return [] }
        shown!.presentation.indicator = indicator
        let rect = shown!.indicator
        if rect.isEmpty { return [] }
        // The canvas of the last render: the shown HUD lies within the compact box (its bounds
        // contain the indicator's), so the box is there whenever the indicator's rect is not empty.
        let canvas: Canvas, clipped: IntRect
        if let whole {
            canvas = whole.canvas; clipped = rect
        } else if let box {
            canvas = box.canvas; clipped = rect.intersection(box.rect)
        } else {
            preconditionFailure("a shown indicator without a frame or a box")
        }
        // The tiles belong to this HUD already, or to none (each render keeps them for what it shows).
        let step = self.step(indicator)
        if step == nil { tiles.clear() } else if !tiles.isOwned { tiles.retain(for: Self.withoutPhase(shown!.presentation), rect: rect) }
        if phaseDamage.count != 1 || phaseDamage[0] != rect { phaseDamage = [rect] }
        if let step, tiles.copy(step: step, into: canvas.target) { return phaseDamage }
        if !clipped.isEmpty { draw([clipped], shown!.presentation, shown!.layout, step: step, into: canvas) }
        return phaseDamage
    }

    private func renderCompact(_ damage: [IntRect], _ p: HUDPresentation, _ layout: HUDLayout, hud bezel: IntRect, step: Int32?) {
        let hud = bezel.intersection(screenRect)  // a zoomed bezel may reach past the screen's edges
        let color = uniformColor(p)
        if uniform?.color != color {
            let row = Pixmap(width: width, height: 1)
            row.view.fill(row.view.bounds, with: PremultipliedColor(argb: color))
            uniform = (color, row)
        }
        if hud.isEmpty { box = nil; return }
        guard let b = box, b.rect.contains(hud) else {
            // A box that holds the HUD, drawn completely (everything outside it is the colour).
            let pixmap = Pixmap(width: hud.width, height: hud.height)
            let canvas = Canvas(pixmap.view.moved(toX: hud.x, y: hud.y))
            box = (hud, pixmap, canvas)
            draw([hud], p, layout, step: nil, into: canvas)
            return
        }
        draw(damage.map { $0.intersection(b.rect) }.filter { !$0.isEmpty }, p, layout, step: step, into: b.canvas)
    }

    /// Whether every pixel outside the HUD's bounds is one colour in `p`.
    private func isUniform(_ p: HUDPresentation) -> Bool {
        guard case .color = background else { return false }
        if p.backdropAlpha == .zero { return true }
        if case .gradient = p.appearance.mask { return false }
        return true
    }

    /// The colour of a pixel outside the HUD in `p` (uniform): the background with the backdrop
    /// drawn over it by the same canvas operations as a whole frame's, so the same bytes.
    private func uniformColor(_ p: HUDPresentation) -> UInt32 {
        let a = p.appearance
        let backdrop = (mask: a.mask, color: a.backdropColor, alpha: p.backdropAlpha)
        if let u = uniform, let b = uniformBackdrop, b == backdrop { return u.color }
        uniformBackdrop = backdrop
        guard case .color(let c) = background else { preconditionFailure("an image background is never uniform") }
        let pixel = Pixmap(width: 1, height: 1)
        let canvas = Canvas(pixel.view)
        canvas.fill(pixel.view.bounds, .solid(c), blend: .source)
        Backdrop.draw(p.appearance.mask, color: p.appearance.backdropColor, alpha: p.backdropAlpha, screen: screenRect, into: canvas)
        canvas.flush()
        return pixel.view.row(0)[0]
    }

    /// `p` with the spinner rounded to its step (`spinnerSteps`).
    func stepped(_ p: HUDPresentation) -> HUDPresentation {
        guard spinnerSteps != nil, case .spinner = p.indicator else { return p }
        var q = p
        q.indicator = stepped(p.indicator)
        return q
    }

    private func stepped(_ indicator: HUDPresentation.Indicator) -> HUDPresentation.Indicator {
        guard let n = spinnerSteps, case .spinner(let e) = indicator else { return indicator }
        return .spinner(elapsed: n.rounded(e))
    }

    private func damaged(from old: Shown?, to p: HUDPresentation, hud: IntRect, indicator: IntRect) -> [IntRect] {
        guard let old else { return [screenRect] }
        let q = old.presentation
        if q == p { return [] }
        if Self.backdropDiffers(q, p) { return [screenRect] }
        if Self.withoutPhase(q) == Self.withoutPhase(p) && old.indicator == indicator && old.hud == hud {
            return indicator.isEmpty ? [] : [indicator]
        }
        let r = old.hud.union(hud)
        return r.isEmpty ? [] : [r]
    }

    /// The backdrop is drawn, and drawn differently, in one of the two.
    static func backdropDiffers(_ a: HUDPresentation, _ b: HUDPresentation) -> Bool {
        let drawsA = a.backdropAlpha != .zero && a.appearance.mask != .none
        let drawsB = b.backdropAlpha != .zero && b.appearance.mask != .none
        if !drawsA && !drawsB { return false }
        return drawsA != drawsB || a.backdropAlpha != b.backdropAlpha || a.appearance.mask != b.appearance.mask
            || a.appearance.backdropColor != b.appearance.backdropColor
    }

    /// The presentation with the indicator's animation phase taken out.
    static func withoutPhase(_ p: HUDPresentation) -> HUDPresentation {
        var q = p
        switch p.indicator {
        case .spinner: q.indicator = .spinner(elapsed: .zero)
        case .activity: q.indicator = .activity(elapsed: .zero)
        default: break
        }
        return q
    }

    /// The step of `p`'s indicator animation when its frames come round again: the activity
    /// indicator's head, the stepped spinner's step; nil for anything else.
    private func step(_ indicator: HUDPresentation.Indicator) -> Int32? {
        switch indicator {
        case .activity(let e): return ActivityIndicator.head(e)
        case .spinner(let e): return spinnerSteps?.index(e)
        default: return nil
        }
    }

    /// Redraws `rects` of `p` into `canvas`; the indicator box of a repeating `step` (only the
    /// step changed) is copied from the tile cache when it was drawn before, and stored when not.
    private func draw(_ rects: [IntRect], _ p: HUDPresentation, _ layout: HUDLayout, step: Int32?, into canvas: Canvas) {
        let step = rects.count == 1 ? step : nil
        if let step, tiles.copy(step: step, into: canvas.target) {
            return
        }
        for rect in rects { redraw(rect, p, layout, into: canvas) }
        canvas.flush()
        if let step { tiles.store(step: step, from: canvas.target) }
    }

    private func redraw(_ rect: IntRect, _ p: HUDPresentation, _ layout: HUDLayout, into canvas: Canvas) {
        canvas.clip = rect
        switch background {
        case .color(let c):
            canvas.fill(rect, .solid(c), blend: .source)
        case .image(let image):
            canvas.transform = .identity
            canvas.fill(.rect(Rect(x: .zero, y: .zero, width: Fixed16_16(width), height: Fixed16_16(height))),
                        .image(ImagePaint(image: image, in: Rect(x: .zero, y: .zero, width: Fixed16_16(width), height: Fixed16_16(height)))),
                        blend: .source)
        }
        painter.draw(p, layout: layout, into: canvas, scale: scale, screen: screenRect)
        canvas.clip = canvas.target.bounds
    }
}
