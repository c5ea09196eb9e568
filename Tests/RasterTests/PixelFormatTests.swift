// SPDX-License-Identifier: MIT
// PixelFormat: the drm_fourcc.h codes, sizes, names, and the fbdev bitfield mapping on both byte orders.

import Testing

@testable import Raster

/// `fourcc_code(a, b, c, d)` from drm_fourcc.h, computed from the four characters.
private func fourcc(_ s: String) -> UInt32 {
    let b = Array(s.utf8)
    return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
}

@Suite struct PixelFormatTests {
    @Test func fourCCCodesMatchDRM() {
        let expected: [(PixelFormat, String)] = [
            (.argb8888, "AR24"), (.xrgb8888, "XR24"), (.abgr8888, "AB24"), (.xbgr8888, "XB24"),
            (.rgb888, "RG24"), (.bgr888, "BG24"), (.rgb565, "RG16"), (.bgr565, "BG16"),
        ]
        #expect(expected.count == PixelFormat.allCases.count)
        for (f, code) in expected {
            #expect(f.drmFourCC == fourcc(code), "\(f.name)")
            #expect(PixelFormat(drmFourCC: fourcc(code)) == f)
        }
        #expect(PixelFormat.xrgb8888.drmFourCC == 0x3432_5258)
        #expect(PixelFormat(drmFourCC: fourcc("NV12")) == nil)
    }

    @Test func sizesAlphaAndNames() {
        let table: [(PixelFormat, Int, Bool, String)] = [
            (.argb8888, 4, true, "ARGB8888"), (.xrgb8888, 4, false, "XRGB8888"),
            (.abgr8888, 4, true, "ABGR8888"), (.xbgr8888, 4, false, "XBGR8888"),
            (.rgb888, 3, false, "RGB888"), (.bgr888, 3, false, "BGR888"),
            (.rgb565, 2, false, "RGB565"), (.bgr565, 2, false, "BGR565"),
        ]
        for (f, bpp, alpha, name) in table {
            #expect(f.bytesPerPixel == bpp && f.hasAlpha == alpha && f.name == name, "\(f)")
            #expect(PixelFormat(name: name) == f)
            #expect(PixelFormat(name: name.lowercased()) == f)
        }
        #expect(PixelFormat(name: "RGBA8888") == nil)
    }

    typealias Field = (offset: UInt32, length: UInt32)

    private func fb(_ bpp: UInt32, _ r: Field, _ g: Field, _ b: Field, _ a: Field = (0, 0), littleEndian: Bool)
        -> PixelFormat?
    {
        PixelFormat(fbdevBitsPerPixel: bpp, red: r, green: g, blue: b, alpha: a, hostIsLittleEndian: littleEndian)
    }

    @Test func fbdevLittleEndianHost() {
        // What vesafb, DRM fbdev emulation and typical SoC drivers report on x86/ARM.
        #expect(fb(32, (16, 8), (8, 8), (0, 8), littleEndian: true) == .xrgb8888)
        #expect(fb(32, (16, 8), (8, 8), (0, 8), (24, 8), littleEndian: true) == .argb8888)
        #expect(fb(32, (0, 8), (8, 8), (16, 8), littleEndian: true) == .xbgr8888)
        #expect(fb(32, (0, 8), (8, 8), (16, 8), (24, 8), littleEndian: true) == .abgr8888)
        #expect(fb(24, (16, 8), (8, 8), (0, 8), littleEndian: true) == .rgb888)
        #expect(fb(24, (0, 8), (8, 8), (16, 8), littleEndian: true) == .bgr888)
        #expect(fb(16, (11, 5), (5, 6), (0, 5), littleEndian: true) == .rgb565)
        #expect(fb(16, (0, 5), (5, 6), (11, 5), littleEndian: true) == .bgr565)
        // Unsupported: RGB555, 8-bit palettes, RGBX (red in the top byte), alpha not in the top byte.
        #expect(fb(16, (10, 5), (5, 5), (0, 5), littleEndian: true) == nil)
        #expect(fb(8, (0, 8), (0, 8), (0, 8), littleEndian: true) == nil)
        #expect(fb(32, (24, 8), (16, 8), (8, 8), littleEndian: true) == nil)
        #expect(fb(32, (16, 8), (8, 8), (0, 8), (0, 8), littleEndian: true) == nil)
        #expect(fb(24, (16, 8), (8, 8), (0, 8), (24, 8), littleEndian: true) == nil)
        #expect(fb(16, (11, 5), (5, 6), (0, 5), (16, 1), littleEndian: true) == nil)
    }

    @Test func fbdevBigEndianHost() {
        // On a big-endian CPU the framebuffer word's most significant byte comes first in memory:
        // red at bit 8 of a 32-bit word is byte 2, which is where DRM XRGB8888 keeps red.
        #expect(fb(32, (8, 8), (16, 8), (24, 8), littleEndian: false) == .xrgb8888)
        #expect(fb(32, (8, 8), (16, 8), (24, 8), (0, 8), littleEndian: false) == .argb8888)
        #expect(fb(32, (24, 8), (16, 8), (8, 8), littleEndian: false) == .xbgr8888)
        // The usual big-endian "red at 16" is bytes x R G B in memory: DRM BGRX8888, unsupported.
        #expect(fb(32, (16, 8), (8, 8), (0, 8), littleEndian: false) == nil)
        // 24 bpp red at 16 is bytes R G B: DRM BGR888.
        #expect(fb(24, (16, 8), (8, 8), (0, 8), littleEndian: false) == .bgr888)
        #expect(fb(24, (0, 8), (8, 8), (16, 8), littleEndian: false) == .rgb888)
        // A big-endian 5:6:5 word has green split across bytes differently: no little-endian format.
        #expect(fb(16, (11, 5), (5, 6), (0, 5), littleEndian: false) == nil)
    }

    @Test func fbdevPublicInitUsesHostByteOrder() {
        let little = 1.littleEndian == 1
        let cases: [(UInt32, Field, Field, Field)] = [
            (32, (16, 8), (8, 8), (0, 8)), (32, (8, 8), (16, 8), (24, 8)), (16, (11, 5), (5, 6), (0, 5)),
        ]
        for (bpp, r, g, b) in cases {
            #expect(
                PixelFormat(fbdevBitsPerPixel: bpp, red: r, green: g, blue: b, alpha: (0, 0))
                    == fb(bpp, r, g, b, littleEndian: little))
        }
    }
}
