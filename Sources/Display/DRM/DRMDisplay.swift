// SPDX-License-Identifier: MIT
// The HUD on KMS/DRM: every connected connector of the card that can modeset, each on its own CRTC,
// with two dumb buffers per output. The sequence (drm-howto modeset-double-buffered.c and
// modeset-vsync.c, kmscube drm-legacy.c / drm-atomic.c):
//
//   open      pick the card (DRMDevice.swift), the connected connectors, a CRTC for each
//             (DRMCRTCAssignment), the mode (DRMModeSelection), the format (XRGB8888, or RGB565 when
//             that is all the primary plane takes), the rotation (requested + the connector's
//             `panel orientation`); save each CRTC's state for close(.restore); create one dumb
//             buffer per output. Nothing is shown yet.
//   present   per output: convert the damage (plus what this buffer missed, PageDamage.swift) into the
//             back buffer, commit it (the first time with the mode: the first frame appears only
//             once it is completely drawn; the second buffer is created by the second present, as
//             creating one is a round trip to the host on virtio-gpu) and return; the next present
//             to that output first waits for the page-flip event (poll + drmHandleEvent) that
//             frees the other buffer.
//             So every mirrored output flips at the same vblank instead of one vblank each.
//   close     .restore: drmModeSetCrtc back to the saved framebuffer and mode, free the buffers.
//             .retain: leave our framebuffer on the CRTC and drop DRM master so the next program
//             can take over; the buffers live until the display is released (on Linux 6.1, which
//             we test, closing the card removes its framebuffers: the runtime also leaves the
//             frame in the fbdev emulation buffer, `fbdevEmulationPath`, for after our exit).
//
// Timing: drivers without vblank interrupts (bochs, virtio-gpu, cirrus under QEMU) fail
// drmWaitVBlank; their flip events carry the completion time, not a vblank, so present reports
// `.timer`. Others report the flip event's CLOCK_MONOTONIC timestamp as `.vblank`.
//
// DRM master: a commit that fails with EACCES/EPERM means another process (or a VT switch) took
// master. present throws DisplayError.masterLost once, forgets the mode on every output, and the next present
// calls drmSetMaster (failing clearly while the other holder keeps it) and modesets again.
// `releaseMaster()` gives master up on purpose (VT switch away). Checked under QEMU: released,
// a second opener of the card becomes master, present fails, and after it closes present shows
// the frame again.
//
// Hotplug (DRMDisplayRefresh.swift): refreshOutputs() re-reads the connectors after a uevent;
// a newly connected one gets a free CRTC, a mode, a format and two buffers (the same rules as at
// open) and is modeset by its next present; a disconnected one is dropped (its flip forgotten, its
// CRTC turned off and its buffers freed on the worker) without touching the others; one whose mode
// vanished from its mode list is re-created. Whole cards coming and going are DRMDisplaySet's business.
//
// Blocking calls (a legacy modeset, turning an unplugged output's CRTC off) run on the display's
// worker thread (DisplayWorker.swift), whose descriptor is among `eventDescriptors`: a frame loop
// never waits in them. Only close waits, for the flips and calls in flight, at the process's exit.
//
// Damage with a flip: every present flips to the other buffer, and a new framebuffer on the plane
// counts as full damage for damage-helper drivers (virtio-gpu), so no drmModeDirtyFB is needed.
// Single-buffered (`buffers: 1`, or when the second dumb buffer cannot be allocated: small VRAM,
// a tight CMA pool) present draws into the buffer on screen and calls drmModeDirtyFB with the
// rects it wrote, which drivers that copy or upload (virtio-gpu, cirrus, udl, SPI panels) need to
// show anything; ENOSYS means the driver scans out directly and it is not called again. Frames
// may tear there: the price of one buffer.
//
// Why two buffers and not three: the shadow frame is drawn before present waits for the flip
// event, so the wait overlaps rendering and the copy then has a free buffer at once. A third buffer
// only helps a loop whose rendering overruns the interval; a full 1080p HUD frame plus its
// present costs about 1.3 ms (splashhud-bench), under a tenth of a 60 Hz interval, and QEMU's
// drivers complete flips at once (`flipWaitNanoseconds` stays near zero there).

import LinuxSystem
import CDRM
import Raster
import SystemPackage

