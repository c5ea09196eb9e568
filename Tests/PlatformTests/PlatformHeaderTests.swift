// SPDX-License-Identifier: MIT
// Our view of the platform's C headers: the ioctl numbers the shim exports, and the DRM fourcc
// codes our pixel formats claim, checked against libdrm itself.
import CDRM
import CDRMShim
import CLinuxShim
import Raster
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Platform headers")
struct PlatformHeaderTests {
    /// _IOC(dir, type, nr, size) as <asm-generic/ioctl.h> builds it on x86, arm and arm64.
    func ioc(_ dir: UInt, _ type: Character, _ nr: UInt, _ size: UInt) -> UInt {
        dir << 30 | size << 16 | UInt(type.asciiValue!) << 8 | nr
    }

    @Test func shimExportsTheKernelsIoctlNumbers() {
        #expect(CLinuxShim_FBIOGET_VSCREENINFO == 0x4600)
        #expect(CLinuxShim_FBIOPUT_VSCREENINFO == 0x4601)
        #expect(CLinuxShim_FBIOGET_FSCREENINFO == 0x4602)
        #expect(CLinuxShim_FBIOPAN_DISPLAY == 0x4606)
        #expect(CLinuxShim_FBIOBLANK == 0x4611)
        #expect(CLinuxShim_FBIO_WAITFORVSYNC == ioc(1, "F", 0x20, 4))  // _IOW('F', 0x20, __u32)
        #expect(CLinuxShim_KDSETMODE == 0x4B3A)
        #expect(CLinuxShim_KDGETMODE == 0x4B3B)
        #expect(CLinuxShim_VT_GETSTATE == 0x5603)
        #expect(CLinuxShim_VT_SETMODE == 0x5602)
        #expect(CLinuxShim_VT_RELDISP == 0x5605)
    }

    /// Our formats' codes are drm_fourcc.h's.
    @Test func pixelFormatCodesAreTheKernelHeaders() {
        let kernel: [PixelFormat: UInt32] = [
            .argb8888: CDRMShim_DRM_FORMAT_ARGB8888, .xrgb8888: CDRMShim_DRM_FORMAT_XRGB8888,
            .abgr8888: CDRMShim_DRM_FORMAT_ABGR8888, .xbgr8888: CDRMShim_DRM_FORMAT_XBGR8888,
            .rgb888: CDRMShim_DRM_FORMAT_RGB888, .bgr888: CDRMShim_DRM_FORMAT_BGR888,
            .rgb565: CDRMShim_DRM_FORMAT_RGB565, .bgr565: CDRMShim_DRM_FORMAT_BGR565,
        ]
        for format in PixelFormat.allCases { #expect(format.drmFourCC == kernel[format], "\(format.name)") }
    }

    /// libdrm (drmGetFormatName, 2.4.113+) reads each code back as its four letters.
    @Test(arguments: zip(PixelFormat.allCases, ["AR24", "XR24", "AB24", "XB24", "RG24", "BG24", "RG16", "BG16"]))
    func libdrmNamesOurCodes(_ format: PixelFormat, _ letters: String) throws {
        let name = try #require(drmGetFormatName(format.drmFourCC))
        defer { free(name) }
        #expect(String(cString: name) == letters)
    }
}
