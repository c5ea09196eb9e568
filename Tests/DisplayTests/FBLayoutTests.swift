// SPDX-License-Identifier: MIT
// fbdev layout derivation from hand-made screen infos, as drivers report them.

import CLinuxShim
import Raster
import Testing

@testable import Display

@Suite("fbdev layout")
struct FBLayoutTests {
    typealias Field = (offset: UInt32, length: UInt32)

    static func variable(
        bpp: UInt32, _ r: Field, _ g: Field, _ b: Field, transp: Field = (0, 0),
        xres: UInt32 = 640, yres: UInt32 = 480, yresVirtual: UInt32? = nil
    ) -> fb_var_screeninfo {
        var v = fb_var_screeninfo()
        v.xres = xres; v.yres = yres; v.xres_virtual = xres; v.yres_virtual = yresVirtual ?? yres
        v.bits_per_pixel = bpp
        v.red = fb_bitfield(offset: r.offset, length: r.length, msb_right: 0)
        v.green = fb_bitfield(offset: g.offset, length: g.length, msb_right: 0)
        v.blue = fb_bitfield(offset: b.offset, length: b.length, msb_right: 0)
        v.transp = fb_bitfield(offset: transp.offset, length: transp.length, msb_right: 0)
        return v
    }

    static func fixed(
        lineLength: UInt32, memory: UInt32, ypanstep: UInt16 = 1, visual: Int32 = FB_VISUAL_TRUECOLOR
    ) -> fb_fix_screeninfo {
        var f = fb_fix_screeninfo()
        f.type = UInt32(FB_TYPE_PACKED_PIXELS); f.visual = UInt32(visual)
        f.line_length = lineLength; f.smem_len = memory; f.ypanstep = ypanstep
        return f
    }

    @Test func xrgb8888At32bpp() throws {
        let v = Self.variable(bpp: 32, (16, 8), (8, 8), (0, 8))
        let l = try FBLayout(variable: v, fixed: Self.fixed(lineLength: 2560, memory: 2560 * 480), device: "/dev/fb0")
        #expect(l.format == .xrgb8888)
        #expect(l.width == 640 && l.height == 480 && l.rowBytes == 2560 && l.pageBytes == 2560 * 480)
        #expect(l.pageCount == 1 && !l.canDoubleBuffer)
        #expect(l.refreshMillihertz == 60_000 && !l.refreshIsKnown)  // pixclock 0: the default
        #expect(l.physicalWidthMM == nil)
    }

    @Test func bgrAt32bppAndAlpha() throws {
        let bgr = Self.variable(bpp: 32, (0, 8), (8, 8), (16, 8))
        #expect(try FBLayout(variable: bgr, fixed: Self.fixed(lineLength: 2560, memory: 2560 * 480), device: "fb").format == .xbgr8888)
        let argb = Self.variable(bpp: 32, (16, 8), (8, 8), (0, 8), transp: (24, 8))
        #expect(try FBLayout(variable: argb, fixed: Self.fixed(lineLength: 2560, memory: 2560 * 480), device: "fb").format == .argb8888)
    }

    @Test func packed24bpp() throws {
        let v = Self.variable(bpp: 24, (16, 8), (8, 8), (0, 8))
        let l = try FBLayout(variable: v, fixed: Self.fixed(lineLength: 1920, memory: 1920 * 480), device: "fb")
        #expect(l.format == .rgb888 && l.rowBytes == 1920)
    }

    @Test func rgb565AndBGR565() throws {
        let rgb = Self.variable(bpp: 16, (11, 5), (5, 6), (0, 5), xres: 800, yres: 480)
        let bgr = Self.variable(bpp: 16, (0, 5), (5, 6), (11, 5), xres: 800, yres: 480)
        let f = Self.fixed(lineLength: 1600, memory: 1600 * 480)
        #expect(try FBLayout(variable: rgb, fixed: f, device: "fb").format == .rgb565)
        #expect(try FBLayout(variable: bgr, fixed: f, device: "fb").format == .bgr565)
    }

    @Test func eightBitPaletteIsAClearError() {
        let v = Self.variable(bpp: 8, (0, 8), (0, 8), (0, 8))
        let f = Self.fixed(lineLength: 640, memory: 640 * 480, visual: FB_VISUAL_PSEUDOCOLOR)
        #expect(throws: DisplayError.unsupported("/dev/fb1", "visual 3 at 8 bpp is not truecolor (palette and directcolor modes are not supported)")) {
            try FBLayout(variable: v, fixed: f, device: "/dev/fb1")
        }
        // A truecolor 3:3:2 layout is refused for its bitfields, which the message spells out.
        let rgb332 = Self.variable(bpp: 8, (5, 3), (2, 3), (0, 2))
        do {
            _ = try FBLayout(variable: rgb332, fixed: Self.fixed(lineLength: 640, memory: 640 * 480), device: "/dev/fb1")
            Issue.record("8 bpp 3:3:2 accepted")
        } catch {
            #expect("\(error)" == "/dev/fb1: unsupported: 8 bpp with red 3@5 green 3@2 blue 2@0 transp 0@0 is none of the 16/24/32 bpp RGB or BGR layouts")
        }
    }

    @Test func virtualHeightGivesPagesForPanning() throws {
        let v = Self.variable(bpp: 32, (16, 8), (8, 8), (0, 8), yresVirtual: 960)
        let l = try FBLayout(variable: v, fixed: Self.fixed(lineLength: 2560, memory: 2560 * 960), device: "fb")
        #expect(l.pageCount == 2 && l.canDoubleBuffer && l.virtualHeight == 960)
        // No ypanstep: the driver cannot pan, whatever the virtual size.
        let noPan = try FBLayout(variable: v, fixed: Self.fixed(lineLength: 2560, memory: 2560 * 960, ypanstep: 0), device: "fb")
        #expect(noPan.pageCount == 1)
        // The virtual size claims two pages but the memory holds 1.5.
        let short = try FBLayout(variable: v, fixed: Self.fixed(lineLength: 2560, memory: 2560 * 720), device: "fb")
        #expect(short.pageCount == 1)
        // Too little memory for even one screen is refused.
        #expect(throws: DisplayError.self) {
            try FBLayout(variable: v, fixed: Self.fixed(lineLength: 2560, memory: 2560 * 100), device: "fb")
        }
    }

    @Test func missingLineLengthIsComputedFromTheVirtualWidth() throws {
        var v = Self.variable(bpp: 16, (11, 5), (5, 6), (0, 5), xres: 320, yres: 240)
        v.xres_virtual = 336
        let l = try FBLayout(variable: v, fixed: Self.fixed(lineLength: 0, memory: 672 * 240), device: "fb")
        #expect(l.rowBytes == 672)
    }

    /// VESA 1024x768@60: 65 MHz pixel clock (15384 ps), 1344 x 806 total.
    @Test func refreshComesFromThePixelClockTimings() throws {
        var v = Self.variable(bpp: 32, (16, 8), (8, 8), (0, 8), xres: 1024, yres: 768)
        v.pixclock = 15384
        v.left_margin = 160; v.right_margin = 24; v.hsync_len = 136
        v.upper_margin = 29; v.lower_margin = 3; v.vsync_len = 6
        v.width = 300; v.height = UInt32.max
        let l = try FBLayout(variable: v, fixed: Self.fixed(lineLength: 4096, memory: 4096 * 768), device: "fb")
        #expect(l.refreshMillihertz == 60_006 && l.refreshIsKnown)  // 10^15 / (15384 · 1344 · 806)
        #expect(l.physicalWidthMM == 300 && l.physicalHeightMM == nil)
    }
}