/// How to open a DRM display.
public struct DRMDisplayOptions: Sendable {
    /// The card node; nil picks the card that can modeset.
    public var devicePath: String?
    /// The mode every output should use (the board profile's), when the connector offers it.
    public var mode: DRMModeRequest?
    /// `video=` overrides; nil reads the kernel's (/proc/cmdline), as fbcon and the kernel's own
    /// DRM clients honour them.
    public var videoOverrides: [DRMModeRequest]?
    /// A rotation applied after the panel orientation's (or instead of it, see below).
    public var rotation: Rotation
    /// true: the connector's `panel orientation` is undone first, then `rotation`; false:
    /// `rotation` alone (a board profile that states the mounting rotation outright).
    public var followPanelOrientation: Bool
    /// Connector names to use ("HDMI-A-1", "DSI-1"); nil uses every connected connector.
    public var connectors: [String]?
    /// A scanout format to use instead of XRGB8888/RGB565, when the plane takes it.
    public var format: PixelFormat?
    /// false keeps to legacy drmModeSetCrtc/drmModePageFlip even where atomic works.
    public var allowAtomic: Bool
    public var dither: Bool
    /// How long present waits for a page-flip event before giving up.
    public var flipTimeoutMilliseconds: Int32
    /// Scanout buffers per output: 2 (page flips) or 1 (draw on screen + drmModeDirtyFB). With 2,
    /// an output whose second buffer cannot be allocated falls back to 1 (noted in diagnostics).
    public var buffers: Int

    public init(
        devicePath: String? = nil, mode: DRMModeRequest? = nil, videoOverrides: [DRMModeRequest]? = nil,
        rotation: Rotation = .r0, format: PixelFormat? = nil, allowAtomic: Bool = true, dither: Bool = true,
        flipTimeoutMilliseconds: Int32 = 1000, buffers: Int = 2, followPanelOrientation: Bool = true,
        connectors: [String]? = nil
    ) {
        precondition(buffers == 1 || buffers == 2, "DRM buffers per output: 1 or 2, not \(buffers)")
        self.devicePath = devicePath; self.mode = mode; self.videoOverrides = videoOverrides
        self.rotation = rotation; self.format = format; self.allowAtomic = allowAtomic; self.dither = dither
        self.flipTimeoutMilliseconds = flipTimeoutMilliseconds; self.buffers = buffers
        self.followPanelOrientation = followPanelOrientation; self.connectors = connectors
    }

    /// Whether connector `name` is selected (`connectors` nil selects every one).
    public func allows(connector name: String) -> Bool {
        connectors.map { $0.contains(name) } ?? true
    }
}

/// A `Display` on a KMS/DRM card. Dropping it without `close` restores the screen.
public final class DRMDisplay: Display {
    /// One per used connector; changes only in `refreshOutputs` (a connector plugged or unplugged).
    public private(set) var outputs: [DisplayOutput]
    /// The card node in use.
    public let devicePath: String
    /// The kernel driver ("bochs-drm", "virtio_gpu").
    public let driverName: String
    /// "atomic" or "legacy".
    public let commitStrategyName: String
    /// Optional things that failed or fell back, one readable line each (for the log).
    public internal(set) var diagnostics = DiagnosticLog()
    /// Whether another process holds DRM master (present retries drmSetMaster).
    public private(set) var isMasterLost = false
    /// drmModeDirtyFB calls made (single-buffered outputs on drivers that need them).
    public private(set) var dirtyFBCalls = 0
    /// Page flips whose event never came within the flip timeout (given up, see `waitForFlip`).
    public internal(set) var flipTimeouts = 0
    /// Time present spent blocked on page-flip events, summed (what a third buffer could save).
    public internal(set) var flipWaitNanoseconds: Int64 = 0
    /// Scanout buffers per output, in `outputs` order (1 = single-buffered with DirtyFB).
    public var buffersPerOutput: [Int] { states.map(\.buffers.count) }
    public let dither: Bool

    var device: DRMDevice?
    var states: [DRMOutputState] {
        didSet { outputs = states.map(\.output) }
    }
    let strategy: CommitStrategy
    let factory: DRMOutputFactory
    /// Runs the calls that block (legacy modesets, turning an unplugged output's CRTC off) off
    /// the frame loop; its descriptor is among `eventDescriptors`.
    let worker: DisplayWorker<DRMWorkDone>
    /// A failure the worker met, thrown by the next present or handleEvents.
    var deferredError: DisplayError?
    let flipTimeout: Int32

    public convenience init(options: DRMDisplayOptions = DRMDisplayOptions()) throws(DisplayError) {
        let device: DRMDevice
        if let path = options.devicePath {
            device = try DRMDevice(path: path, wantAtomic: options.allowAtomic)
        } else {
            device = try DRMDevice.openModesettingCard(wantAtomic: options.allowAtomic)
        }
        try self.init(device: device, options: options)
    }

