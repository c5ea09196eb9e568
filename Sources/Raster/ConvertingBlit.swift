// SPDX-License-Identifier: MIT
// The present-time copy: damaged rects of the premultiplied ARGB32 shadow frame go into scanout
// memory, converted to the scanout format, dithered and rotated in one pass.
//
// How it walks memory. Every destination row of the damaged rect is a "span": consecutive output
// pixels whose source pixels are a straight line through the shadow frame, one fixed step apart
// (+1 pixel at r0, -1 at r180, minus or plus one source row at r90/r270). Spans are always WRITTEN
// in ascending address order, because scanout memory is usually write-combined or uncached and
// hates scattered stores. At r0/r180 a span is a whole row of the rect. At r90/r270 the reads go
// down a source column, so the rect is cut into tiles of 32 output columns x 16 output rows: one
// tile reads 32 source rows x 16 pixels (one 64-byte line each), which stay in L1 while the tile's
// 16 spans consume them.
//
// Formats are small encoder types (ConvertingBlit+Encoders.swift) that the span loop is
// specialised for, so the per-pixel store is a few inlined instructions; 565 quantises 8 pixels at
// a time in SIMD lanes. The 0° ARGB8888 copy on a little-endian host is a plain row memcpy: those
// bytes already are DRM's B G R A; 0° XRGB8888 (DRM's usual format) is the same memcpy from a
// frame its maker calls opaque (the HUD over an opaque screen colour), else a SIMD loop of its own.
//
// The X byte of XRGB8888/XBGR8888 is always written as 0xFF (not the source alpha, not "don't
// care") so scanout bytes are deterministic for goldens and screenshots whatever the frame holds.
// That costs nothing: the 0° XRGB8888 loop is `src | 0xFF000000` per word, which the compiler
// vectorises, and measured at 1920x1080 it runs at memcpy speed (both about 0.3 ms here).

/// Copies `rect` (in source pixels, clipped to the source) of a premultiplied ARGB32 frame into
/// scanout memory at its rotated place, converting to `destination.format`: the blit a DRM client
/// does into its dumb buffer before `drmModeAtomicCommit`/`drmModeDirtyFB`, or an fbdev client into
/// `/dev/fb0`.
///
/// - The output of a `W x H` source is `rotation.outputSize(...)`, anchored at the destination's
///   top-left; whatever falls outside the destination is clipped.
/// - A formats receive the premultiplied ARGB as is (DRM planes default to "Pre-multiplied" blending).
///   X formats get x = 0xFF, 888 and 565 formats drop alpha: a translucent source pixel shows as if
///   composited over black (its premultiplied colour).
/// - 565 formats: ordered dithering with a 4x4 Bayer matrix indexed by DESTINATION coordinates, so
///   updating any damaged rect produces the same bytes as converting the full frame; 0x00 and 0xFF
///   channels stay exact. With `dither: false`, channels round to nearest.
/// - Bytes are written in the format's little-endian order on any host.
///
/// Returns the destination rect written (for `drmModeDirtyFB` clips); empty if nothing was.
@discardableResult
public func convertingBlit(
    from source: PixmapView, rect: IntRect, to destination: SurfaceView, rotation: Rotation, dither: Bool = true
) -> IntRect {
    convertingBlit(from: source, rect: rect, to: destination, rotation: rotation, dither: dither, fastPaths: true)
}

/// The blit with the memcpy fast path optional, so tests can check it against the general loop.
@discardableResult
func convertingBlit(
    from source: PixmapView, rect: IntRect, to destination: SurfaceView, rotation: Rotation, dither: Bool,
    fastPaths: Bool
) -> IntRect {
    convertingBlit(from: source, frameWidth: source.bounds.maxX, frameHeight: source.bounds.maxY, rect: rect,
                   to: destination, rotation: rotation, dither: dither, fastPaths: fastPaths)
}

