// SPDX-License-Identifier: MIT
// The HUD on a Linux framebuffer device (/dev/fbN): vesafb, efifb, DRM's fbdev emulation, panel
// drivers on small boards. The sequence (as LVGL's lv_linux_fbdev.c, with double buffering):
//
//   open      open the node, FBIOGET_VSCREENINFO + FBIOGET_FSCREENINFO -> FBLayout (refuses what
//             we cannot drive), mmap smem_len, save the visible page for `close(.restore)` (run-length
//             encoded, SavedPage.swift: an emptied console costs kilobytes, not the page's
//             megabytes), FBIOBLANK(FB_BLANK_UNBLANK) (noted and skipped where the driver lacks it).
//   present   convert the damage (plus what the target page missed, PageDamage.swift) from the shadow
//             frame into the hidden page and FBIOPAN_DISPLAY to it; with one page, into the visible
//             one; fsync (runs DRM fbdev emulation's deferred I/O now). Then FBIO_WAITFORVSYNC;
//             ENOTTY/EINVAL, or one of three waits returning at once (DRM emulation without vblank
//             interrupts), means no vsync and present reports `.timer` from then on. A pan on DRM
//             emulation already returns at the vblank (an atomic commit): no wait after it.
//             Opened `waitsOnWorker` (the daemon), the pan and the wait run on the display's
//             worker thread (DisplayWorker.swift): present returns once the page is drawn, and
//             the frame loop hears of the vblank on `eventDescriptors`, as of a DRM page flip.
//   close     put back the saved bytes (restore) or copy the last frame to where the screen was
//             (retain), pan back to the offset found at open, munmap, close. Double buffered, the
//             other page keeps what was drawn there: it was off screen, and saving it too would
//             read a second page of scanout memory at open.
//
// The screen's var info is never changed (no FBIOPUT_VSCREENINFO): a mode change on fbdev can
// disturb fbcon and the DRM emulation, and panning within the existing virtual size is enough.
// Double buffering needs yres_virtual >= 2·yres, a non-zero ypanstep and xoffset 0 at open, and
// on DRM's fbdev emulation a driver that shows the panned page (FBLayout.pansOnDRMEmulation: vkms
// does; bochs, virtio-gpu, cirrus and qxl do not).
//
// Tested under QEMU by Tests/QEMUTests/FBDevEndToEndTests.swift: on vesafb 32, 24 and 16 bpp and
// on bochs' DRM fbdev emulation (also rotated 90° and 180°) the screendump equals MemoryDisplay's
// scanout of the same frames bit for bit (565 dithering included) except fbcon's blinking cursor
// cell, which keeps drawing until KD_GRAPHICS is set (the VT part); close(.restore) gives back the
// framebuffer's memory byte for byte (also with the page shown at open panned to row 800 of the
// emulation's over-allocated memory) and close(.retain) leaves the last frame. vesafb on x86-64
// cannot pan (ypanstep 0 even with video=vesafb:ypan), and the QEMU DRM drivers do not show the
// panned page; double buffering by panning is tested on vkms's emulation by its per-vblank CRCs
// (FBDevPanEndToEndTests: every frame bit-exact, the y-offset alternating, none half drawn).

import CLinuxShim
import Raster
import SystemPackage

/// A `Display` on one fbdev device. Dropping it without `close` restores the screen; call
/// `close(.retain)` to leave the last frame up.
public final class FBDevDisplay: Display {
    /// The device node, e.g. "/dev/fb0".
    public let path: String
    /// The framebuffer's layout as found at open.
    public let layout: FBLayout
    public let outputs: [DisplayOutput]
    /// Whether present draws into a hidden page and pans (false: straight into the visible page).
    public private(set) var isDoubleBuffered: Bool
    /// Whether FBIO_WAITFORVSYNC works: nil until the first present tries it.
    public private(set) var hasVSync: Bool?
    /// Optional features that failed and were skipped, one readable line each (for the log).
    public private(set) var diagnostics: [String] = []
    /// Whether 565 output is dithered (see convertingBlit).
    public let dither: Bool
    /// Bytes the copy of the page shown at open takes, kept for `close(.restore)`: compressed
    /// (SavedPage), of `layout.pageBytes` as it is on the screen.
    public var savedPageByteCount: Int { savedPage.storedByteCount }