    /// Drives an open card (DRMDisplaySet opens each card itself to check its driver first).
    init(device: DRMDevice, options: DRMDisplayOptions) throws(DisplayError) {
        self.device = device
        devicePath = device.path; driverName = device.driverName; dither = options.dither; flipTimeout = options.flipTimeoutMilliseconds
        let connected = device.connectors.filter { $0.isConnected && !$0.modes.isEmpty && options.allows(connector: $0.name) }
        guard !connected.isEmpty else {
            let what = options.connectors.map { "none of \($0.joined(separator: ", ")) is connected" } ?? "no connected connector with modes"
            throw .unsupported(device.path, what)
        }
        let crtcIndices = DRMCRTCAssignment.assign(connected.map { ($0.possibleCRTCs, $0.currentCRTCIndex) }, crtcCount: device.crtcIDs.count)
        let factory = DRMOutputFactory(
            device: device, options: options, videoOverrides: options.videoOverrides ?? DRMModeSelection.kernelVideoOverrides())
        var notes: [String] = []
        var states: [DRMOutputState] = []
        var useAtomic = device.hasAtomic
        for (connector, crtcIndex) in zip(connected, crtcIndices) {
            guard let crtcIndex else {
                notes.append("\(connector.name): no free CRTC, not used")
                continue
            }
            let (state, atomic) = try factory.make(connector: connector, crtcIndex: crtcIndex, wantAtomic: useAtomic, notes: &notes)
            if case .unavailable(let why) = atomic {
                notes.append("\(why); using legacy")
                useAtomic = false
            }
            states.append(state)
        }
        guard !states.isEmpty else { throw .unsupported(device.path, notes.joined(separator: "; ")) }
        if !useAtomic { for s in states { s.target.atomic = nil } }
        let worker = try DisplayWorker<DRMWorkDone>()
        self.worker = worker
        self.factory = factory
        self.states = states
        outputs = states.map(\.output)
        strategy = useAtomic
            ? AtomicCommit(fd: device.fd, device: device.path) : LegacyCommit(fd: device.fd, device: device.path, worker: worker)
        commitStrategyName = strategy.name
        diagnostics = []
        diagnostics += notes
    }

    deinit { close(.restore) }

    /// The first output's refresh period; 60 Hz while no output is connected.
    public var frameIntervalNanoseconds: Int64 { outputs.first?.mode.frameIntervalNanoseconds ?? 16_666_667 }

    /// Presents `frame` on every output (they must all take this frame size; see `present(_:damage:output:)`).
    public func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming {
        var timing = PresentTiming.timer
        for i in states.indices { timing = try present(frame, damage: damage, output: i) }
        return timing
    }

