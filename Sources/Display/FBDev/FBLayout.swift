// SPDX-License-Identifier: MIT
// What an fbdev device's two screen-info structs mean for us: the pixel format (from the colour
// bitfields), where rows start (line_length), the visible and virtual sizes, how many whole pages
// we can pan between for double buffering, and the refresh rate from the pixel clock timings.
// Everything is checked here, once, so FBDevDisplay can trust it: a layout we cannot drive is a
// clear `DisplayError.unsupported` naming the device and the reason.

import CLinuxShim
import Raster

/// The derived layout of an fbdev framebuffer (`fb_var_screeninfo` + `fb_fix_screeninfo`).
public struct FBLayout: Equatable, Sendable {
    /// The scanout format from `bits_per_pixel` and the red/green/blue/transp bitfields.
    public var format: PixelFormat
    /// Visible pixels per row and rows (`xres`, `yres`).
    public var width: Int32
    public var height: Int32
    /// The virtual framebuffer (`xres_virtual`, `yres_virtual`), possibly taller than the screen.
    public var virtualWidth: Int32
    public var virtualHeight: Int32
    /// Bytes from one row to the next (`line_length`, or computed from `xres_virtual` when the
    /// driver leaves it 0, as some old drivers do).
    public var rowBytes: Int
    /// Bytes to mmap (`smem_len`).
    public var memoryLength: Int
    /// Whole screens that fit in the virtual height and the memory, at y = 0, height, 2·height...
    /// 2 means double buffering by FBIOPAN_DISPLAY is possible. 1 on DRM's fbdev emulation unless
    /// the driver is known to show the panned page (`pansOnDRMEmulation`).
    public var pageCount: Int
    /// The driver's name for the device (`fix.id`), e.g. "VESA VGA" or "bochs-drmdrmfb".
    public var id: String
    /// Whether this is DRM's fbdev emulation (`fix.id` is the DRM driver's name + "drmfb").
    public var isDRMEmulation: Bool { Self.isDRMEmulation(id) }
    static func isDRMEmulation(_ id: String) -> Bool { id.hasSuffix("drmfb") }
    /// Whether this is a framebuffer the firmware set up, which the GPU's own driver replaces
    /// when it loads: efifb ("EFI VGA"), vesafb ("VESA VGA"), simplefb ("simple").
    public var isFirmwareFramebuffer: Bool { ["EFI VGA", "VESA VGA", "simple"].contains(id) }
    /// Whether a pan on DRM's fbdev emulation shows the page panned to. FBIOPAN_DISPLAY there is an
    /// atomic commit of the plane's source offset (it returns once the flip is done), and it
    /// succeeds on every driver, so only what reaches the screen can tell, and the probe cannot see
    /// that from inside: hence a list of drivers checked under QEMU (scripts/qemu/README.md, "Panning
    /// on DRM fbdev emulation", Linux 6.1). vkms has no shadow buffer: /dev/fbN is the buffer its
    /// plane reads, from the source offset. bochs, virtio-gpu, cirrus and qxl draw through a shadow
    /// whose damage worker copies only the first yres rows, and bochs, cirrus and qxl also ignore the
    /// source offset: after the pan, row 0 or black rows stay on screen. So we never pan on those.
    public var pansOnDRMEmulation: Bool { Self.panningDRMDrivers.contains(id) }
    static let panningDRMDrivers: Set<String> = ["vkmsdrmfb"]
    /// Whether the screen shows the mapped memory itself: the firmware framebuffers (vesafb's
    /// "VESA VGA", efifb's "EFI VGA", simplefb's "simple") have no deferred I/O, so an fsync after
    /// drawing has nothing to flush. Since Linux 6.1 their fsync succeeds all the same (fbdev's
    /// deferred-I/O fsync returns 0 for a device without it), so it cannot say so itself. Every
    /// other driver (DRM's emulation, USB and SPI panels) is synced after each frame.
    public var scansOutDirectly: Bool { Self.directDrivers.contains(id) }
    static let directDrivers: Set<String> = ["VESA VGA", "EFI VGA", "simple"]
    /// The pan offset the device had (`xoffset`, `yoffset`): the visible page when we opened it.
    public var xOffset: Int32
    public var yOffset: Int32
    /// Refresh rate from the timings, or 60 Hz when the driver gives no pixel clock (DRM's fbdev
    /// emulation and efifb/simplefb leave `pixclock` 0).
    public var refreshMillihertz: Int32
    /// Whether `refreshMillihertz` came from real timings rather than the 60 Hz default.
    public var refreshIsKnown: Bool
    /// The panel size in millimetres (`width`, `height` of the var info) when known.
    public var physicalWidthMM: Int32?
    public var physicalHeightMM: Int32?

    /// Bytes of one screen page (`rowBytes · height`).
    public var pageBytes: Int { rowBytes * Int(height) }
    /// Whether present can draw into a hidden page and pan to it.
    public var canDoubleBuffer: Bool { pageCount >= 2 }

    static let defaultRefreshMillihertz: Int32 = 60_000