    private var fd: FileDescriptor?
    private let memory: UnsafeMutableRawPointer
    private let originalVariable: fb_var_screeninfo
    private let savedPage: SavedPage
    /// The rows that were visible at open (where `savedPage` came from and goes back to).
    private let homeRow: Int32
    /// The visible column at open when single buffered (0 when it would not fit in a row).
    private let homeColumn: Int32
    /// The pan offset now on screen.
    private var currentOffset: (x: Int32, y: Int32)
    private var presentCount = 0
    /// First row of each page: double buffered p·yres; single buffered the visible rows.
    private var pageRows: [Int32]
    /// FBIO_WAITFORVSYNC said EBUSY (noted once).
    private var sawBusyVSync = false
    /// Whether an fsync after drawing may flush anything: not on a firmware framebuffer
    /// (`FBLayout.scansOutDirectly`), nor once fsync said EINVAL (no deferred I/O, older kernels).
    private var flushes: Bool
    private var pages: PageDamage
    /// Runs the pan and the vsync wait when `waitsOnWorker` (nil: they run in present).
    private let worker: DisplayWorker<FBDevFlip>?
    /// The present whose pan and wait the worker has not finished: the page drawn, the page shown
    /// before it, the pan offset asked for.
    private var inFlight: (page: Int, showing: Int, offset: (x: Int32, y: Int32))?
    /// The last vblank the worker's wait ended at.
    private var lastVSync: Int64 = 0
    /// A failure the worker met, thrown by the next present (or handleEvents).
    private var deferredError: DisplayError?

    /// Opens `path` and prepares it for presenting frames rotated by `rotation`. `waitsOnWorker`
    /// (a frame loop's display, the daemon's): the pan and FBIO_WAITFORVSYNC run on a worker
    /// thread, present returns once the page is drawn, and the loop hears of the vblank on
    /// `eventDescriptors` as of a DRM page flip. Otherwise present returns once they are done
    /// (tools and tests that read the screen right after).
    public init(path: String, rotation: Rotation = .r0, dither: Bool = true, doubleBuffer: Bool = true, waitsOnWorker: Bool = false) throws(DisplayError) {
        let fd = try Syscalls.open(path)
        let variable: fb_var_screeninfo, layout: FBLayout, memory: UnsafeMutableRawPointer
        do {
            variable = try FBDev.getVariableInfo(fd, device: path)
            layout = try FBLayout(variable: variable, fixed: try FBDev.getFixedInfo(fd, device: path), device: path)
            worker = waitsOnWorker ? try DisplayWorker() : nil
            memory = try Syscalls.mmap(fd, length: layout.memoryLength, device: path)
        } catch {
            Syscalls.close(fd)
            throw error
        }
        self.fd = fd; self.path = path; self.layout = layout; self.memory = memory; self.dither = dither
        flushes = !layout.scansOutDirectly
        originalVariable = variable
        // The visible rows, where they fit in memory (a driver reporting an offset past its memory
        // gets them from row 0, where present will then pan).
        let visibleRow = (Int(layout.yOffset) + Int(layout.height)) * layout.rowBytes <= layout.memoryLength ? layout.yOffset : 0
        savedPage = SavedPage(capturing: memory + Int(visibleRow) * layout.rowBytes, byteCount: layout.pageBytes, bytesPerPixel: layout.format.bytesPerPixel)
        homeRow = visibleRow
        let fitsInRow = (Int(layout.xOffset) + Int(layout.width)) * layout.format.bytesPerPixel <= layout.rowBytes
        homeColumn = fitsInRow ? layout.xOffset : 0
        currentOffset = (layout.xOffset, layout.yOffset)
        isDoubleBuffered = doubleBuffer && layout.canDoubleBuffer && layout.xOffset == 0
        if isDoubleBuffered {
            pageRows = [0, layout.height]
            pages = PageDamage(count: 2, front: layout.yOffset == layout.height ? 1 : 0)
        } else {
            pageRows = [visibleRow]
            pages = PageDamage(count: 1, front: 0)
        }
        let mode = DisplayMode(width: layout.width, height: layout.height, refreshMillihertz: layout.refreshMillihertz)
        outputs = [
            DisplayOutput(
                name: path, mode: mode, format: layout.format, rotation: rotation,
                physicalWidthMM: layout.physicalWidthMM, physicalHeightMM: layout.physicalHeightMM)
        ]
        do {
            try FBDev.blank(fd, device: path, mode: CInt(FB_BLANK_UNBLANK))
        } catch {
            diagnostics.append("\(error); continuing (the screen may already be on)")
        }
    }