/// The blit from `source`, a part of a `frameWidth x frameHeight` frame at its own origin (or the
/// whole frame): rotation places the rect by the frame's size. `opaque`: every source pixel's
/// alpha is 0xFF (checked in debug builds), so XRGB8888's rows are the source's bytes.
func convertingBlit(
    from source: PixmapView, frameWidth: Int32, frameHeight: Int32, rect: IntRect, to destination: SurfaceView,
    rotation: Rotation, dither: Bool, fastPaths: Bool, opaque: Bool = false
) -> IntRect {
    let srcRect = rect.intersection(source.bounds).intersection(IntRect(x: 0, y: 0, width: frameWidth, height: frameHeight))
    if srcRect.isEmpty { return .zero }
    let out = rotation.outputSize(sourceWidth: frameWidth, sourceHeight: frameHeight)
    let dstRect = rotation.destinationRect(for: srcRect, sourceWidth: frameWidth, sourceHeight: frameHeight)
        .intersection(destination.bounds)
    if dstRect.isEmpty { return .zero }
    let job = BlitJob(
        source: source, destination: destination, rect: dstRect, rotation: rotation,
        outputWidth: out.width, outputHeight: out.height, dither: dither)

    #if _endian(little)
    if fastPaths && rotation == .r0 && (destination.format == .argb8888 || opaque && destination.format == .xrgb8888) {
        // DRM ARGB8888 is native 0xAARRGGBB stored little-endian: byte-identical to the source;
        // so is XRGB8888 with the X byte 0xFF, where every alpha already is.
        assert(!opaque || source.isOpaque(dstRect), "a frame said to be opaque has a translucent pixel in \(dstRect)")
        let bytes = Int(dstRect.width) * 4
        for y in dstRect.y..<dstRect.maxY {
            destination.pixelAddress(x: dstRect.x, y: y)
                .copyMemory(from: UnsafeRawPointer(source.row(y) + Int(dstRect.x)), byteCount: bytes)
        }
        return dstRect
    }
    if fastPaths && rotation == .r0 && destination.format == .xrgb8888 {
        // The words with their top byte set, eight at a time: the general span loop, compiled for
        // any step, checks the step and the overlap at every row, which on a narrow rect (the
        // spinner's box, about 60 pixels) cost as much as its pixels.
        let n = Int(dstRect.width)
        var from = UnsafeRawPointer(source.row(dstRect.y) + Int(dstRect.x))
        var to = destination.pixelAddress(x: dstRect.x, y: dstRect.y)
        let opaque = SIMD8<UInt32>(repeating: 0xFF00_0000)
        for _ in 0..<dstRect.height {
            var i = 0
            while i &+ 8 <= n {
                let v = from.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt32>.self)
                (to + i &* 4).storeBytes(of: v | opaque, as: SIMD8<UInt32>.self)
                i &+= 8
            }
            while i < n {
                (to + i &* 4).storeBytes(of: from.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self) | 0xFF00_0000, as: UInt32.self)
                i &+= 1
            }
            from += source.rowBytes
            to += destination.rowBytes
        }
        return dstRect
    }
    #endif

    switch destination.format {
    case .argb8888: job.run(ARGB8888Encoder.self)
    case .xrgb8888: job.run(XRGB8888Encoder.self)
    case .abgr8888: job.run(ABGR8888Encoder.self)
    case .xbgr8888: job.run(XBGR8888Encoder.self)
    case .rgb888: job.run(RGB888Encoder.self)
    case .bgr888: job.run(BGR888Encoder.self)
    case .rgb565: job.run(RGB565Encoder.self)
    case .bgr565: job.run(BGR565Encoder.self)
    }
    return dstRect
}

/// One clipped blit: the destination rect to fill and how to find each output pixel's source.
struct BlitJob {
    let source: PixmapView
    let destination: SurfaceView
    /// Destination pixels to write (already clipped to both surfaces).
    let rect: IntRect
    let rotation: Rotation
    /// The rotated source size: the inverse mapping works in this space.
    let outputWidth: Int32
    let outputHeight: Int32
    let dither: Bool

    static let tileWidth: Int32 = 32
    static let tileHeight: Int32 = 16

    /// Source pixels between two horizontally adjacent output pixels, in `UInt32`s.
    var sourceStep: Int {
        let rowStride = source.rowBytes / 4
        switch rotation {
        case .r0: return 1
        case .r90: return -rowStride  // output x grows as source y shrinks
        case .r180: return -1
        case .r270: return rowStride
        }
    }

