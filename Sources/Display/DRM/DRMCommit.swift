// SPDX-License-Identifier: MIT
// How a finished buffer gets onto a CRTC: two strategies behind one method (wlroots' iface.h,
// kmscube's drm-legacy.c / drm-atomic.c).
//
// Legacy (every KMS driver):
//   first frame  drmModeSetCrtc(crtc, fb, connector, mode)    blocking, no event: run on the
//                display's worker thread (DisplayWorker), whose outcome completes the frame as a
//                flip's event would
//   later        drmModePageFlip(crtc, fb, PAGE_FLIP_EVENT)     event when the flip is done
// Atomic (DRM_CLIENT_CAP_ATOMIC granted and every property in DRMPropertyTable.required found):
//   first frame  connector CRTC_ID, CRTC ACTIVE + MODE_ID (a property blob of the mode), primary
//                plane FB_ID/CRTC_ID/SRC_*/CRTC_* in one ALLOW_MODESET | NONBLOCK |
//                PAGE_FLIP_EVENT commit: the kernel sets the mode in its commit worker (link
//                training on a real panel can take hundreds of milliseconds) and says when with
//                an event, so the frame loop goes on meanwhile, as it does for a flip
//   later        plane FB_ID alone, NONBLOCK | PAGE_FLIP_EVENT
// Either way the first frame is only committed once it is completely drawn, so the screen never
// shows an empty buffer.

import CDRM
import SystemPackage

/// One output's KMS objects. A class: each flip hands it to the commit, and a copy of the struct it
/// was (the mode, three property tables) cost a frame its retains and releases.
final class DRMOutputTarget {
    let connectorID: UInt32
    let crtcID: UInt32
    let mode: drmModeModeInfo
    /// The primary plane and the property tables an atomic commit needs (nil for legacy).
    var atomic: DRMAtomicObjects?

    init(connectorID: UInt32, crtcID: UInt32, mode: drmModeModeInfo, atomic: DRMAtomicObjects?) {
        self.connectorID = connectorID; self.crtcID = crtcID; self.mode = mode; self.atomic = atomic
    }
}

struct DRMAtomicObjects {
    var planeID: UInt32
    var connector: DRMPropertyTable
    var crtc: DRMPropertyTable
    var plane: DRMPropertyTable
    /// The plane's FB_ID and CRTC_ID property ids, all a flip sets: looked up once, not by name
    /// every frame.
    let flipIDs: (fb: UInt32, crtc: UInt32)?

    init(planeID: UInt32, connector: DRMPropertyTable, crtc: DRMPropertyTable, plane: DRMPropertyTable) {
        self.planeID = planeID; self.connector = connector; self.crtc = crtc; self.plane = plane
        if let fb = plane["FB_ID"], let crtcID = plane["CRTC_ID"] { flipIDs = (fb, crtcID) } else { flipIDs = nil }
    }
}

/// Shows a framebuffer on an output.
protocol CommitStrategy: AnyObject {
    /// A name for diagnostics ("atomic", "legacy").
    var name: String { get }
    /// Puts `framebuffer` on `target`'s CRTC, setting the mode first when `modeset`. Returns true
    /// when a page-flip event carrying `userData` will report completion (false: done on return).
    func commit(_ target: DRMOutputTarget, framebuffer: UInt32, modeset: Bool, userData: UnsafeMutableRawPointer?) throws(DisplayError) -> Bool
}

/// What the display's worker did (DisplayWorker): a legacy modeset, or an unplugged output let go.
enum DRMWorkDone: Sendable {
    /// drmModeSetCrtc returned (with its failure, if any) at this CLOCK_MONOTONIC time.
    case modeset(DisplayError?, at: Int64)
    /// An output's CRTC was turned off and its buffers freed: what went wrong, for the log.
    case dropped([String])
}

final class LegacyCommit: CommitStrategy {
    let fd: FileDescriptor
    let device: String
    var name: String { "legacy" }
    private let worker: DisplayWorker<DRMWorkDone>
    /// The user data of each modeset the worker runs, by its number: its outcome completes the
    /// frame as the event of a flip with that user data would.
    private var modesets: [UInt64: UnsafeMutableRawPointer?] = [:]

    init(fd: FileDescriptor, device: String, worker: DisplayWorker<DRMWorkDone>) {
        self.fd = fd; self.device = device; self.worker = worker
    }

    func commit(_ target: DRMOutputTarget, framebuffer: UInt32, modeset: Bool, userData: UnsafeMutableRawPointer?) throws(DisplayError) -> Bool {
        if modeset {
            // drmModeSetCrtc has no non-blocking form: it runs on the worker.
            let fd = self.fd, device = self.device, crtc = target.crtcID, mode = target.mode, connectorID = target.connectorID
            let id = worker.run {
                var connector = connectorID, mode = mode
                let r = drmModeSetCrtc(fd.rawValue, crtc, framebuffer, 0, 0, &connector, 1, &mode)
                var failure: DisplayError?
                do throws(DisplayError) { try DRMCall.check("drmModeSetCrtc", r, device: device) } catch { failure = error }
                return .modeset(failure, at: Syscalls.monotonicNanoseconds())
            }
            modesets[id] = userData
            return true
        }
        try DRMCall.check(
            "drmModePageFlip",
            drmModePageFlip(fd.rawValue, target.crtcID, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), userData), device: device)
        return true
    }

    /// The user data of the modeset the worker finished as call `id` (nil: not a modeset).
    func modesetDone(_ id: UInt64) -> UnsafeMutableRawPointer?? {
        modesets.removeValue(forKey: id)
    }
}