    deinit { close(.restore) }

    public var frameIntervalNanoseconds: Int64 { outputs[0].mode.frameIntervalNanoseconds }

    /// The scanout memory of page `page` (tests and the QEMU checks read it back).
    func surface(page: Int) -> SurfaceView {
        SurfaceView(
            base: memory + Int(pageRows[page]) * layout.rowBytes + (isDoubleBuffered ? 0 : Int(homeColumn) * layout.format.bytesPerPixel),
            width: layout.width, height: layout.height, rowBytes: layout.rowBytes, format: layout.format)
    }

    public func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming {
        guard let fd else { throw .closed }
        let output = outputs[0]
        guard frame.width == output.frameWidth, frame.height == output.frameHeight else {
            throw .frameSizeMismatch(
                expectedWidth: output.frameWidth, expectedHeight: output.frameHeight, width: frame.width, height: frame.height)
        }
        // A caller outside a frame loop may present again before the worker is done: wait for it
        // here (the loop waits for it on `eventDescriptors` instead).
        try waitForPendingFlips()
        let (page, rects) = pages.target(damage: damage)
        let target = surface(page: page)
        var drawn = IntRect.zero
        for r in rects ?? [frame.bounds] {
            drawn = drawn.union(convertingBlit(from: frame, rect: r, to: target, rotation: output.rotation, dither: dither))
        }
        try flush(rows: Int(drawn.y)..<Int(drawn.maxY), page: page, fd: fd)
        let showing = pages.front
        pages.drawn(page: page, damage: damage)
        presentCount += 1
        let offset = (x: isDoubleBuffered ? 0 : homeColumn, y: pageRows[page])
        let pans = offset != currentOffset
        // On DRM's fbdev emulation the pan is a blocking atomic commit that returns once the flip
        // is done at a vblank (vkms: 50-80 ms under TCG): a wait after it would cost a second
        // vblank a frame. Only once the timed waits found a vblank at all.
        let panIsVSync = pans && layout.isDRMEmulation && hasVSync == true
        if let worker {
            let waits = hasVSync != false && !panIsVSync
            guard pans || waits else { return .timer }
            let pan = pans ? panInfo(offset) : nil
            let path = self.path, probing = hasVSync == nil, interval = frameIntervalNanoseconds
            let refresh = outputs[0].mode.refreshMillihertz
            inFlight = (page: page, showing: showing, offset: offset)
            worker.run {
                var flip = FBDevFlip()
                if let pan {
                    do throws(DisplayError) { try FBDev.panDisplay(fd, device: path, pan) } catch {
                        flip.panError = error
                        return flip
                    }
                }
                if waits {
                    flip.vsync = FBVSyncWait.wait(fd, device: path, probing: probing, interval: interval, refreshMillihertz: refresh)
                } else if panIsVSync {
                    flip.vsync = .vblank(Syscalls.monotonicNanoseconds())
                }
                return flip
            }
            return hasVSync == true ? .vblank(nanoseconds: lastVSync) : .timer
        }
        if pans {
            do {
                try FBDev.panDisplay(fd, device: path, panInfo(offset))
                currentOffset = offset
            } catch {
                // The driver refused to pan although its info allowed it: draw into what is visible.
                guard isDoubleBuffered else { throw error }
                diagnostics.append("\(error); falling back to single buffering")
                isDoubleBuffered = false
                pageRows = [pageRows[showing]]
                pages = PageDamage(count: 1, front: 0)
                return try present(frame, damage: [frame.bounds])
            }
            if panIsVSync { return .vblank(nanoseconds: Syscalls.monotonicNanoseconds()) }
        }
        guard hasVSync != false else { return .timer }
        return try timing(FBVSyncWait.wait(
            fd, device: path, probing: hasVSync == nil, interval: frameIntervalNanoseconds, refreshMillihertz: outputs[0].mode.refreshMillihertz))
    }

