// SPDX-License-Identifier: MIT
// DRM pure parts: property tables by name, panel orientation, format choice, card choice, CRTC routing.

#if canImport(Glibc)
import Glibc
#endif
import Raster
import SystemPackage
import Testing

@testable import Display

@Suite("DRM tables and choices")
struct DRMTablesTests {
    static let planeProperties: [(id: UInt32, name: String, value: UInt64, enums: [UInt64: String])] = [
        (17, "type", 1, [0: "Overlay", 1: "Primary", 2: "Cursor"]), (18, "FB_ID", 0, [:]), (19, "CRTC_ID", 0, [:]),
        (20, "SRC_X", 0, [:]), (21, "SRC_Y", 0, [:]), (22, "SRC_W", 0, [:]), (23, "SRC_H", 0, [:]),
        (24, "CRTC_X", 0, [:]), (25, "CRTC_Y", 0, [:]), (26, "CRTC_W", 0, [:]), (27, "CRTC_H", 0, [:]),
    ]

    @Test func propertyIdsAndEnumValuesByName() {
        let t = DRMPropertyTable(kind: .plane, properties: Self.planeProperties)
        #expect(t["FB_ID"] == 18 && t["CRTC_H"] == 27 && t["IN_FORMATS"] == nil)
        #expect(t.enumValueName("type") == "Primary")
        #expect(t.missingRequired.isEmpty)
    }

    @Test func missingRequiredPropertiesAreNamed() {
        let crtc = DRMPropertyTable(kind: .crtc, properties: [(40, "ACTIVE", 1, [:])])
        #expect(crtc.missingRequired == ["MODE_ID"])
        let connector = DRMPropertyTable(kind: .connector, properties: [])
        #expect(connector.missingRequired == ["CRTC_ID"])
        let plane = DRMPropertyTable(kind: .plane, properties: Array(Self.planeProperties.dropLast(2)))
        #expect(plane.missingRequired == ["CRTC_W", "CRTC_H"])
    }

    @Test func panelOrientationTurnsTheFrameAsTheKernelDoes() {
        let orientation: [(UInt64, String)] = [(0, "Normal"), (1, "Upside Down"), (2, "Left Side Up"), (3, "Right Side Up")]
        var got: [Rotation] = []
        for (value, _) in orientation {
            let t = DRMPropertyTable(kind: .connector, properties: [(5, "panel orientation", value, Dictionary(uniqueKeysWithValues: orientation))])
            got.append(DRMPanelOrientation.rotation(forPropertyValue: t.enumValueName("panel orientation")))
        }
        // Left Side Up = DRM_MODE_ROTATE_90 (counter-clockwise) = Raster .r270.
        #expect(got == [.r0, .r180, .r270, .r90])
        #expect(DRMPanelOrientation.rotation(forPropertyValue: nil) == .r0)
        #expect(DRMPanelOrientation.rotation(forPropertyValue: "Sideways") == .r0)
    }

    @Test func rotationsCompose() {
        #expect(Rotation.r270.then(.r180) == .r90)
        #expect(Rotation.r90.then(.r270) == .r0)
        #expect(Rotation.r0.then(.r180) == .r180)
    }

    @Test func formatIsXRGBThenRGB565ThenAnythingOfOurs() {
        let xr24 = PixelFormat.xrgb8888.drmFourCC, rg16 = PixelFormat.rgb565.drmFourCC, ar24 = PixelFormat.argb8888.drmFourCC
        let nv12: UInt32 = 0x3231_564E
        #expect(DRMFormatChoice.choose(planeFormats: [rg16, ar24, xr24], override: nil) == .xrgb8888)
        #expect(DRMFormatChoice.choose(planeFormats: [nv12, rg16], override: nil) == .rgb565)
        #expect(DRMFormatChoice.choose(planeFormats: [nv12, ar24], override: nil) == .argb8888)
        #expect(DRMFormatChoice.choose(planeFormats: [nv12], override: nil) == nil)
        #expect(DRMFormatChoice.choose(planeFormats: [], override: nil) == .xrgb8888)
        #expect(DRMFormatChoice.choose(planeFormats: [xr24, rg16], override: .rgb565) == .rgb565)
        #expect(DRMFormatChoice.choose(planeFormats: [xr24], override: .bgr565) == .xrgb8888)  // not offered: ignored
    }

