// SPDX-License-Identifier: MIT
// ioctl(2), the one entry for fbdev, VT and console requests (DRM's go through libdrm): a pointer
// or an integer argument, and the request's C name for the error.
import SystemPackage

public enum IOControl {
    /// `ioctl(fd, request, arg)` with a pointer argument; `name` is the request's C name.
    public static func call(_ fd: FileDescriptor, _ request: UInt, _ name: String, subject: String, _ arg: UnsafeMutableRawPointer) throws(SystemError) {
        _ = try retrying { system_ioctl(fd.rawValue, request, arg) }.get("ioctl \(name)", subject)
    }

    /// `ioctl(fd, request, value)` with an integer argument (FBIOBLANK, KDSETMODE).
    public static func call(_ fd: FileDescriptor, _ request: UInt, _ name: String, subject: String, value: CInt) throws(SystemError) {
        _ = try retrying { system_ioctl(fd.rawValue, request, value: value) }.get("ioctl \(name)", subject)
    }
}
