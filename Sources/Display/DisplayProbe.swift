// SPDX-License-Identifier: MIT
// What `splashhud probe` reports: every DRM card node and fbdev device with what the kernel says
// about it, as plain structs (the CLI formats them; tests build them by hand). Gathering never
// changes a mode: it opens each node, reads, and closes. A node that cannot be read becomes an
// entry with a note naming the failing call, not an error, so one broken device does not hide the
// others. DRM is read through libdrm (see DRMDevice.swift), fbdev through FBDev+Ioctls.

import LinuxSystem
import CDRM
import CLinuxShim
import Raster

/// Everything found on this machine.
public struct DisplayProbe: Equatable, Sendable {
    public var drmCards: [DRMCardProbe]
    /// Render-only nodes (/dev/dri/renderD128...): listed, never opened (they cannot modeset).
    public var renderNodes: [String]
    public var fbDevices: [FBDevProbe]

    public init(drmCards: [DRMCardProbe] = [], renderNodes: [String] = [], fbDevices: [FBDevProbe] = []) {
        self.drmCards = drmCards; self.renderNodes = renderNodes; self.fbDevices = fbDevices
    }

    public var isEmpty: Bool { drmCards.isEmpty && renderNodes.isEmpty && fbDevices.isEmpty }
}

/// One mode of a connector, or a CRTC's current mode.
public struct DRMModeProbe: Equatable, Sendable {
    public var name: String
    public var width: Int32
    public var height: Int32
    public var refreshMillihertz: Int32
    public var isPreferred: Bool
    public var isInterlaced: Bool

    public init(name: String, width: Int32, height: Int32, refreshMillihertz: Int32, isPreferred: Bool = false, isInterlaced: Bool = false) {
        self.name = name; self.width = width; self.height = height; self.refreshMillihertz = refreshMillihertz
        self.isPreferred = isPreferred; self.isInterlaced = isInterlaced
    }
}

public struct DRMConnectorProbe: Equatable, Sendable {
    public var id: UInt32
    /// "Virtual-1", "HDMI-A-1".
    public var name: String
    /// "connected", "disconnected" or "unknown".
    public var status: String
    public var physicalWidthMM: Int32
    public var physicalHeightMM: Int32
    public var modes: [DRMModeProbe]
    /// The `panel orientation` property's value ("Normal", "Right Side Up"), nil when absent.
    public var panelOrientation: String?
    /// The CRTC object id driving it now, when any.
    public var crtcID: UInt32?

    public init(id: UInt32, name: String, status: String, physicalWidthMM: Int32, physicalHeightMM: Int32,
                modes: [DRMModeProbe], panelOrientation: String?, crtcID: UInt32?) {
        self.id = id; self.name = name; self.status = status
        self.physicalWidthMM = physicalWidthMM; self.physicalHeightMM = physicalHeightMM
        self.modes = modes; self.panelOrientation = panelOrientation; self.crtcID = crtcID
    }
}

public struct DRMCRTCProbe: Equatable, Sendable {
    public var id: UInt32
    /// The mode it scans out now, nil when off.
    public var mode: DRMModeProbe?
    /// The framebuffer object it shows (0 = none).
    public var framebufferID: UInt32

    public init(id: UInt32, mode: DRMModeProbe?, framebufferID: UInt32) {
        self.id = id; self.mode = mode; self.framebufferID = framebufferID
    }
}

public struct DRMPlaneProbe: Equatable, Sendable {
    public var id: UInt32
    /// "primary", "overlay", "cursor", or "unknown" without universal planes.
    public var type: String
    /// Bit mask of CRTC indices it can be used with.
    public var possibleCRTCs: UInt32
    /// Its formats as DRM fourcc names ("XRGB8888"; libdrm's drmGetFormatName).
    public var formats: [String]
    /// The CRTC it is on now (0 = none).
    public var crtcID: UInt32

    public init(id: UInt32, type: String, possibleCRTCs: UInt32, formats: [String], crtcID: UInt32) {
        self.id = id; self.type = type; self.possibleCRTCs = possibleCRTCs; self.formats = formats; self.crtcID = crtcID
    }
}

public struct DRMCardProbe: Equatable, Sendable {
    public var path: String
    /// drmGetVersion: "bochs-drm", "1.0.0", "bochs dispi vga interface (qemu stdvga)".
    public var driverName: String
    public var driverVersion: String
    public var driverDescription: String
    /// Whether drmModeGetResources works (KMS); false for GPU-only drivers such as v3d.
    public var canModeset: Bool
    public var hasAtomic: Bool
    public var hasDumbBuffers: Bool
    public var connectors: [DRMConnectorProbe]
    public var crtcs: [DRMCRTCProbe]
    public var planes: [DRMPlaneProbe]
    /// Why some of it is missing (the failing call and errno), nil when all was read.
    public var note: String?

    public init(path: String, driverName: String, driverVersion: String, driverDescription: String, canModeset: Bool,
                hasAtomic: Bool, hasDumbBuffers: Bool, connectors: [DRMConnectorProbe] = [], crtcs: [DRMCRTCProbe] = [],
                planes: [DRMPlaneProbe] = [], note: String? = nil) {
        self.path = path; self.driverName = driverName; self.driverVersion = driverVersion
        self.driverDescription = driverDescription; self.canModeset = canModeset; self.hasAtomic = hasAtomic
        self.hasDumbBuffers = hasDumbBuffers; self.connectors = connectors; self.crtcs = crtcs; self.planes = planes
        self.note = note
    }
}

/// An fbdev colour field: `length` bits from bit `offset`.
public struct FBBitfield: Equatable, Sendable {
    public var offset: UInt32
    public var length: UInt32
    public init(offset: UInt32, length: UInt32) { self.offset = offset; self.length = length }
}

