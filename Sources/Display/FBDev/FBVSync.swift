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
    /// has no vblank interrupt (bochs, virtio-gpu under QEMU). One is not enough: an emulated or
    /// busy CPU can stall an instant ioctl for several milliseconds, and stamps taken then would
    /// pace as if from vblanks. Each is timed from the previous wait's end, not from its own
    /// start: a process preempted between two waits starts the next one late in the frame, and
    /// that wait is short though vblanks are real.
    static func wait(_ fd: FileDescriptor, device: String, probing: Bool, interval: Int64, refreshMillihertz: Int32) -> FBVSyncWait {
        do {
            try FBDev.waitForVSync(fd, device: device)
            if probing {
                var last = Syscalls.monotonicNanoseconds()
                for _ in 0..<3 {
                    try FBDev.waitForVSync(fd, device: device)
                    let end = Syscalls.monotonicNanoseconds()
                    if end - last < interval / 2 { return .none("FBIO_WAITFORVSYNC on \(device) returns without waiting; pacing by timer") }
                    last = end
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
