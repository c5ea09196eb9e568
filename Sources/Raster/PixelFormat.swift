// SPDX-License-Identifier: MIT
// Scanout pixel formats, named and laid out exactly as Linux's drm_fourcc.h defines them.
//
// DRM formats describe a LITTLE-ENDIAN packed word: "[31:0] x:R:G:B 8:8:8:8 little endian" means the
// pixel value has R in bits 23..16 and so on, and the word is stored least significant byte first.
// So the bytes in memory are fixed whatever the host's byte order:
//
//   format     fourcc  bytes in memory (lowest address first)
//   ARGB8888   AR24    B G R A
//   XRGB8888   XR24    B G R X
//   ABGR8888   AB24    R G B A
//   XBGR8888   XB24    R G B X
//   RGB888     RG24    B G R
//   BGR888     BG24    R G B
//   RGB565     RG16    value r<<11 | g<<5 | b, low byte first  (pure red: 00 F8)
//   BGR565     BG16    value b<<11 | g<<5 | r, low byte first  (pure red: 1F 00)

/// A scanout pixel format: one of the `DRM_FORMAT_*` codes of drm_fourcc.h (little-endian packed).
public enum PixelFormat: CaseIterable, Sendable {
    /// `DRM_FORMAT_ARGB8888`: [31:0] A:R:G:B 8:8:8:8 little endian.
    case argb8888
    /// `DRM_FORMAT_XRGB8888`: [31:0] x:R:G:B 8:8:8:8 little endian.
    case xrgb8888
    /// `DRM_FORMAT_ABGR8888`: [31:0] A:B:G:R 8:8:8:8 little endian.
    case abgr8888
    /// `DRM_FORMAT_XBGR8888`: [31:0] x:B:G:R 8:8:8:8 little endian.
    case xbgr8888
    /// `DRM_FORMAT_RGB888`: [23:0] R:G:B little endian.
    case rgb888
    /// `DRM_FORMAT_BGR888`: [23:0] B:G:R little endian.
    case bgr888
    /// `DRM_FORMAT_RGB565`: [15:0] R:G:B 5:6:5 little endian.
    case rgb565
    /// `DRM_FORMAT_BGR565`: [15:0] B:G:R 5:6:5 little endian.
    case bgr565

    /// Bytes per pixel (DRM's `cpp`, libdrm `util/format.c`).
    @inlinable public var bytesPerPixel: Int {
        switch self {
        case .argb8888, .xrgb8888, .abgr8888, .xbgr8888: return 4
        case .rgb888, .bgr888: return 3
        case .rgb565, .bgr565: return 2
        }
    }

    /// Whether the format stores alpha (the `A` formats; DRM planes blend it as premultiplied).
    @inlinable public var hasAlpha: Bool {
        switch self {
        case .argb8888, .abgr8888: return true
        default: return false
        }
    }

    /// The `DRM_FORMAT_*` code: `fourcc_code(a, b, c, d)` = a | b << 8 | c << 16 | d << 24.
    public var drmFourCC: UInt32 {
        switch self {
        case .argb8888: return 0x3432_5241  // "AR24"
        case .xrgb8888: return 0x3432_5258  // "XR24"
        case .abgr8888: return 0x3432_4241  // "AB24"
        case .xbgr8888: return 0x3432_4258  // "XB24"
        case .rgb888: return 0x3432_4752  // "RG24"
        case .bgr888: return 0x3432_4742  // "BG24"
        case .rgb565: return 0x3631_4752  // "RG16"
        case .bgr565: return 0x3631_4742  // "BG16"
        }
    }

    /// The format's name without the `DRM_FORMAT_` prefix, e.g. "XRGB8888" (as modetest prints it).
    public var name: String {
        switch self {
        case .argb8888: return "ARGB8888"
        case .xrgb8888: return "XRGB8888"
        case .abgr8888: return "ABGR8888"
        case .xbgr8888: return "XBGR8888"
        case .rgb888: return "RGB888"
        case .bgr888: return "BGR888"
        case .rgb565: return "RGB565"
        case .bgr565: return "BGR565"
        }
    }

    /// The format with this `DRM_FORMAT_*` code (a plane's `IN_FORMATS` entry), or nil if unsupported.
    public init?(drmFourCC: UInt32) {
        guard let f = PixelFormat.allCases.first(where: { $0.drmFourCC == drmFourCC }) else { return nil }
        self = f
    }

