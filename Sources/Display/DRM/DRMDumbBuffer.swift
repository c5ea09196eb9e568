// SPDX-License-Identifier: MIT
// A scanout buffer in CPU-visible memory: a DRM "dumb" buffer (drm-howto modeset.c, libdrm
// modetest buffers.c bo_create_dumb/bo_map) wrapped as a KMS framebuffer.
//
//   DRM_IOCTL_MODE_CREATE_DUMB  width, height, bpp -> GEM handle, pitch, size
//   drmModeAddFB2               handle + pitch + fourcc -> framebuffer id (what a plane scans out)
//   DRM_IOCTL_MODE_MAP_DUMB     handle -> fake offset to mmap the card fd at
//   mmap                        (through Syscalls) -> the pixels, written by convertingBlit
//
// Destroy in reverse: munmap, drmModeRmFB, DRM_IOCTL_MODE_DESTROY_DUMB. Removing a framebuffer
// that is on screen turns the plane off, so callers restore or keep the CRTC first.

import CDRM
import CDRMShim
import Raster
import SystemPackage

final class DRMDumbBuffer {
    let fd: FileDescriptor
    let device: String
    let width: Int32
    let height: Int32
    let format: PixelFormat
    let handle: UInt32
    let pitch: Int
    let size: Int
    let framebufferID: UInt32
    private let memory: UnsafeMutableRawPointer
    private var destroyed = false

    init(fd: FileDescriptor, device: String, width: Int32, height: Int32, format: PixelFormat) throws(DisplayError) {
        self.fd = fd; self.device = device; self.width = width; self.height = height; self.format = format
        var create = drm_mode_create_dumb()
        create.width = UInt32(width); create.height = UInt32(height); create.bpp = UInt32(format.bytesPerPixel * 8)
        try DRMCall.check(
            "DRM_IOCTL_MODE_CREATE_DUMB", drmIoctl(fd.rawValue, CDRMShim_DRM_IOCTL_MODE_CREATE_DUMB, &create), device: device)
        handle = create.handle; pitch = Int(create.pitch); size = Int(create.size)
        var fb: UInt32 = 0
        do {
            var handles: (UInt32, UInt32, UInt32, UInt32) = (create.handle, 0, 0, 0)
            var pitches: (UInt32, UInt32, UInt32, UInt32) = (create.pitch, 0, 0, 0)
            var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
            let r = withUnsafeMutableBytes(of: &handles) { h in
                withUnsafeMutableBytes(of: &pitches) { p in
                    withUnsafeMutableBytes(of: &offsets) { o in
                        drmModeAddFB2(
                            fd.rawValue, UInt32(width), UInt32(height), format.drmFourCC,
                            h.baseAddress!.assumingMemoryBound(to: UInt32.self), p.baseAddress!.assumingMemoryBound(to: UInt32.self),
                            o.baseAddress!.assumingMemoryBound(to: UInt32.self), &fb, 0)
                    }
                }
            }
            try DRMCall.check("drmModeAddFB2(\(format.name))", r, device: device)
            framebufferID = fb
            var map = drm_mode_map_dumb()
            map.handle = handle
            try DRMCall.check("DRM_IOCTL_MODE_MAP_DUMB", drmIoctl(fd.rawValue, CDRMShim_DRM_IOCTL_MODE_MAP_DUMB, &map), device: device)
            memory = try Syscalls.mmap(fd, length: size, offset: map.offset, device: device)
        } catch {
            if fb != 0 { drmModeRmFB(fd.rawValue, fb) }
            var destroy = drm_mode_destroy_dumb(handle: create.handle)
            _ = drmIoctl(fd.rawValue, CDRMShim_DRM_IOCTL_MODE_DESTROY_DUMB, &destroy)
            throw error
        }
    }

    deinit { destroy() }

    /// The pixels as a surface for convertingBlit.
    var surface: SurfaceView {
        SurfaceView(base: memory, width: width, height: height, rowBytes: pitch, format: format)
    }

    /// Unmaps, removes the framebuffer and frees the buffer; twice does nothing.
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        Syscalls.munmap(memory, length: size)
        drmModeRmFB(fd.rawValue, framebufferID)
        var d = drm_mode_destroy_dumb(handle: handle)
        _ = drmIoctl(fd.rawValue, CDRMShim_DRM_IOCTL_MODE_DESTROY_DUMB, &d)
    }

    /// Forgets the buffer without freeing it: for close(.retain), where the framebuffer must stay
    /// on screen until the process's file is closed.
    func abandon() {
        guard !destroyed else { return }
        destroyed = true
        Syscalls.munmap(memory, length: size)
    }
}