    /// The source pixel shown at output pixel (x, y).
    func sourcePixel(x: Int32, y: Int32) -> UnsafePointer<UInt32> {
        let s = rotation.inverse.destinationPoint(x: x, y: y, sourceWidth: outputWidth, sourceHeight: outputHeight)
        return UnsafePointer(source.row(s.y) + Int(s.x))
    }

    /// Converts every pixel of `rect`, span by span (tiled when the reads go down columns).
    @inline(__always)
    func run<E: ScanoutEncoder>(_ encoder: E.Type) {
        let step = sourceStep
        if !rotation.swapsAxes {
            // Row after row from the first span's pointers, each moved on by a row (the source goes
            // down at r0 and up at r180), rather than mapping every row's start through the rotation.
            var src = sourcePixel(x: rect.x, y: rect.y)
            var dst = destination.pixelAddress(x: rect.x, y: rect.y)
            let sourceRow = rotation == .r0 ? source.rowBytes / 4 : -(source.rowBytes / 4)
            for y in rect.y..<rect.maxY {
                span(E.self, from: src, to: dst, x: rect.x, y: y, count: rect.width, step: step)
                src += sourceRow
                dst += destination.rowBytes
            }
            return
        }
        var ty = rect.y
        while ty < rect.maxY {
            let y1 = Swift.min(ty &+ BlitJob.tileHeight, rect.maxY)
            var tx = rect.x
            while tx < rect.maxX {
                let count = Swift.min(BlitJob.tileWidth, rect.maxX &- tx)
                for y in ty..<y1 { span(E.self, x: tx, y: y, count: count, step: step) }
                tx &+= BlitJob.tileWidth
            }
            ty = y1
        }
    }

    /// Writes `count` output pixels from (x, y) rightwards.
    @inline(__always)
    func span<E: ScanoutEncoder>(_: E.Type, x: Int32, y: Int32, count: Int32, step: Int) {
        span(E.self, from: sourcePixel(x: x, y: y), to: destination.pixelAddress(x: x, y: y), x: x, y: y, count: count, step: step)
    }

    /// The span from (x, y) whose first source pixel is `src` and first output pixel `dst`.
    @inline(__always)
    func span<E: ScanoutEncoder>(
        _: E.Type, from src: UnsafePointer<UInt32>, to dst: UnsafeMutableRawPointer, x: Int32, y: Int32, count: Int32, step: Int
    ) {
        let n = Int(count), bpp = E.bytesPerPixel
        if !E.usesThreshold {
            for i in 0..<n { E.store(src[i &* step], threshold: 0, to: dst + i &* bpp) }
            return
        }
        // The four thresholds of this output row, rotated so t0 belongs to pixel x; then groups of
        // four pixels reuse them as constants (the dither pattern repeats every 4 pixels).
        let row = dither ? Dither.row(y) : Dither.roundToNearest
        let phase = (UInt32(bitPattern: x) & 3) << 3
        let t = phase == 0 ? row : (row >> phase | row << (32 &- phase))
        let t0 = t & 0xFF, t1 = t >> 8 & 0xFF, t2 = t >> 16 & 0xFF, t3 = t >> 24
        let t4 = SIMD4<UInt16>(truncatingIfNeeded: SIMD4<UInt32>(t0, t1, t2, t3))
        let t8 = SIMD8<UInt16>(lowHalf: t4, highHalf: t4)
        var i = 0
        while i &+ 8 <= n {
            var v = SIMD8<UInt32>()
            if step == 1 {
                v = UnsafeRawPointer(src + i).loadUnaligned(as: SIMD8<UInt32>.self)
            } else {
                for k in 0..<8 { v[k] = src[(i &+ k) &* step] }
            }
            E.store8(v, thresholds: t8, to: dst + i &* bpp)
            i &+= 8
        }
        while i < n {
            E.store(src[i &* step], threshold: UInt32(t8[i & 3]), to: dst + i &* bpp)
            i &+= 1
        }
    }
}