    /// Presents a frame laid out for output `index` (`outputs[index].frameWidth x frameHeight`).
    public func present(_ frame: ComposedFrame, damage: [IntRect], output index: Int) throws(DisplayError) -> PresentTiming {
        guard let device else { throw .closed }
        let state = states[index]
        // The output's fields, not the output: a copy of it (its name, its mode) cost every frame.
        let rotation = state.output.rotation
        guard frame.width == state.output.frameWidth, frame.height == state.output.frameHeight else {
            throw .frameSizeMismatch(expectedWidth: state.output.frameWidth, expectedHeight: state.output.frameHeight,
                                     width: frame.width, height: frame.height)
        }
        try throwDeferredError()
        if isMasterLost {
            let r = drmSetMaster(device.fd.rawValue)
            if r < 0 { throw .masterLost("drmSetMaster", (r == -1 ? currentErrno() : Errno(rawValue: -r)), device.path) }
            isMasterLost = false
        }
        if state.flipPending { try waitForFlip(state, device: device) }
        var (page, rects) = state.pages.target(damage: damage)
        if page == state.buffers.count, let note = state.addSecondBuffer() {
            diagnostics.append(note)
            (page, rects) = state.pages.target(damage: damage)
        }
        let buffer = state.buffers[page]
        // What was written is only told to the driver single-buffered (a flip needs no list).
        let onScreen = state.buffers.count == 1 && !state.needsModeset
        var written: [IntRect] = []
        for r in rects ?? [frame.bounds] {
            let w = convertingBlit(from: frame, rect: r, to: buffer.surface, rotation: rotation, dither: dither)
            if onScreen { written.append(w) }
        }
        if onScreen {
            // Single-buffered and already on screen: no flip, tell the driver what changed.
            state.pages.drawn(page: page, damage: damage)
            try markDirty(state, buffer: buffer, rects: written, device: device)
            // Drawn on screen, no flip: there is no vblank stamp for this frame, pace by timer.
            return .timer
        }
        // The event carries a retained token, not the state: an event still queued when the
        // output is dropped (master lost, a flip timed out, unplugged) then finds no state to
        // touch instead of freed memory, and cannot complete a newer flip.
        let token = DRMFlipToken(state)
        let userData = Unmanaged.passRetained(token).toOpaque()
        let willSignal: Bool
        do {
            willSignal = try strategy.commit(state.target, framebuffer: buffer.framebufferID, modeset: state.needsModeset, userData: userData)
        } catch {
            Unmanaged<DRMFlipToken>.fromOpaque(userData).release()
            throw masterLoss(error)
        }
        let modeset = state.needsModeset
        state.needsModeset = false
        state.pages.drawn(page: page, damage: damage)
        if willSignal {
            // Not awaited here: the frame loop hears of it on `eventDescriptors` (a present to
            // this output before then waits for it), so mirrored outputs flip at the same vblank.
            state.flipToken = token
        } else {
            Unmanaged<DRMFlipToken>.fromOpaque(userData).release()
        }
        // A modeset's frame is paced from its commit (its event, an atomic one's, brings the
        // vblank's stamp later); a legacy one is on screen now.
        if modeset || !willSignal { state.lastFlipNanoseconds = Syscalls.monotonicNanoseconds() }
        if modeset && !state.hasVBlank {
            // A CRTC that was off at setup (a hot-plugged connector, a head fbcon did not light)
            // cannot answer drmWaitVBlank until its mode is set: now, or when the event says so.
            if willSignal {
                state.probesVBlankAfterFlip = true
            } else {
                state.hasVBlank = DRMOutputFactory.crtcHasVBlank(device.fd, crtcIndex: state.crtcIndex)
            }
        }
        return state.hasVBlank ? .vblank(nanoseconds: state.lastFlipNanoseconds) : .timer
    }

    /// The card's fbdev emulation node ("/dev/fb0", from /sys/class/drm/cardN/device/graphics),
    /// nil when the driver has none. What it holds is the kernel's fallback picture: shown again
    /// when our framebuffers go away (on Linux 6.1, which we test, when our process closes the card).
    public var fbdevEmulationPath: String? {
        let card = devicePath.split(separator: "/").last.map(String.init) ?? devicePath
        let names = (try? Syscalls.listDirectory("/sys/class/drm/\(card)/device/graphics")) ?? []
        return names.first { $0.hasPrefix("fb") && $0.dropFirst(2).allSatisfy(\.isNumber) }.map { "/dev/\($0)" }
    }

    public var fbdevEmulationPaths: [String] { fbdevEmulationPath.map { [$0] } ?? [] }

    /// Waits until every committed frame is on screen (before a screenshot, a hand-over, or
    /// measuring): present itself returns once the flip is queued.
    public func waitForPendingFlips() throws(DisplayError) {
        guard let device else { throw .closed }
        for s in states where s.flipPending { try waitForFlip(s, device: device) }
    }

    /// drmModeDirtyFB for the rects just written into a single buffer on screen; ENOSYS (a driver
    /// that scans the buffer out directly) turns it off for this output.
    private func markDirty(_ state: DRMOutputState, buffer: DRMDumbBuffer, rects: [IntRect], device: DRMDevice) throws(DisplayError) {
        guard state.needsDirtyFB, !rects.isEmpty else { return }
        var clips = rects.filter { !$0.isEmpty }.map { r in
            drmModeClip(x1: UInt16(clamping: r.x), y1: UInt16(clamping: r.y), x2: UInt16(clamping: r.maxX), y2: UInt16(clamping: r.maxY))
        }
        let r = drmModeDirtyFB(device.fd.rawValue, buffer.framebufferID, &clips, UInt32(clips.count))
        do { try DRMCall.check("drmModeDirtyFB", r, device: device.path) } catch {
            if case .ioctl(_, .noFunction, _) = error {  // ENOSYS
                state.needsDirtyFB = false
                diagnostics.append("\(state.output.name): the driver scans out directly (drmModeDirtyFB: ENOSYS), not called again")
                return
            }
            dirtyFBCalls += 1
            throw masterLoss(error)
        }
        dirtyFBCalls += 1
    }

    /// A call the kernel refused because we are not master (EACCES/EPERM: another process or a VT
    /// switch took it) becomes `.masterLost`, and the screen is forgotten so the next present takes
    /// master back and shows everything again; any other error is returned as it is.
    func masterLoss(_ error: DisplayError) -> DisplayError {
        guard case .ioctl(let call, let e, let path) = error, e == .permissionDenied || e == .notPermitted else { return error }
        forgetScreen()
        return .masterLost(call, e, path)
    }

