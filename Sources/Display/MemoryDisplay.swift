// A display with no hardware: scanout memory is a heap buffer in the output's real pixel format,
// written by the same convertingBlit as fbdev and DRM, so tests read exactly the bytes a panel
// would get (565 dithering, rotation, X bytes). It is the reference the QEMU end-to-end tests
// compare real drivers' screendumps with, and what `splashhud render` style tools can record.
// Vsync is virtual: present number n (from 1) is shown at vblank n, n · frameInterval ns after
// the display's time origin (0), so pacing tests are deterministic.

import Raster

/// A `Display` whose screen is memory.
public final class MemoryDisplay: Display {
    public let outputs: [DisplayOutput]
    /// The scanout buffer (mode size, the output's format, tight rows).
    public let scanout: SurfaceView
    /// Whether 565 output is dithered (see convertingBlit).
    public let dither: Bool
    /// Whether present reports virtual vblanks (`.vblank`) or none (`.immediate`).
    public let hasVSync: Bool
    /// Completed presents.
    public private(set) var presentCount = 0
    /// The scanout rects the last present wrote (after rotation), in the order written.
    public private(set) var lastWrittenRects: [IntRect] = []
    /// Whether `close` ran, and how.
    public private(set) var closedAs: CloseBehaviour?

    private let storage: UnsafeMutableRawPointer
    private let byteCount: Int

    /// A `width x height` scanout (the panel's size, before `rotation` is undone by the panel) in
    /// `format`, starting black (all bytes zero). `refreshMillihertz` nil means no vsync.
    public init(
        width: Int32, height: Int32, format: PixelFormat = .xrgb8888, rotation: Rotation = .r0,
        refreshMillihertz: Int32? = 60_000, dither: Bool = true, name: String = "memory"
    ) {
        precondition(width > 0 && height > 0, "memory display size \(width)x\(height)")
        let rowBytes = Int(width) * format.bytesPerPixel
        byteCount = rowBytes * Int(height)
        storage = .allocate(byteCount: byteCount, alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
        scanout = SurfaceView(base: storage, width: width, height: height, rowBytes: rowBytes, format: format)
        let mode = DisplayMode(width: width, height: height, refreshMillihertz: refreshMillihertz ?? 60_000)
        outputs = [DisplayOutput(name: name, mode: mode, format: format, rotation: rotation)]
        hasVSync = refreshMillihertz != nil
        self.dither = dither
    }

    deinit { storage.deallocate() }

    public var frameIntervalNanoseconds: Int64 { outputs[0].mode.frameIntervalNanoseconds }

    public func present(_ frame: PixmapView, damage: [IntRect]) throws(DisplayError) -> PresentTiming {
        guard closedAs == nil else { throw .closed }
        let output = outputs[0]
        guard frame.width == output.frameWidth, frame.height == output.frameHeight else {
            throw .frameSizeMismatch(
                expectedWidth: output.frameWidth, expectedHeight: output.frameHeight, width: frame.width, height: frame.height)
        }
        lastWrittenRects = damage.compactMap { r in
            let written = convertingBlit(from: frame, rect: r, to: scanout, rotation: output.rotation, dither: dither)
            return written.isEmpty ? nil : written
        }
        presentCount += 1
        return hasVSync ? .vblank(nanoseconds: Int64(presentCount) * frameIntervalNanoseconds) : .immediate
    }

    /// The screen as a viewer would see the panel's scanout: decoded to premultiplied ARGB32,
    /// `mode.width x mode.height` (rotated when the output is; use `shownUnrotated()` to compare
    /// with HUD frames).
    public func shown() -> Pixmap { scanout.toPixmap() }

    /// The screen turned back by the output's rotation: the frame as the HUD drew it, after format
    /// conversion. Equal to the presented frame for opaque frames in 8888 formats.
    public func shownUnrotated() -> Pixmap {
        let output = outputs[0]
        let out = Pixmap(width: output.frameWidth, height: output.frameHeight)
        for y in 0..<out.height {
            let row = out.view.row(y)
            for x in 0..<out.width {
                let p = output.rotation.destinationPoint(x: x, y: y, sourceWidth: out.width, sourceHeight: out.height)
                row[Int(x)] = scanout.readPixel(x: p.x, y: p.y).argb
            }
        }
        return out
    }

    /// The raw scanout bytes (rows of `mode.width` pixels in `format`, no padding).
    public var scanoutBytes: [UInt8] { Array(UnsafeRawBufferPointer(start: storage, count: byteCount)) }

    public func close(_ how: CloseBehaviour) {
        guard closedAs == nil else { return }
        closedAs = how
        // What was "on screen" before is the black it started with.
        if how == .restore { storage.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount) }
    }
}
