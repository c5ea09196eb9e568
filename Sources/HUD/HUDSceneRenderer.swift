// The scene renderer: keeps a frame (the RAM shadow buffer) showing a background and the HUD, and
// brings it up to date with each new presentation by redrawing only what changed.
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
import Assets
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
    /// The frame: premultiplied ARGB32, always complete after `render`.
    public let frame: Pixmap
    public let background: SceneBackground
    let canvas: Canvas
    let resources: HUDResources
    let painter = HUDPainter()

    private struct Shown {
        var presentation: HUDPresentation
        var hud: IntRect
        var indicator: IntRect
    }
    private var shown: Shown?
    private var cachedLayout: (key: HUDLayoutKey, layout: HUDLayout)?

    public init(width: Int32, height: Int32, scale: Fixed16_16 = .one, background: SceneBackground, resources: HUDResources) {
        precondition(width > 0 && height > 0 && scale.raw > 0, "bad scene size \(width)x\(height) at scale \(scale)")
        self.width = width; self.height = height; self.scale = scale; self.background = background
        self.resources = resources
        frame = Pixmap(width: width, height: height)
        canvas = Canvas(frame.view)
    }

    /// The screen in points.
    public var screen: Size { Size(width: Fixed16_16(width) / scale, height: Fixed16_16(height) / scale) }

    /// The layout of `p`, recomputed only when something it depends on changes.
    public func layout(for p: HUDPresentation) -> HUDLayout {
        let key = HUDLayoutKey(p, screen: screen)
        if let c = cachedLayout, c.key == key { return c.layout }
        let l = HUDLayout.compute(p, screen: screen, resources: resources)
        cachedLayout = (key, l)
        return l
    }

    /// What the frame pixel (x, y) shows of `p`: its centre in points, hit-tested on the layout.
    public func hit(x: Int32, y: Int32, _ p: HUDPresentation) -> HUDHit {
        let point = Point(x: (Fixed16_16(x) + .half) / scale, y: (Fixed16_16(y) + .half) / scale)
        return layout(for: p).hit(point)
    }

    /// Brings the frame up to `p` and returns the rects of pixels that changed (possibly none).
    @discardableResult
    public func render(_ p: HUDPresentation) -> [IntRect] {
        let layout = layout(for: p)
        let hud = p.alpha == .zero ? IntRect.zero : painter.bounds(p, layout: layout, scale: scale)
        let indicator = p.alpha == .zero ? IntRect.zero : painter.indicatorBounds(p, layout: layout, scale: scale)
        let damage = damaged(from: shown, to: p, hud: hud, indicator: indicator)
        shown = Shown(presentation: p, hud: hud, indicator: indicator)
        for rect in damage { redraw(rect, p, layout) }
        canvas.flush()
        return damage
    }

    private func damaged(from old: Shown?, to p: HUDPresentation, hud: IntRect, indicator: IntRect) -> [IntRect] {
        let screenRect = IntRect(x: 0, y: 0, width: width, height: height)
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

    private func redraw(_ rect: IntRect, _ p: HUDPresentation, _ layout: HUDLayout) {
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
        painter.draw(p, layout: layout, into: canvas, scale: scale)
        canvas.clip = IntRect(x: 0, y: 0, width: width, height: height)
    }
}