public struct FBDevProbe: Equatable, Sendable {
    public var path: String
    /// `fix.id`: "VESA VGA", "bochs-drmdrmfb".
    public var id: String
    public var width: Int32
    public var height: Int32
    public var virtualWidth: Int32
    public var virtualHeight: Int32
    public var bitsPerPixel: UInt32
    public var red: FBBitfield
    public var green: FBBitfield
    public var blue: FBBitfield
    public var transp: FBBitfield
    /// The DRM name of the layout ("XRGB8888"), nil when SplashHUD cannot drive it.
    public var formatName: String?
    /// `line_length` and `smem_len`.
    public var lineLength: UInt32
    public var memoryLength: UInt32
    /// `xpanstep`/`ypanstep` (0 = the driver cannot pan that way).
    public var xPanStep: UInt16
    public var yPanStep: UInt16
    /// Pages FBDevDisplay would flip between (FBLayout.pageCount), nil when FBLayout refuses it.
    public var pages: Int?
    /// Why one page where the virtual screen holds two: DRM fbdev emulation whose screen does not
    /// follow FBIOPAN_DISPLAY (FBLayout.pansOnDRMEmulation).
    public var singleBufferedBecause: String?
    /// Why FBDevDisplay would refuse it, or why reading failed.
    public var note: String?

    public init(path: String, id: String, width: Int32, height: Int32, virtualWidth: Int32, virtualHeight: Int32,
                bitsPerPixel: UInt32, red: FBBitfield, green: FBBitfield, blue: FBBitfield, transp: FBBitfield,
                formatName: String?, lineLength: UInt32, memoryLength: UInt32, xPanStep: UInt16, yPanStep: UInt16,
                pages: Int?, note: String? = nil) {
        self.path = path; self.id = id; self.width = width; self.height = height
        self.virtualWidth = virtualWidth; self.virtualHeight = virtualHeight; self.bitsPerPixel = bitsPerPixel
        self.red = red; self.green = green; self.blue = blue; self.transp = transp; self.formatName = formatName
        self.lineLength = lineLength; self.memoryLength = memoryLength; self.xPanStep = xPanStep; self.yPanStep = yPanStep
        self.pages = pages; self.note = note
    }
}

extension DisplayProbe {
    /// Reads every /dev/dri/card* and /dev/fb* node. Missing directories just mean no devices;
    /// `devRoot` is for tests ("/dev").
    public static func gather(devRoot: String = "/dev") -> DisplayProbe {
        var probe = DisplayProbe()
        let dri = (try? Syscalls.listDirectory(devRoot + "/dri")) ?? []
        for name in dri.sorted(by: numericOrder) {
            let path = devRoot + "/dri/" + name
            if name.hasPrefix("card") { probe.drmCards.append(DRMProber.probe(path: path)) }
            else if DRMCardChoice.isRenderNode(path) { probe.renderNodes.append(path) }
        }
        let dev = (try? Syscalls.listDirectory(devRoot)) ?? []
        for name in dev.sorted(by: numericOrder) where name.hasPrefix("fb") && name.dropFirst(2).allSatisfy(\.isNumber) && name.count > 2 {
            probe.fbDevices.append(probeFBDev(path: devRoot + "/" + name))
        }
        return probe
    }

    /// "card2" before "card10".
    static func numericOrder(_ a: String, _ b: String) -> Bool {
        let pa = a.prefix { !$0.isNumber }, pb = b.prefix { !$0.isNumber }
        if pa != pb { return pa < pb }
        return (Int(a.dropFirst(pa.count)) ?? 0) < (Int(b.dropFirst(pb.count)) ?? 0)
    }

    static func probeFBDev(path: String) -> FBDevProbe {
        let zero = FBBitfield(offset: 0, length: 0)
        let failed = FBDevProbe(path: path, id: "", width: 0, height: 0, virtualWidth: 0, virtualHeight: 0, bitsPerPixel: 0,
                                red: zero, green: zero, blue: zero, transp: zero, formatName: nil, lineLength: 0,
                                memoryLength: 0, xPanStep: 0, yPanStep: 0, pages: nil)
        let fd: FileDescriptorBox
        do { fd = FileDescriptorBox(try Syscalls.open(path)) } catch {
            var f = failed; f.note = error.description; return f
        }
        do throws(DisplayError) {
            let v = try FBDev.getVariableInfo(fd.fd, device: path)
            let f = try FBDev.getFixedInfo(fd.fd, device: path)
            func field(_ b: fb_bitfield) -> FBBitfield { FBBitfield(offset: b.offset, length: b.length) }
            var p = FBDevProbe(
                path: path, id: withUnsafeBytes(of: f.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) },
                width: Int32(clamping: v.xres), height: Int32(clamping: v.yres),
                virtualWidth: Int32(clamping: v.xres_virtual), virtualHeight: Int32(clamping: v.yres_virtual),
                bitsPerPixel: v.bits_per_pixel, red: field(v.red), green: field(v.green), blue: field(v.blue),
                transp: field(v.transp), formatName: nil, lineLength: f.line_length, memoryLength: f.smem_len,
                xPanStep: f.xpanstep, yPanStep: f.ypanstep, pages: nil)
            do throws(DisplayError) {
                let layout = try FBLayout(variable: v, fixed: f, device: path)
                p.formatName = layout.format.name
                p.pages = layout.pageCount
                if layout.pageCount == 1 && layout.isDRMEmulation && !layout.pansOnDRMEmulation
                    && Int(layout.virtualHeight) >= 2 * Int(layout.height) {
                    p.singleBufferedBecause = "DRM fbdev emulation that does not show the panned page"
                }
            } catch {
                p.note = error.description
            }
            return p
        } catch {
            var f = failed; f.note = error.description; return f
        }
    }
}
