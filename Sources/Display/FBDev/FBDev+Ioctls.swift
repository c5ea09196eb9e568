// SPDX-License-Identifier: MIT
// The fbdev ioctls SplashHUD uses, each wrapped once (drm-rs `drm-ffi/src/ioctl.rs`, NIO
// `Linux.swift`). All of them work on any open /dev/fbN; none needs root beyond access to the node.

import CLinuxShim
import SystemPackage

/// fbdev ioctls on an open framebuffer device; `device` names the node in errors.
enum FBDev {
    /// The variable screen info: resolution, virtual size, pan offset, bitfields, timings.
    /// The corresponding C request is `FBIOGET_VSCREENINFO`.
    static func getVariableInfo(_ fd: FileDescriptor, device: String) throws(DisplayError) -> fb_var_screeninfo {
        var info = fb_var_screeninfo()
        try withUnsafeMutableBytes(of: &info) { (p) throws(DisplayError) in
            try Syscalls.ioctl(fd, CLinuxShim_FBIOGET_VSCREENINFO, "FBIOGET_VSCREENINFO", device: device, p.baseAddress!)
        }
        return info
    }

    /// The fixed screen info: memory length, line length, type and visual, pan steps.
    /// The corresponding C request is `FBIOGET_FSCREENINFO`.
    static func getFixedInfo(_ fd: FileDescriptor, device: String) throws(DisplayError) -> fb_fix_screeninfo {
        var info = fb_fix_screeninfo()
        try withUnsafeMutableBytes(of: &info) { (p) throws(DisplayError) in
            try Syscalls.ioctl(fd, CLinuxShim_FBIOGET_FSCREENINFO, "FBIOGET_FSCREENINFO", device: device, p.baseAddress!)
        }
        return info
    }

    /// Shows the virtual framebuffer from (`xoffset`, `yoffset`) of `info`; other fields are ignored.
    /// Drivers latch the new offset at the next vblank where they have one.
    /// The corresponding C request is `FBIOPAN_DISPLAY`.
    static func panDisplay(_ fd: FileDescriptor, device: String, _ info: fb_var_screeninfo) throws(DisplayError) {
        var info = info
        try withUnsafeMutableBytes(of: &info) { (p) throws(DisplayError) in
            try Syscalls.ioctl(fd, CLinuxShim_FBIOPAN_DISPLAY, "FBIOPAN_DISPLAY", device: device, p.baseAddress!)
        }
    }

    /// Blanks or unblanks the screen (`FB_BLANK_UNBLANK` = 0 turns it on). Not every driver has it.
    /// The corresponding C request is `FBIOBLANK` (an integer argument, not a pointer).
    static func blank(_ fd: FileDescriptor, device: String, mode: CInt) throws(DisplayError) {
        try Syscalls.ioctl(fd, CLinuxShim_FBIOBLANK, "FBIOBLANK", device: device, value: mode)
    }

    /// Waits for the next vertical blank of CRTC 0. Drivers without vblank interrupts (all of QEMU's,
    /// DRM fbdev emulation) fail with ENOTTY. The corresponding C request is `FBIO_WAITFORVSYNC`.
    static func waitForVSync(_ fd: FileDescriptor, device: String) throws(DisplayError) {
        var crtc: UInt32 = 0
        try withUnsafeMutableBytes(of: &crtc) { (p) throws(DisplayError) in
            try Syscalls.ioctl(fd, CLinuxShim_FBIO_WAITFORVSYNC, "FBIO_WAITFORVSYNC", device: device, p.baseAddress!)
        }
    }
}