    @Test func cardChoiceSkipsRenderOnlyAndConnectorlessCards() {
        // A Raspberry Pi 4: card0 is v3d (no KMS), card1 is vc4 with HDMI.
        let pi4 = [
            DRMCardDescription(path: "/dev/dri/card0", canModeset: false, connectorCount: 0, connectedCount: 0),
            DRMCardDescription(path: "/dev/dri/card1", canModeset: true, connectorCount: 2, connectedCount: 1),
            DRMCardDescription(path: "/dev/dri/renderD128", canModeset: true, connectorCount: 1, connectedCount: 1),
        ]
        #expect(DRMCardChoice.choose(pi4)?.path == "/dev/dri/card1")
        // Nothing plugged in yet: the card with connectors, not the one without.
        let unplugged = [
            DRMCardDescription(path: "/dev/dri/card0", canModeset: true, connectorCount: 0, connectedCount: 0),
            DRMCardDescription(path: "/dev/dri/card1", canModeset: true, connectorCount: 1, connectedCount: 0),
        ]
        #expect(DRMCardChoice.choose(unplugged)?.path == "/dev/dri/card1")
        // Connected beats merely having connectors.
        let two = [unplugged[1], DRMCardDescription(path: "/dev/dri/card2", canModeset: true, connectorCount: 1, connectedCount: 1)]
        #expect(DRMCardChoice.choose(two)?.path == "/dev/dri/card2")
        #expect(DRMCardChoice.choose([pi4[0], pi4[2]]) == nil)
        #expect(DRMCardChoice.isRenderNode("/dev/dri/renderD129") && !DRMCardChoice.isRenderNode("/dev/dri/card0"))
    }

    @Test func eachConnectorGetsItsOwnCRTCKeepingCurrentOnes() {
        // Two connectors that can use either CRTC; the second is on CRTC 0 now (fbcon).
        #expect(DRMCRTCAssignment.assign([(0b11, nil), (0b11, 0)], crtcCount: 2) == [1, 0])
        // Both claim CRTC 0: the first keeps it, the second moves.
        #expect(DRMCRTCAssignment.assign([(0b11, 0), (0b11, 0)], crtcCount: 2) == [0, 1])
        // Three connectors on two CRTCs: the last gets none.
        #expect(DRMCRTCAssignment.assign([(0b01, nil), (0b10, nil), (0b11, nil)], crtcCount: 2) == [0, 1, nil])
        // A current CRTC the connector cannot use (stale) is ignored.
        #expect(DRMCRTCAssignment.assign([(0b10, 0)], crtcCount: 2) == [1])
    }

    @Test func libdrmFailureConventionsBecomeNamedErrors() {
        // libdrm returns -errno from some calls (drmModeCreatePropertyBlob) ...
        #expect(throws: DisplayError.ioctl("drmModeCreatePropertyBlob", .invalidArgument, "/dev/dri/card0")) {
            try DRMCall.check("drmModeCreatePropertyBlob", CInt(-EINVAL), device: "/dev/dri/card0")
        }
        // ... and -1 with errno set from others (drmIoctl).
        errno = EACCES
        #expect(throws: DisplayError.ioctl("drmModeSetCrtc", .permissionDenied, "/dev/dri/card1")) {
            try DRMCall.check("drmModeSetCrtc", CInt(-1), device: "/dev/dri/card1")
        }
        #expect(throws: Never.self) { try DRMCall.check("drmModePageFlip", CInt(0), device: "/dev/dri/card0") }
        errno = ENOENT
        let missing: Int? = nil
        #expect(throws: DisplayError.ioctl("drmModeGetConnector", .noSuchFileOrDirectory, "/dev/dri/card0")) {
            _ = try DRMCall.check("drmModeGetConnector", missing, device: "/dev/dri/card0")
        }
    }
}