    /// DRM's fbdev emulation shows mmap writes through deferred I/O, 50 ms later: flushes `rows`
    /// of `page` now, with every page drawn in its last run (DeferredIOPages.swift: Linux 6.1 can
    /// lose a run). A firmware framebuffer (vesafb, efifb, simplefb) has nothing to flush: never asked.
    private func flush(rows: Range<Int>, page: Int, fd: FileDescriptor) throws(DisplayError) {
        guard flushes, !rows.isEmpty else { return }
        let top = Int(pageRows[page])
        for offset in DeferredIOPages.offsets(
            rows: top + rows.lowerBound..<top + rows.upperBound, screen: top..<top + Int(layout.height),
            rowBytes: layout.rowBytes, pageSize: Syscalls.pageSize)
        {
            Syscalls.rewriteByte(at: memory + offset)
        }
        flushes = try Syscalls.fsync(fd, device: path)
    }

    /// The var info found at open with another pan offset (FBIOPAN_DISPLAY reads only the offsets
    /// and vmode, but drivers compare the rest against the current mode).
    private func panInfo(_ offset: (x: Int32, y: Int32)) -> fb_var_screeninfo {
        var info = originalVariable
        info.xoffset = UInt32(offset.x)
        info.yoffset = UInt32(offset.y)
        return info
    }

    /// What a vsync wait means for pacing: its stamp, or the timer when the driver has none.
    private func timing(_ wait: FBVSyncWait) throws(DisplayError) -> PresentTiming {
        switch wait {
        case .vblank(let stamp):
            hasVSync = true
            lastVSync = stamp
            return .vblank(nanoseconds: stamp)
        case .none(let why):
            hasVSync = false
            diagnostics.append(why)
            return .timer
        case .busy(let error):
            if !sawBusyVSync { diagnostics.append("\(error); another DRM client holds the screen") }
            sawBusyVSync = true
            return .timer
        case .failed(let error):
            throw error
        }
    }

    // MARK: The worker (`waitsOnWorker`): the pan and the vsync wait off the caller's thread

    /// The worker's descriptor, readable when its pan and wait are done.
    public var eventDescriptors: [Int32] { worker.map { [$0.descriptor] } ?? [] }

    /// Takes what the worker finished, without waiting.
    public func handleEvents(on descriptor: Int32) throws(DisplayError) {
        guard let worker, descriptor == worker.descriptor else { return }
        absorb(worker.collect())
        try throwDeferredError()
    }

    public func isFlipPending(output index: Int) -> Bool { inFlight != nil }

    /// Waits until the worker's pan and vsync wait are done (before reading the screen back, for
    /// callers outside a frame loop); their failure is thrown.
    public func waitForPendingFlips() throws(DisplayError) {
        if let worker, inFlight != nil {
            absorb(worker.finish(timeoutMilliseconds: workerWaitMilliseconds))
            if inFlight != nil { abandonFlip(output: 0) }
        }
        try throwDeferredError()
    }