    /// Derives the layout, refusing what we cannot drive. `device` names the node in errors.
    init(variable v: fb_var_screeninfo, fixed f: fb_fix_screeninfo, device: String) throws(DisplayError) {
        func refuse(_ why: String) -> DisplayError { .unsupported(device, why) }
        guard f.type == UInt32(FB_TYPE_PACKED_PIXELS) else {
            throw refuse("framebuffer type \(f.type) is not packed pixels (planar and text modes are not supported)")
        }
        guard f.visual == UInt32(FB_VISUAL_TRUECOLOR) else {
            throw refuse("visual \(f.visual) at \(v.bits_per_pixel) bpp is not truecolor (palette and directcolor modes are not supported)")
        }
        guard v.grayscale == 0, v.nonstd == 0 else {
            throw refuse("grayscale/FOURCC or non-standard pixel layout (grayscale \(v.grayscale), nonstd \(v.nonstd))")
        }
        let fields = [v.red, v.green, v.blue, v.transp]
        guard fields.allSatisfy({ $0.msb_right == 0 }),
            let format = PixelFormat(
                fbdevBitsPerPixel: v.bits_per_pixel,
                red: (v.red.offset, v.red.length), green: (v.green.offset, v.green.length),
                blue: (v.blue.offset, v.blue.length), alpha: (v.transp.offset, v.transp.length))
        else {
            func field(_ b: fb_bitfield) -> String { "\(b.length)@\(b.offset)" }
            throw refuse("\(v.bits_per_pixel) bpp with red \(field(v.red)) green \(field(v.green)) blue \(field(v.blue)) transp \(field(v.transp)) is none of the 16/24/32 bpp RGB or BGR layouts")
        }
        guard v.xres > 0, v.yres > 0, v.xres <= 16384, v.yres <= 16384,
            v.xres_virtual >= v.xres, v.yres_virtual >= v.yres
        else {
            throw refuse("screen \(v.xres)x\(v.yres) in virtual \(v.xres_virtual)x\(v.yres_virtual)")
        }
        let rowBytes = f.line_length != 0 ? Int(f.line_length) : Int(v.xres_virtual) * format.bytesPerPixel
        guard rowBytes >= Int(v.xres) * format.bytesPerPixel else {
            throw refuse("line_length \(rowBytes) is shorter than \(v.xres) pixels of \(format.name)")
        }
        let memoryLength = Int(f.smem_len)
        let rowsInMemory = memoryLength / rowBytes
        guard rowsInMemory >= Int(v.yres) else {
            throw refuse("smem_len \(memoryLength) holds \(rowsInMemory) rows, fewer than yres \(v.yres)")
        }
        // Panning to page p sets yoffset = p·yres: it must be a multiple of ypanstep (0 = no panning).
        let rows = min(Int(v.yres_virtual), rowsInMemory)
        var pages = rows / Int(v.yres)
        if f.ypanstep == 0 || v.yres % UInt32(f.ypanstep) != 0 { pages = 1 }
        // fix.id: up to 16 bytes, NUL-terminated when shorter.
        id = withUnsafeBytes(of: f.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if Self.isDRMEmulation(id) && !Self.panningDRMDrivers.contains(id) { pages = 1 }

        self.format = format
        width = Int32(v.xres); height = Int32(v.yres)
        virtualWidth = Int32(clamping: v.xres_virtual); virtualHeight = Int32(clamping: v.yres_virtual)
        self.rowBytes = rowBytes
        self.memoryLength = memoryLength
        pageCount = min(pages, 2)
        xOffset = Int32(clamping: v.xoffset); yOffset = Int32(clamping: v.yoffset)
        (refreshMillihertz, refreshIsKnown) = FBLayout.refresh(v)
        // fbdev says "unknown" with 0 or ~0 (-1 as __u32).
        physicalWidthMM = v.width == 0 || v.width == UInt32.max ? nil : Int32(clamping: v.width)
        physicalHeightMM = v.height == 0 || v.height == UInt32.max ? nil : Int32(clamping: v.height)
    }

    /// Refresh = 10^12 / (pixclock_ps · htotal · vtotal) Hz, where htotal/vtotal add the margins and
    /// sync lengths to the visible size (fbdev's `fb_var_screeninfo` timing fields, as fbset prints).
    static func refresh(_ v: fb_var_screeninfo) -> (Int32, Bool) {
        let hTotal = UInt64(v.xres) + UInt64(v.left_margin) + UInt64(v.right_margin) + UInt64(v.hsync_len)
        var vTotal = UInt64(v.yres) + UInt64(v.upper_margin) + UInt64(v.lower_margin) + UInt64(v.vsync_len)
        if v.vmode & UInt32(FB_VMODE_MASK) == UInt32(FB_VMODE_INTERLACED) { vTotal /= 2 }
        if v.vmode & UInt32(FB_VMODE_MASK) == UInt32(FB_VMODE_DOUBLE) { vTotal *= 2 }
        // Frame period in picoseconds; garbage timings that overflow count as unknown.
        let (line, o1) = UInt64(v.pixclock).multipliedReportingOverflow(by: hTotal)
        let (period, o2) = line.multipliedReportingOverflow(by: vTotal)
        guard !o1, !o2, period != 0 else { return (defaultRefreshMillihertz, false) }
        // mHz = 10^15 / period_ps; reject absurd values rather than pace at 2 Hz or 2000 Hz.
        let mHz = (1_000_000_000_000_000 + period / 2) / period
        guard mHz >= 10_000, mHz <= 500_000 else { return (defaultRefreshMillihertz, false) }
        return (Int32(mHz), true)
    }
}
