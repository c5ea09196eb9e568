// SPDX-License-Identifier: MIT
// What can go wrong opening or driving a display, each case naming the call and the device so the
// message alone says what to fix (permissions, wrong device node, unsupported framebuffer layout).

import Raster
import SystemPackage

/// An error from a display backend.
public enum DisplayError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A system call failed: the call ("open", "mmap", "munmap"), its errno, and the path or device.
    case syscall(String, Errno, String)
    /// An ioctl failed: the request's C name ("FBIOGET_VSCREENINFO"), its errno, and the device.
    case ioctl(String, Errno, String)
    /// The device works but its pixel layout or memory is one we do not drive (8 bpp palette,
    /// planar, too little memory...): the device and why.
    case unsupported(String, String)
    /// `present` got a frame whose size is not the output's frame size.
    case frameSizeMismatch(expectedWidth: Int32, expectedHeight: Int32, width: Int32, height: Int32)
    /// `present` after `close`.
    case closed
    /// DRM master is held by another process (a compositor, another splash, a VT switch took it):
    /// the libdrm call that was refused, its errno and the card. Not a fault of ours; the display
    /// keeps its buffers and the next `present` tries to take master back.
    case masterLost(String, Errno, String)

    public var description: String {
        switch self {
        case .syscall(let call, let errno, let subject):
            return "\(call) \(subject) failed: \(errno) (errno \(errno.rawValue))\(DisplayError.hint(errno))"
        case .ioctl(let request, let errno, let device):
            let hint = errno == .inappropriateIOCTLForDevice ? " - is it the right kind of device?" : DisplayError.hint(errno)
            return "ioctl \(request) on \(device) failed: \(errno) (errno \(errno.rawValue))\(hint)"
        case .unsupported(let device, let why):
            return "\(device): unsupported: \(why)"
        case .frameSizeMismatch(let ew, let eh, let w, let h):
            return "frame is \(w)x\(h) but the output needs \(ew)x\(eh)"
        case .closed:
            return "the display is closed"
        case .masterLost(let call, let errno, let device):
            return "ioctl \(call) (another process holds DRM master: a compositor, another splash program or a VT switch "
                + "took it; present will retry) on \(device) failed: \(errno) (errno \(errno.rawValue))"
        }
    }

    /// A word on the usual cause of errors people hit when starting on a new board.
    static func hint(_ errno: Errno) -> String {
        switch errno {
        case .permissionDenied: return " - run as root or join the 'video' group (see udev/)"
        case .noSuchFileOrDirectory: return " - no such device node"
        default: return ""
        }
    }
}