    /// Gives up DRM master, as on a VT switch away or to let another program show something:
    /// drmDropMaster at once. Flips in flight are not waited for: the kernel completes them
    /// (another master's first commit waits for them there), and their events find their tokens
    /// forgotten. The next present takes master back (drmSetMaster) and sets every mode again.
    public func releaseMaster() throws(DisplayError) {
        guard let device else { throw .closed }
        forgetScreen()
        try DRMCall.check("drmDropMaster", drmDropMaster(device.fd.rawValue), device: device.path)
    }

    /// Whether a CRTC of ours scans out a framebuffer that is not one of ours (reading a CRTC
    /// needs no master). A CRTC turned off shows no one's picture.
    public func othersDrawn() -> Bool? {
        guard let device else { return nil }
        for s in states {
            guard let crtc = drmModeGetCrtc(device.fd.rawValue, s.target.crtcID) else { continue }
            let shown = crtc.pointee.buffer_id
            drmModeFreeCrtc(crtc)
            if shown != 0 && !s.buffers.contains(where: { $0.framebufferID == shown }) { return true }
        }
        return false
    }

    /// Master is gone (taken, or given up): the next present takes it back and sets every mode
    /// again; flips still queued are not waited for (their late events find nothing, DRMFlipToken).
    private func forgetScreen() {
        isMasterLost = true
        for s in states { s.needsModeset = true; s.forgetFlip() }
    }

    /// Waits for the flips in flight and the worker's calls (at the process's exit, or a card let
    /// go: no frame loop waits on it), then restores or retains.
    public func close(_ how: CloseBehaviour) {
        guard let device else { return }
        for s in states where s.flipPending { try? waitForFlip(s, device: device) }
        absorb(worker.finish(timeoutMilliseconds: flipTimeout))
        if !worker.outstanding.isEmpty {
            // A call stuck in the driver keeps the card open: its descriptor and buffers are
            // never reused or freed under it (at exit, a few pages).
            diagnostics.append("\(devicePath): the worker is still in an ioctl; the card is left open")
            retainedDevice = device
            self.device = nil
            return
        }
        switch how {
        case .restore:
            for s in states {
                if var saved = s.saved, saved.buffer_id != 0, saved.mode_valid != 0 {
                    var connector = s.target.connectorID
                    if drmModeSetCrtc(device.fd.rawValue, saved.crtc_id, saved.buffer_id, saved.x, saved.y, &connector, 1, &saved.mode) != 0 {
                        diagnostics.append("restoring CRTC \(saved.crtc_id) failed: \(currentErrno())")
                    }
                } else if !s.needsModeset {
                    _ = drmModeSetCrtc(device.fd.rawValue, s.target.crtcID, 0, 0, 0, nil, 0, nil)
                }
                for b in s.buffers { b.destroy() }
            }
            self.device = nil
        case .retain:
            for s in states { for b in s.buffers { b.abandon() } }
            _ = drmDropMaster(device.fd.rawValue)
            retainedDevice = device
            self.device = nil
        }
    }

    /// After close(.retain): the card stays open so our framebuffers stay on screen.
    private var retainedDevice: DRMDevice?

    /// The card was unplugged (its descriptor answers ENODEV): forgets everything without a single
    /// ioctl (no restore, no RmFB), unmaps the buffers and closes the card. Later presents throw
    /// `.closed`.
    func abandonUnpluggedCard() {
        guard device != nil else { return }
        for s in states { s.forgetFlip(); for b in s.buffers { b.abandon() } }
        device = nil
    }
}

/// The scanout format for a primary plane's format list (pure, unit-tested).
public enum DRMFormatChoice {
    /// `override` when the plane takes it; else XRGB8888; else RGB565 when the plane takes that;
    /// else the first format of ours it lists. An empty list (no universal planes: the plane is not
    /// visible to us) means XRGB8888, which every legacy KMS driver scans out.
    public static func choose(planeFormats: [UInt32], override: PixelFormat?) -> PixelFormat? {
        if planeFormats.isEmpty { return override ?? .xrgb8888 }
        if let o = override, planeFormats.contains(o.drmFourCC) { return o }
        for f in [PixelFormat.xrgb8888, .rgb565] where planeFormats.contains(f.drmFourCC) { return f }
        return planeFormats.lazy.compactMap { PixelFormat(drmFourCC: $0) }.first
    }
}