    /// The format named `name` ("XRGB8888", "rgb565"; libdrm `util_format_info_find` by name), or nil.
    public init?(name: String) {
        let upper = name.uppercased()
        guard let f = PixelFormat.allCases.first(where: { $0.name == upper }) else { return nil }
        self = f
    }
}

extension PixelFormat {
    /// The format an fbdev `fb_var_screeninfo` describes (`bits_per_pixel` and the red, green, blue and
    /// `transp` `fb_bitfield`s as (offset, length)), or nil when it is none of these formats.
    ///
    /// Interpretation: fbdev bit offsets count from the least significant bit of the pixel value as
    /// the CPU reads it from framebuffer memory, i.e. in HOST byte order (fbdev has no byte-order field;
    /// framebuffers with `FB_FOREIGN_ENDIAN` are not supported). On a little-endian host that is
    /// exactly DRM's little-endian word. On a big-endian host the bytes of that word are reversed in
    /// memory, so byte-aligned 8-bit fields are mapped to the mirrored byte (32 bpp red at 16 is the
    /// DRM layout with red at 8), and 16 bpp 5:6:5 has no little-endian equivalent: nil.
    /// `msb_right` must be 0 (it always is in practice); a `transp` length of 0 means an X format.
    public init?(
        fbdevBitsPerPixel bitsPerPixel: UInt32,
        red: (offset: UInt32, length: UInt32),
        green: (offset: UInt32, length: UInt32),
        blue: (offset: UInt32, length: UInt32),
        alpha: (offset: UInt32, length: UInt32)
    ) {
        #if _endian(little)
        let hostIsLittleEndian = true
        #else
        let hostIsLittleEndian = false
        #endif
        self.init(
            fbdevBitsPerPixel: bitsPerPixel, red: red, green: green, blue: blue, alpha: alpha,
            hostIsLittleEndian: hostIsLittleEndian)
    }

    /// The fbdev mapping for a given host byte order, so tests can check the big-endian reading.
    init?(
        fbdevBitsPerPixel bitsPerPixel: UInt32,
        red: (offset: UInt32, length: UInt32),
        green: (offset: UInt32, length: UInt32),
        blue: (offset: UInt32, length: UInt32),
        alpha: (offset: UInt32, length: UInt32),
        hostIsLittleEndian: Bool
    ) {
        typealias Field = (offset: UInt32, length: UInt32)
        var fields: [Field] = [red, green, blue]
        if alpha.length != 0 { fields.append(alpha) }
        let bytes = bitsPerPixel / 8
        guard bitsPerPixel % 8 == 0, bytes >= 2, bytes <= 4 else { return nil }
        for f in fields where f.length == 0 || f.offset + f.length > bitsPerPixel { return nil }
        if !hostIsLittleEndian {
            // Mirror each byte-aligned byte-sized field into its little-endian position.
            for f in fields where f.length != 8 || f.offset % 8 != 0 { return nil }
            fields = fields.map { (offset: (bytes - 1 - $0.offset / 8) * 8, length: $0.length) }
        }
        let (r, g, b) = (fields[0], fields[1], fields[2])
        let a: Field? = fields.count == 4 ? fields[3] : nil
        func match(_ rr: Field, _ gg: Field, _ bb: Field) -> Bool {
            r == rr && g == gg && b == bb
        }
        switch bitsPerPixel {
        case 32:
            let rgb = match((16, 8), (8, 8), (0, 8)), bgr = match((0, 8), (8, 8), (16, 8))
            if let a {
                guard a == (24, 8) else { return nil }
                if rgb { self = .argb8888 } else if bgr { self = .abgr8888 } else { return nil }
            } else {
                if rgb { self = .xrgb8888 } else if bgr { self = .xbgr8888 } else { return nil }
            }
        case 24:
            guard a == nil else { return nil }
            if match((16, 8), (8, 8), (0, 8)) {
                self = .rgb888
            } else if match((0, 8), (8, 8), (16, 8)) {
                self = .bgr888
            } else {
                return nil
            }
        case 16:
            guard a == nil else { return nil }
            if match((11, 5), (5, 6), (0, 5)) {
                self = .rgb565
            } else if match((0, 5), (5, 6), (11, 5)) {
                self = .bgr565
            } else {
                return nil
            }
        default:
            return nil
        }
    }
}