final class AtomicCommit: CommitStrategy {
    let fd: FileDescriptor
    let device: String
    var name: String { "atomic" }
    /// MODE_ID blobs by CRTC, created at the first modeset and kept (the kernel frees them with the file).
    /// After a hotplug the same CRTC may be set to another mode: a blob is reused only for the same mode bytes.
    private var modeBlobs: [UInt32: (mode: [UInt8], blob: UInt32)] = [:]

    /// The request every flip reuses, emptied first: a frame allocates none.
    private var flipRequest: drmModeAtomicReqPtr?

    init(fd: FileDescriptor, device: String) { self.fd = fd; self.device = device }

    deinit { if let flipRequest { drmModeAtomicFree(flipRequest) } }

    func commit(_ target: DRMOutputTarget, framebuffer: UInt32, modeset: Bool, userData: UnsafeMutableRawPointer?) throws(DisplayError) -> Bool {
        guard let objects = target.atomic else { throw .unsupported(device, "atomic commit without a primary plane") }
        if !modeset, let ids = objects.flipIDs {
            return try flip(objects.planeID, ids, framebuffer: framebuffer, crtcID: target.crtcID, userData: userData)
        }
        guard let req = drmModeAtomicAlloc() else { throw .ioctl("drmModeAtomicAlloc", .noMemory, device) }
        defer { drmModeAtomicFree(req) }
        var failed: String?
        func add(_ object: UInt32, _ table: DRMPropertyTable, _ name: String, _ value: UInt64) {
            guard failed == nil else { return }
            guard let id = table[name], drmModeAtomicAddProperty(req, object, id, value) >= 0 else {
                failed = "\(table.kind.rawValue) property \(name)"
                return
            }
        }
        let plane = objects.planeID
        add(plane, objects.plane, "FB_ID", UInt64(framebuffer))
        add(plane, objects.plane, "CRTC_ID", UInt64(target.crtcID))
        var flags = UInt32(DRM_MODE_ATOMIC_NONBLOCK) | UInt32(DRM_MODE_PAGE_FLIP_EVENT)
        if modeset {
            let blob = try modeBlob(for: target)
            add(target.connectorID, objects.connector, "CRTC_ID", UInt64(target.crtcID))
            add(target.crtcID, objects.crtc, "ACTIVE", 1)
            add(target.crtcID, objects.crtc, "MODE_ID", UInt64(blob))
            let w = UInt64(target.mode.hdisplay), h = UInt64(target.mode.vdisplay)
            add(plane, objects.plane, "SRC_X", 0)
            add(plane, objects.plane, "SRC_Y", 0)
            add(plane, objects.plane, "SRC_W", w << 16)  // 16.16 fixed point
            add(plane, objects.plane, "SRC_H", h << 16)
            add(plane, objects.plane, "CRTC_X", 0)
            add(plane, objects.plane, "CRTC_Y", 0)
            add(plane, objects.plane, "CRTC_W", w)
            add(plane, objects.plane, "CRTC_H", h)
            flags |= UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET)
        }
        if let failed { throw .unsupported(device, "atomic commit cannot set \(failed)") }
        try DRMCall.check("drmModeAtomicCommit", drmModeAtomicCommit(fd.rawValue, req, flags, userData), device: device)
        return true
    }

    /// A flip: the plane's FB_ID and CRTC_ID in the reused request, NONBLOCK | PAGE_FLIP_EVENT.
    private func flip(_ plane: UInt32, _ ids: (fb: UInt32, crtc: UInt32), framebuffer: UInt32, crtcID: UInt32,
                      userData: UnsafeMutableRawPointer?) throws(DisplayError) -> Bool {
        if flipRequest == nil { flipRequest = drmModeAtomicAlloc() }
        guard let req = flipRequest else { throw .ioctl("drmModeAtomicAlloc", .noMemory, device) }
        drmModeAtomicSetCursor(req, 0)
        guard drmModeAtomicAddProperty(req, plane, ids.fb, UInt64(framebuffer)) >= 0,
              drmModeAtomicAddProperty(req, plane, ids.crtc, UInt64(crtcID)) >= 0 else {
            throw .ioctl("drmModeAtomicAddProperty", .noMemory, device)
        }
        let flags = UInt32(DRM_MODE_ATOMIC_NONBLOCK) | UInt32(DRM_MODE_PAGE_FLIP_EVENT)
        try DRMCall.check("drmModeAtomicCommit", drmModeAtomicCommit(fd.rawValue, req, flags, userData), device: device)
        return true
    }

    private func modeBlob(for target: DRMOutputTarget) throws(DisplayError) -> UInt32 {
        var mode = target.mode
        let bytes = withUnsafeBytes(of: &mode) { Array($0) }
        if let b = modeBlobs[target.crtcID] {
            if b.mode == bytes { return b.blob }
            drmModeDestroyPropertyBlob(fd.rawValue, b.blob)
            modeBlobs[target.crtcID] = nil
        }
        var blob: UInt32 = 0
        try DRMCall.check(
            "drmModeCreatePropertyBlob", drmModeCreatePropertyBlob(fd.rawValue, &mode, MemoryLayout<drmModeModeInfo>.size, &blob),
            device: device)
        modeBlobs[target.crtcID] = (bytes, blob)
        return blob
    }
}