    /// How long a wait for the worker's pan and vsync wait may take: two refreshes and a second.
    private var workerWaitMilliseconds: Int32 { Int32(clamping: 2 * frameIntervalNanoseconds / 1_000_000 + 1000) }

    /// Throws (once) the failure the worker met.
    private func throwDeferredError() throws(DisplayError) {
        guard let error = deferredError else { return }
        deferredError = nil
        throw error
    }

    /// The worker has been in the pan or the wait for as long as the frame loop waits for a flip:
    /// the driver's vsync is not to be trusted. From now on the display paces by timer and draws
    /// into the page the pan went to, so that a pan that ends late shows the newest picture.
    public func abandonFlip(output index: Int) {
        guard let flight = inFlight else { return }
        inFlight = nil
        hasVSync = false
        currentOffset = flight.offset
        if isDoubleBuffered {
            isDoubleBuffered = false
            pageRows = [pageRows[flight.page]]
            pages = PageDamage(count: 1, front: 0)
            pages.drawn(page: 0, damage: [])
        }
        diagnostics.append("FBIO_WAITFORVSYNC or FBIOPAN_DISPLAY on \(path) did not return; single buffered, pacing by timer")
    }

    /// Applies the worker's outcomes. A pan the driver refused although its info allowed it is
    /// undone here: the page drawn is copied where the screen is, and drawing goes on there.
    private func absorb(_ finished: [DisplayWorker<FBDevFlip>.Finished]) {
        for f in finished {
            // An outcome after `abandonFlip` changes nothing: the display has moved on.
            guard let flight = inFlight else { continue }
            inFlight = nil
            if let error = f.outcome.panError {
                // Single buffered, the pan back to the home rows failed: the next present's error.
                guard isDoubleBuffered else {
                    deferredError = error
                    continue
                }
                diagnostics.append("\(error); falling back to single buffering")
                isDoubleBuffered = false
                let shown = pageRows[flight.showing]
                (memory + Int(shown) * layout.rowBytes).copyMemory(
                    from: memory + Int(pageRows[flight.page]) * layout.rowBytes, byteCount: layout.pageBytes)
                pageRows = [shown]
                pages = PageDamage(count: 1, front: 0)
                pages.drawn(page: 0, damage: [])
                if let fd {
                    do { try flush(rows: 0..<Int(layout.height), page: 0, fd: fd) } catch { deferredError = error }
                }
                continue
            }
            currentOffset = flight.offset
            guard let wait = f.outcome.vsync else { continue }
            do { _ = try timing(wait) } catch { deferredError = error }
        }
    }

    public func close(_ how: CloseBehaviour) {
        guard let fd else { return }
        // The worker's last pan and wait end within a refresh or two (this is the process's exit,
        // or a hand-over: no frame loop waits on it).
        if let worker, !worker.outstanding.isEmpty {
            absorb(worker.finish(timeoutMilliseconds: workerWaitMilliseconds))
            if !worker.outstanding.isEmpty {
                // Stuck in the driver: the descriptor and the memory stay with it (a few pages of
                // address space, at exit), never reused under a call still running.
                self.fd = nil
                diagnostics.append("\(path): the worker is still in an ioctl; left open")
                return
            }
        }
        self.fd = nil
        let home = memory + Int(homeRow) * layout.rowBytes
        switch how {
        case .restore:
            savedPage.restore(into: home)
        case .retain:
            // Bring the last frame to the rows that will be shown again (one read of scanout memory).
            let frontRow = pageRows[pages.front]
            if presentCount > 0 && frontRow != homeRow {
                home.copyMemory(from: memory + Int(frontRow) * layout.rowBytes, byteCount: layout.pageBytes)
            }
        }
        if currentOffset != (layout.xOffset, layout.yOffset) {
            do {
                try FBDev.panDisplay(fd, device: path, originalVariable)
            } catch {
                diagnostics.append("\(error) while restoring the pan offset")
            }
        }
        Syscalls.munmap(memory, length: layout.memoryLength)
        Syscalls.close(fd)
    }
}
