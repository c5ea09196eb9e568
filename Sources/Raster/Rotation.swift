// SPDX-License-Identifier: MIT
// How the rendered frame is turned on its way into scanout memory, for panels mounted rotated.
//
// Coordinates are pixels, origin top-left, x right, y down. A source frame of W x H pixels becomes an
// output of W x H (r0, r180) or H x W (r90, r270). Source pixel (x, y) lands at:
//
//   r0    (x,          y)
//   r90   (H - 1 - y,  x)          the image turned 90° CLOCKWISE: source top-left -> output top-right
//   r180  (W - 1 - x,  H - 1 - y)
//   r270  (y,          W - 1 - x)  the image turned 90° counter-clockwise: top-left -> bottom-left
//
// So r90 is what a panel needs that is mounted turned 90° counter-clockwise (its scanout's top row
// runs up the viewer's LEFT edge, its top-right corner at the viewer's top-left): the image is
// turned clockwise in memory, the panel turns it back, and the viewer sees it upright.
// This is fbcon's `FB_ROTATE_CW` (`fbcon=rotate:1`). Note DRM's plane property is the other way:
// `DRM_MODE_ROTATE_90` is counter-clockwise, so `.r90` equals `DRM_MODE_ROTATE_270`.

/// A rotation by a multiple of 90° CLOCKWISE applied on output (fbcon `FB_ROTATE_*`; see the header).
public enum Rotation: Int, CaseIterable, Sendable {
    /// `FB_ROTATE_UR` (`DRM_MODE_ROTATE_0`): as rendered.
    case r0 = 0
    /// `FB_ROTATE_CW` (`DRM_MODE_ROTATE_270`): turned 90° clockwise, output H x W.
    case r90 = 90
    /// `FB_ROTATE_UD` (`DRM_MODE_ROTATE_180`): upside down.
    case r180 = 180
    /// `FB_ROTATE_CCW` (`DRM_MODE_ROTATE_90`): turned 90° counter-clockwise, output H x W.
    case r270 = 270

    /// The case's name (`r90`), as `"\(rotation)"` writes it but by a switch: interpolating the
    /// enum itself goes through reflection (Mirror), which costs a first run over a million
    /// instructions of run-time type lookups.
    public var name: String {
        switch self {
        case .r0: return "r0"
        case .r90: return "r90"
        case .r180: return "r180"
        case .r270: return "r270"
        }
    }

    /// The rotation that undoes this one (`r90` <-> `r270`): maps output pixels back to source pixels.
    @inlinable public var inverse: Rotation {
        switch self {
        case .r0: return .r0
        case .r90: return .r270
        case .r180: return .r180
        case .r270: return .r90
        }
    }

    /// Whether width and height swap (fbdev's `xres`/`yres` versus the HUD's size).
    @inlinable public var swapsAxes: Bool { self == .r90 || self == .r270 }

    /// The output size for a source of `sourceWidth x sourceHeight` (the scanout mode's size).
    @inlinable public func outputSize(sourceWidth: Int32, sourceHeight: Int32) -> (width: Int32, height: Int32) {
        swapsAxes ? (sourceHeight, sourceWidth) : (sourceWidth, sourceHeight)
    }

    /// Where source pixel (x, y) lands in the output (the mapping table in the header; fbcon's rotated
    /// console does the same per glyph).
    @inlinable public func destinationPoint(
        x: Int32, y: Int32, sourceWidth: Int32, sourceHeight: Int32
    ) -> (x: Int32, y: Int32) {
        switch self {
        case .r0: return (x, y)
        case .r90: return (sourceHeight - 1 - y, x)
        case .r180: return (sourceWidth - 1 - x, sourceHeight - 1 - y)
        case .r270: return (y, sourceWidth - 1 - x)
        }
    }

    /// The output rect covered by `sourceRect` (a damage rect as `drm_mode_rect`/`FB_DAMAGE_CLIPS`
    /// will carry it after rotation).
    @inlinable public func destinationRect(for r: IntRect, sourceWidth: Int32, sourceHeight: Int32) -> IntRect {
        switch self {
        case .r0: return r
        case .r90: return IntRect(x: sourceHeight - r.maxY, y: r.x, width: r.height, height: r.width)
        case .r180: return IntRect(x: sourceWidth - r.maxX, y: sourceHeight - r.maxY, width: r.width, height: r.height)
        case .r270: return IntRect(x: r.y, y: sourceWidth - r.maxX, width: r.height, height: r.width)
        }
    }
}
