// SPDX-License-Identifier: MIT
// Plays a script of timed commands on a virtual clock: what `splashhud render` and the demo use to
// draw any instant of a HUD's life headless and deterministically (the same script gives the same
// frames and events, byte for byte).
import HUDProtocol
import Raster

public final class ScriptPlayer {
    public let clock = ManualClock()
    public let controller: HUDController
    public let renderer: HUDSceneRenderer
    private let script: [TimedCommand]
    private var next = 0

    public init(script: [TimedCommand], renderer: HUDSceneRenderer, appearance: HUDAppearance = HUDAppearance()) {
        self.script = script
        self.renderer = renderer
        controller = HUDController(clock: clock, appearance: appearance)
    }

    /// Moves the clock to `t` (not before now), applying every command due by then in order and
    /// firing the controller's timers in between.
    public func advance(to t: Instant) {
        while next < script.count && script[next].time <= t {
            let c = script[next]
            if c.time > clock.now { clock.advance(to: c.time) }
            controller.update()
            controller.apply(c.command)
            next += 1
        }
        if t > clock.now { clock.advance(to: t) }
        controller.update()
    }

    /// The frame at `t` (not before now) and the rects that changed since the last one.
    @discardableResult
    public func render(at t: Instant) -> [IntRect] {
        advance(to: t)
        let content = controller.frameContent(showing: renderer.shows(generation:))
        return renderer.render(content, generation: controller.presentationGeneration)
    }

    /// Plays past the last command until nothing is scheduled any more (or `limit` after it), so
    /// the event log is complete; returns every event.
    public func playToEnd(limit: Interval = .seconds(600)) -> [HUDEvent] {
        let last = script.last?.time ?? .zero
        advance(to: max(clock.now, last))
        let end = last + limit
        while let t = controller.nextEventTime(), t <= end, t > clock.now { advance(to: t) }
        return controller.events
    }
}

extension PixmapView {
    /// This frame as a panel showing it in `format` and `rotation` would: converted (565 dithered),
    /// rotated, and read back to premultiplied ARGB32 for a PNG.
    public func asScanout(format: PixelFormat, rotation: Rotation) -> Pixmap {
        let size = rotation.outputSize(sourceWidth: width, sourceHeight: height)
        let rowBytes = Int(size.width) * format.bytesPerPixel
        let rowStride = (rowBytes + 3) & ~3
        var memory = [UInt8](repeating: 0, count: rowStride * Int(size.height))
        return memory.withUnsafeMutableBytes { bytes in
            let surface = SurfaceView(base: bytes.baseAddress!, width: size.width, height: size.height, rowBytes: rowStride, format: format)
            convertingBlit(from: self, rect: bounds, to: surface, rotation: rotation)
            return surface.toPixmap()
        }
    }
}
