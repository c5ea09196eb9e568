// SPDX-License-Identifier: MIT
// FBIO_WAITFORVSYNC and what its answers mean, apart from the display's state so that the wait can
// run on the display's worker thread (DisplayWorker) as well as on the caller's.

import SystemPackage

/// What one wait for the vblank found.
enum FBVSyncWait: Sendable, Equatable {
    /// At a vblank, at this CLOCK_MONOTONIC time.
    case vblank(Int64)
    /// The driver gives no vblank to wait for (the line for the log): pace by timer from now on.
    case none(String)
    /// EBUSY: DRM's fbdev emulation while a DRM client holds master. The pixels are written (shown
    /// once the kernel gets the screen back); there is just no vblank this time.
    case busy(DisplayError)
    /// Any other failure.
    case failed(DisplayError)

    /// Waits for the next vblank of `fd`. `probing` (while it is not known whether the driver has
    /// vsync) also times three more waits: DRM's fbdev emulation answers 0 at once when the CRTC
    /// has no vblank interrupt (bochs, virtio-gpu under QEMU). The three are judged together, by
    /// their span from the first wait's end: at least 1.5 intervals where vblanks are real (three
    /// vblanks follow the first, however late that one returned), a few microseconds where the
    /// driver does not wait. Judged one by one, either way errs under load: an emulated or busy
    /// CPU can stall an instant ioctl for several milliseconds, and a vblank timer that fires late
    /// (vkms's hrtimer on a loaded host) is followed by one that fires early, less than half an
    /// interval after it.
    static func wait(_ fd: FileDescriptor, device: String, probing: Bool, interval: Int64, refreshMillihertz: Int32) -> FBVSyncWait {
        do {
            try FBDev.waitForVSync(fd, device: device)
            if probing {
                let start = Syscalls.monotonicNanoseconds()
                for _ in 0..<3 { try FBDev.waitForVSync(fd, device: device) }
                if Syscalls.monotonicNanoseconds() - start < interval * 3 / 2 {
                    return .none("FBIO_WAITFORVSYNC on \(device) returns without waiting; pacing by timer")
                }
            }
            return .vblank(Syscalls.monotonicNanoseconds())
        } catch {
            if case .ioctl(_, .resourceBusy, _) = error { return .busy(error) }
            guard probing, case .ioctl(_, let e, _) = error,
                [.inappropriateIOCTLForDevice, .invalidArgument, .noFunction, .notSupportedOnSocket].contains(e)
            else { return .failed(error) }
            return .none("\(error); pacing by timer at \(refreshMillihertz) mHz")
        }
    }
}

/// What the worker did for one present: the pan (nil: none asked) and the wait after it (nil:
/// none asked, or the pan failed).
struct FBDevFlip: Sendable {
    var panError: DisplayError?
    var vsync: FBVSyncWait?
}
