// SPDX-License-Identifier: MIT
// DRM's fbdev emulation is recognised by its fix.id and gets pages to pan between only on a driver
// seen to show the panned page (vkms); the firmware framebuffers are recognised by theirs and never
// synced after drawing.

import CLinuxShim
import Testing

@testable import Display

@Suite("fbdev layout on DRM emulation")
struct FBLayoutDRMEmulationTests {
    static func fixed(id: String, lineLength: UInt32, memory: UInt32) -> fb_fix_screeninfo {
        var f = FBLayoutTests.fixed(lineLength: lineLength, memory: memory)
        withUnsafeMutableBytes(of: &f.id) { bytes in
            for (i, b) in id.utf8.prefix(bytes.count).enumerated() { bytes[i] = b }
        }
        return f
    }

    @Test func drmEmulationIsSinglePageEvenWithRoomToPan() throws {
        // bochs with drm_kms_helper.drm_fbdev_overalloc=200: 1280x1600 virtual, ypanstep 1.
        let v = FBLayoutTests.variable(bpp: 32, (16, 8), (8, 8), (0, 8), xres: 1280, yres: 800, yresVirtual: 1600)
        let bochs = try FBLayout(variable: v, fixed: Self.fixed(id: "bochs-drmdrmfb", lineLength: 5120, memory: 5120 * 1600), device: "fb0")
        #expect(bochs.id == "bochs-drmdrmfb" && bochs.isDRMEmulation)
        #expect(bochs.pageCount == 1 && !bochs.canDoubleBuffer && bochs.virtualHeight == 1600)
        // The same screen on a plain fbdev driver pans; a full 16-byte id has no NUL.
        let plain = try FBLayout(variable: v, fixed: Self.fixed(id: "0123456789abcdef", lineLength: 5120, memory: 5120 * 1600), device: "fb0")
        #expect(plain.id == "0123456789abcdef" && !plain.isDRMEmulation && plain.pageCount == 2)
    }

    @Test func onlyDriversThatShowThePanGetTwoPages() throws {
        // drm_fbdev_overalloc=200 under QEMU (scripts/qemu/README.md): each pans without error, but
        // bochs, cirrus and qxl keep showing row 0 and virtio-gpu shows black rows; vkms shows page 1.
        let v = FBLayoutTests.variable(bpp: 32, (16, 8), (8, 8), (0, 8), xres: 640, yres: 480, yresVirtual: 960)
        for (id, pages) in [("vkmsdrmfb", 2), ("bochs-drmdrmfb", 1), ("virtio_gpudrmfb", 1), ("cirrusdrmfb", 1),
                            ("qxldrmfb", 1), ("my-vkmsdrmfb", 1), ("vkms", 2)] {
            let layout = try FBLayout(variable: v, fixed: Self.fixed(id: id, lineLength: 2560, memory: 2560 * 960), device: "fb0")
            #expect(layout.pageCount == pages, "\(id)")
            #expect(layout.pansOnDRMEmulation == (id == "vkmsdrmfb"), "\(id)")
        }
        // vkms without over-allocation: no second page, whatever the driver.
        let single = FBLayoutTests.variable(bpp: 32, (16, 8), (8, 8), (0, 8), xres: 640, yres: 480, yresVirtual: 480)
        let vkms = try FBLayout(variable: single, fixed: Self.fixed(id: "vkmsdrmfb", lineLength: 2560, memory: 2560 * 480), device: "fb0")
        #expect(vkms.pageCount == 1 && !vkms.canDoubleBuffer)
    }

    @Test func firmwareFramebuffersScanOutDirectly() throws {
        let v = FBLayoutTests.variable(bpp: 32, (16, 8), (8, 8), (0, 8), xres: 1024, yres: 768, yresVirtual: 768)
        for (id, direct) in [("VESA VGA", true), ("EFI VGA", true), ("simple", true), ("bochs-drmdrmfb", false),
                             ("fb_ili9341", false), ("udlfb", false), ("VESA VGA2", false)] {
            let layout = try FBLayout(variable: v, fixed: Self.fixed(id: id, lineLength: 4096, memory: 4096 * 768), device: "fb0")
            #expect(layout.scansOutDirectly == direct, "\(id)")
        }
    }
}
