// SPDX-License-Identifier: MIT
// The four things timed per frame: SplashHUD's rasterizer, cairo (through CCairoScene), and the
// memory-bandwidth floor (memset / memcpy of the same pixels).
import CCairoScene
import Gallery
import Glibc
import Raster

enum BenchError: Error, CustomStringConvertible {
    case cairoSetup(String)
    case cairoDraw(frame: Int)
    case option(String)

    var description: String {
        switch self {
        case .cairoSetup(let why): return "cairo scene setup failed: \(why)"
        case .cairoDraw(let n): return "cairo reported an error drawing frame \(n)"
        case .option(let why): return why
        }
    }
}

/// Nanoseconds on the monotonic clock.
@inline(__always) func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// SplashHUD drawing the reference frame into its own pixmap, with one reused canvas.
final class SplashEngine {
    let scene: ReferenceFrame
    /// The full1080 scene, for frame 0 of damage1080 (the damage scene always clips).
    let fullScene: ReferenceFrame
    let pixmap: Pixmap
    let canvas: Canvas

    init(_ variant: ReferenceFrame.Variant) throws {
        scene = try ReferenceFrame(variant)
        fullScene = variant == .damage1080 ? try ReferenceFrame(.full1080) : scene
        pixmap = Pixmap(width: scene.geometry.width, height: scene.geometry.height)
        canvas = Canvas(pixmap.view)
    }

    func drawFull(frame n: Int) { fullScene.draw(frame: n, into: canvas) }
    func draw(frame n: Int) { scene.draw(frame: n, into: canvas) }
}

/// cairo drawing the same frame into its own pixmap (cairo ARGB32 has the same layout).
final class CairoEngine {
    let pixmap: Pixmap
    let damage: Bool
    private let scene: OpaquePointer

    init(_ variant: ReferenceFrame.Variant) throws {
        let g = ReferenceFrame.geometry(variant)
        pixmap = Pixmap(width: g.width, height: g.height)
        damage = g.damage != nil
        let d = g.damage ?? IntRect(x: 0, y: 0, width: g.width, height: g.height)
        var cg = ccs_geometry(
            width: g.width, height: g.height,
            bezel_x: g.bezel.minX.double, bezel_y: g.bezel.minY.double, bezel_size: g.bezel.size.width.double,
            corner_radius: g.cornerRadius.double,
            ring_cx: g.ringCenter.x.double, ring_cy: g.ringCenter.y.double, ring_radius: g.ringRadius.double,
            stroke_width: g.strokeWidth.double, text_size: g.textSize.double, baseline: g.baseline.double,
            damage_x: d.x, damage_y: d.y, damage_width: d.width, damage_height: d.height)
        let text = ReferenceFrame.status.unicodeScalars.map { $0.value }
        var message = [CChar](repeating: 0, count: 512)
        let view = pixmap.view
        let made = ccs_scene_create(view.base.assumingMemoryBound(to: UInt8.self), Int32(view.rowBytes), &cg,
                                    ReferenceFrame.fontPath, text, Int32(text.count), &message, message.count)
        guard let made else {
            throw BenchError.cairoSetup(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        scene = made
    }
    deinit { ccs_scene_destroy(scene) }

    func drawFull(frame n: Int) throws {
        if ccs_scene_draw(scene, Int32(n), 0) != 0 { throw BenchError.cairoDraw(frame: n) }
    }
    func draw(frame n: Int) throws {
        if ccs_scene_draw(scene, Int32(n), damage ? 1 : 0) != 0 { throw BenchError.cairoDraw(frame: n) }
    }

    var textAdvance: Double { ccs_scene_text_advance(scene) }
}

/// memset and memcpy over the pixels a frame covers: the whole canvas (one call) or, for damage,
/// the rows of the damage rect in a canvas-sized buffer.
final class MemoryEngine {
    let rect: IntRect
    let whole: Bool
    private let setTarget: Pixmap
    private let source: Pixmap
    private let destination: Pixmap

    init(_ variant: ReferenceFrame.Variant) {
        let g = ReferenceFrame.geometry(variant)
        whole = g.damage == nil
        rect = g.damage ?? IntRect(x: 0, y: 0, width: g.width, height: g.height)
        setTarget = Pixmap(width: g.width, height: g.height)
        source = Pixmap(width: g.width, height: g.height)
        destination = Pixmap(width: g.width, height: g.height)
        // Touch every page now, so the first timed calls do not pay for page faults.
        memset(source.view.base, 0x5A, Int(g.width) * Int(g.height) * 4)
        memset(destination.view.base, 0, Int(g.width) * Int(g.height) * 4)
    }

    /// Bytes each call writes.
    var bytes: Int { Int(rect.width) * Int(rect.height) * 4 }

    func memsetFrame(_ n: Int) {
        let value = Int32(n & 0xFF)
        let v = setTarget.view
        if whole { memset(v.base, value, bytes); return }
        for y in rect.y..<rect.maxY { memset(v.row(y) + Int(rect.x), value, Int(rect.width) * 4) }
    }

    func memcpyFrame() {
        let s = source.view, d = destination.view
        if whole { memcpy(d.base, s.base, bytes); return }
        for y in rect.y..<rect.maxY { memcpy(d.row(y) + Int(rect.x), s.row(y) + Int(rect.x), Int(rect.width) * 4) }
    }

    /// A value that depends on what was written, so the calls cannot be optimised away.
    var witness: UInt32 { setTarget.view.row(rect.y)[Int(rect.x)] &+ destination.view.row(rect.maxY - 1)[Int(rect.maxX - 1)] }
}
