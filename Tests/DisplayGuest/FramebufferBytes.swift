// SPDX-License-Identifier: MIT
// The framebuffer's memory as the kernel holds it, read through read(2) on /dev/fbN rather than our
// mmap, so that close(.restore) is checked byte for byte (padding, the unused alpha byte and the
// rows off screen included, which a screendump cannot see); and a pan, so that the page shown when
// FBDevDisplay opens is not the first one.
#if canImport(Glibc)
import Glibc
#endif
import CLinuxShim
import VMGuestSupport

/// Every byte of `device`'s memory, from offset 0 to its end (smem_len).
func framebufferBytes(_ device: String) throws -> [UInt8] {
    let fd = open(device, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw GuestError("open \(device): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n >= 0 else { throw GuestError("read \(device): \(String(cString: strerror(errno)))") }
        if n == 0 { return bytes }
        bytes += chunk[0..<n]
    }
}

/// "identical N bytes", or "differs in R of T rows of B bytes, first row F" (rows of `rowBytes`).
func byteComparison(_ before: [UInt8], _ after: [UInt8], rowBytes: Int) -> String {
    guard before.count == after.count else { return "differs in length: \(before.count) then \(after.count) bytes" }
    if before == after { return "identical \(before.count) bytes" }
    let rows = (before.count + rowBytes - 1) / rowBytes
    var differing = 0, first = -1
    before.withUnsafeBytes { b in
        after.withUnsafeBytes { a in
            for row in 0..<rows {
                let start = row * rowBytes, n = min(rowBytes, before.count - start)
                if memcmp(b.baseAddress! + start, a.baseAddress! + start, n) != 0 {
                    differing += 1
                    if first < 0 { first = row }
                }
            }
        }
    }
    return "differs in \(differing) of \(rows) rows of \(rowBytes) bytes, first row \(first)"
}

/// Pans `device` so that row `row` is the first one shown (FBIOPAN_DISPLAY on the current var
/// info) and returns the yoffset the driver reports afterwards.
func pan(_ device: String, toRow row: UInt32) throws -> UInt32 {
    let fd = open(device, O_RDWR | O_CLOEXEC)
    guard fd >= 0 else { throw GuestError("open \(device): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var info = fb_var_screeninfo()
    guard ioctl(fd, CLinuxShim_FBIOGET_VSCREENINFO, &info) == 0 else { throw GuestError("FBIOGET_VSCREENINFO: \(String(cString: strerror(errno)))") }
    info.xoffset = 0
    info.yoffset = row
    guard ioctl(fd, CLinuxShim_FBIOPAN_DISPLAY, &info) == 0 else { throw GuestError("FBIOPAN_DISPLAY to row \(row): \(String(cString: strerror(errno)))") }
    guard ioctl(fd, CLinuxShim_FBIOGET_VSCREENINFO, &info) == 0 else { throw GuestError("FBIOGET_VSCREENINFO: \(String(cString: strerror(errno)))") }
    return info.yoffset
}

/// The yoffset `device` reports now: the first row shown.
func currentYOffset(_ device: String) throws -> UInt32 {
    let fd = open(device, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw GuestError("open \(device): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var info = fb_var_screeninfo()
    guard ioctl(fd, CLinuxShim_FBIOGET_VSCREENINFO, &info) == 0 else { throw GuestError("FBIOGET_VSCREENINFO: \(String(cString: strerror(errno)))") }
    return info.yoffset
}
