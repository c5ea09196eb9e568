// SPDX-License-Identifier: MIT
import Display
import Testing
@testable import splashhud_tools

/// `splashhud probe`'s text on hand-made probe results (the gathering runs against real drivers in
/// Tests/QEMUTests/ProbeEndToEndTests.swift).
@Suite("splashhud probe report")
struct ProbeReportTests {
    static let card = DRMCardProbe(
        path: "/dev/dri/card0", driverName: "bochs-drm", driverVersion: "1.0.0",
        driverDescription: "bochs dispi vga interface (qemu stdvga)", canModeset: true, hasAtomic: true, hasDumbBuffers: true,
        connectors: [
            DRMConnectorProbe(
                id: 34, name: "Virtual-1", status: "connected", physicalWidthMM: 0, physicalHeightMM: 0,
                modes: [DRMModeProbe(name: "1280x800", width: 1280, height: 800, refreshMillihertz: 59_994, isPreferred: true),
                        DRMModeProbe(name: "1024x768", width: 1024, height: 768, refreshMillihertz: 60_000)],
                panelOrientation: nil, crtcID: 33),
            DRMConnectorProbe(
                id: 40, name: "eDP-1", status: "disconnected", physicalWidthMM: 344, physicalHeightMM: 194,
                modes: [], panelOrientation: "Right Side Up", crtcID: nil),
        ],
        crtcs: [DRMCRTCProbe(id: 33, mode: DRMModeProbe(name: "1280x800", width: 1280, height: 800, refreshMillihertz: 59_994), framebufferID: 42),
                DRMCRTCProbe(id: 36, mode: nil, framebufferID: 0)],
        planes: [DRMPlaneProbe(id: 31, type: "primary", possibleCRTCs: 0b11, formats: ["XRGB8888", "RGB565"] + (0..<13).map { "F\($0)" }, crtcID: 33)])

    static let fb = FBDevProbe(
        path: "/dev/fb0", id: "VESA VGA", width: 1024, height: 768, virtualWidth: 1024, virtualHeight: 768, bitsPerPixel: 32,
        red: FBBitfield(offset: 16, length: 8), green: FBBitfield(offset: 8, length: 8), blue: FBBitfield(offset: 0, length: 8),
        transp: FBBitfield(offset: 24, length: 8), formatName: "ARGB8888", lineLength: 4096, memoryLength: 16_777_216,
        xPanStep: 0, yPanStep: 0, pages: 1)

    @Test("a DRM card: driver, connectors with preferred mode and orientation, CRTCs, planes")
    func drmCard() {
        let text = ProbeReport.format(DisplayProbe(drmCards: [Self.card], renderNodes: ["/dev/dri/renderD128"]))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "/dev/dri/card0: bochs-drm 1.0.0 (bochs dispi vga interface (qemu stdvga))")
        #expect(lines[1] == "  modeset: yes, atomic: yes, dumb buffers: yes")
        #expect(lines.contains("    Virtual-1 (id 34): connected, on CRTC 33"))
        #expect(lines.contains("      modes: 1280x800@59.99*, 1024x768@60.00"))
        #expect(lines.contains("    eDP-1 (id 40): disconnected, 344x194 mm"))
        #expect(lines.contains("      panel orientation: Right Side Up"))
        #expect(lines.contains("    0: id 33: 1280x800@59.99, fb 42"))
        #expect(lines.contains("    1: id 36: off"))
        #expect(lines.contains("    id 31: primary, CRTCs {0,1}, on CRTC 0"))
        #expect(lines.contains("      formats: XRGB8888 RGB565 F0 F1 F2 F3 F4 F5 F6 F7 F8 F9 (+3 more, --all-formats)"))
        #expect(lines.contains("render-only nodes (skipped, cannot modeset): /dev/dri/renderD128"))
        #expect(lines.last == "fbdev: no /dev/fb* devices")
        let all = ProbeReport.format(DisplayProbe(drmCards: [Self.card]), formatLimit: .max)
        #expect(all.contains("F11 F12\n"))
    }

    @Test("a card without KMS says why and lists nothing else")
    func gpuOnlyCard() {
        let v3d = DRMCardProbe(path: "/dev/dri/card0", driverName: "v3d", driverVersion: "1.0.0", driverDescription: "",
                               canModeset: false, hasAtomic: false, hasDumbBuffers: false, note: "no KMS")
        let text = ProbeReport.format(DisplayProbe(drmCards: [v3d]))
        #expect(text.hasPrefix("/dev/dri/card0: v3d 1.0.0\n  modeset: no\n  note: no KMS\n"))
        #expect(!text.contains("connectors:"))
    }

    @Test("fbdev: resolution, virtual size, bitfields, format, line length, panning")
    func fbdev() {
        var tall = Self.fb
        tall.path = "/dev/fb1"; tall.id = "bochs-drmdrmfb"; tall.virtualHeight = 1536; tall.yPanStep = 1; tall.pages = 1
        tall.singleBufferedBecause = "DRM fbdev emulation that does not show the panned page"
        tall.formatName = nil; tall.note = "/dev/fb1: unsupported: test"
        let text = ProbeReport.format(DisplayProbe(fbDevices: [Self.fb, tall]))
        #expect(text == """
            DRM: no /dev/dri/card* nodes
            /dev/fb0: "VESA VGA"
              1024x768, virtual 1024x768, 32 bpp, format ARGB8888
              bitfields: red 8@16 green 8@8 blue 8@0 transp 8@24
              line length 4096 bytes, memory 16777216 bytes
              panning: no; single buffered (1 page)
            /dev/fb1: "bochs-drmdrmfb"
              1024x768, virtual 1024x1536, 32 bpp, format unsupported
              bitfields: red 8@16 green 8@8 blue 8@0 transp 8@24
              line length 4096 bytes, memory 16777216 bytes
              panning: xpanstep 0, ypanstep 1; single buffered (1 page: DRM fbdev emulation that does not show the panned page)
              note: /dev/fb1: unsupported: test

            """)
    }

    @Test("no devices at all is said plainly")
    func nothing() {
        #expect(ProbeReport.format(DisplayProbe()).hasPrefix("No display devices"))
        // The gathering on a /dev without dri or fb nodes finds nothing rather than failing.
        #expect(DisplayProbe.gather(devRoot: "/nonexistent-dev").isEmpty)
    }
}
