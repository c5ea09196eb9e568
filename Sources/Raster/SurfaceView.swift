// SPDX-License-Identifier: MIT
// A view over scanout memory in any of the DRM formats: what the display copies frames into, and
// what tests and screenshot comparison read back.

/// A view over caller-owned pixels in a `PixelFormat` with any row stride: a mapped DRM dumb buffer
/// (`DRM_IOCTL_MODE_MAP_DUMB` + mmap, `pitch` as `rowBytes`) or an mmap'd `/dev/fb0` (`line_length`).
/// The view never frees the memory and needs no alignment.
public struct SurfaceView: @unchecked Sendable {
    /// The first byte of row 0 (the mmap'd address, plus the buffer's `offsets[0]` if any).
    public let base: UnsafeMutableRawPointer
    /// Pixels per row (`drm_mode_create_dumb.width`, fbdev `xres_virtual`).
    public let width: Int32
    /// Rows (`drm_mode_create_dumb.height`, fbdev `yres`).
    public let height: Int32
    /// Bytes from one row to the next (DRM `pitch`, fbdev `fix.line_length`).
    public let rowBytes: Int
    /// The pixel layout (the framebuffer's `DRM_FORMAT_*`, from `drmModeAddFB2` or fbdev bitfields).
    public let format: PixelFormat

    /// Wraps `base`; `rowBytes` must hold a row of `width` pixels in `format`.
    public init(base: UnsafeMutableRawPointer, width: Int32, height: Int32, rowBytes: Int, format: PixelFormat) {
        precondition(width >= 0 && height >= 0, "negative surface size \(width)x\(height)")
        precondition(rowBytes >= Int(width) * format.bytesPerPixel, "row stride \(rowBytes) too small for \(width) \(format.name) pixels")
        self.base = base; self.width = width; self.height = height; self.rowBytes = rowBytes; self.format = format
    }

    /// The whole surface, (0, 0, width x height): the full-frame `drm_mode_rect` clip.
    @inlinable public var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    /// The first byte of pixel (x, y) (the `offset = y * pitch + x * cpp` of every DRM client).
    @inlinable public func pixelAddress(x: Int32, y: Int32) -> UnsafeMutableRawPointer {
        base + Int(y) * rowBytes + Int(x) * format.bytesPerPixel
    }

    /// Pixel (x, y) decoded to premultiplied ARGB32, as a scanout engine would read it: X formats read
    /// as opaque, 5/6-bit channels widen by bit replication (`r << 3 | r >> 2`, like pixman).
    public func readPixel(x: Int32, y: Int32) -> PremultipliedColor {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside the \(width)x\(height) surface")
        let p = UnsafeRawPointer(pixelAddress(x: x, y: y))
        func byte(_ i: Int) -> UInt8 { p.load(fromByteOffset: i, as: UInt8.self) }
        switch format {
        case .argb8888: return PremultipliedColor(a: byte(3), r: byte(2), g: byte(1), b: byte(0))
        case .xrgb8888: return PremultipliedColor(a: 0xFF, r: byte(2), g: byte(1), b: byte(0))
        case .abgr8888: return PremultipliedColor(a: byte(3), r: byte(0), g: byte(1), b: byte(2))
        case .xbgr8888: return PremultipliedColor(a: 0xFF, r: byte(0), g: byte(1), b: byte(2))
        case .rgb888: return PremultipliedColor(a: 0xFF, r: byte(2), g: byte(1), b: byte(0))
        case .bgr888: return PremultipliedColor(a: 0xFF, r: byte(0), g: byte(1), b: byte(2))
        case .rgb565, .bgr565:
            let v = UInt16(byte(0)) | UInt16(byte(1)) << 8
            let hi = UInt8(truncatingIfNeeded: v >> 11), lo = UInt8(truncatingIfNeeded: v & 0x1F)
            let g6 = UInt8(truncatingIfNeeded: (v >> 5) & 0x3F)
            let (r5, b5) = format == .rgb565 ? (hi, lo) : (lo, hi)
            return PremultipliedColor(a: 0xFF, r: r5 << 3 | r5 >> 2, g: g6 << 2 | g6 >> 4, b: b5 << 3 | b5 >> 2)
        }
    }

    /// The whole surface decoded into a new premultiplied ARGB32 pixmap (for goldens and screenshots).
    public func toPixmap() -> Pixmap {
        let out = Pixmap(width: width, height: height)
        for y in 0..<Int(height) {
            let row = out.view.row(Int32(y))
            switch format {
            case .argb8888, .xrgb8888:
                // ARGB32 already, as little-endian words: one load a pixel (X formats made opaque).
                let source = UnsafeRawPointer(pixelAddress(x: 0, y: Int32(y)))
                let opaque: UInt32 = format == .xrgb8888 ? 0xFF00_0000 : 0
                for x in 0..<Int(width) {
                    row[x] = UInt32(littleEndian: source.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)) | opaque
                }
            default:
                for x in 0..<Int(width) { row[x] = readPixel(x: Int32(x), y: Int32(y)).argb }
            }
        }
        return out
    }
}
