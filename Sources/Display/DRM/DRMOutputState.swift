// SPDX-License-Identifier: MIT
// One output of a DRMDisplay: its connector, CRTC, mode, format, rotation and its dumb buffers,
// and how it is set up (at open and when a connector is plugged in later, the same rules).

import LinuxSystem
import CDRM
import Raster
import SystemPackage

/// One output's buffers and flip state; its address is the page-flip event's user data.
final class DRMOutputState {
    let output: DisplayOutput
    var target: DRMOutputTarget
    let crtcIndex: Int
    private(set) var buffers: [DRMDumbBuffer]
    /// Makes the second buffer when the second frame needs it (`addSecondBuffer`); nil when made,
    /// or single-buffered.
    private var secondBuffer: (() throws(DisplayError) -> DRMDumbBuffer)?
    var pages: PageDamage
    var needsModeset = true
    /// Single-buffered outputs call drmModeDirtyFB until the driver says ENOSYS.
    var needsDirtyFB = true
    /// The token the pending flip's event carries (see DRMFlipToken); nil when no flip is pending.
    var flipToken: DRMFlipToken?
    var flipPending: Bool { flipToken != nil }
    var lastFlipNanoseconds: Int64 = 0
    /// Whether the CRTC answers drmWaitVBlank (probed at setup and again after the first modeset).
    var hasVBlank: Bool
    /// A modeset whose event is awaited turns a CRTC that was off on: drmWaitVBlank is asked once
    /// that event has come.
    var probesVBlankAfterFlip = false
    /// The CRTC as found when the output was set up (drmModeGetCrtc), for close(.restore).
    let saved: drmModeCrtc?

    init(output: DisplayOutput, target: DRMOutputTarget, crtcIndex: Int, buffer: DRMDumbBuffer,
         secondBuffer: (() throws(DisplayError) -> DRMDumbBuffer)?, hasVBlank: Bool, saved: drmModeCrtc?) {
        self.output = output; self.target = target; self.crtcIndex = crtcIndex
        buffers = [buffer]
        self.secondBuffer = secondBuffer
        // Planned as two pages from the start: the first frame goes to page 0, the second to page 1.
        let pageCount = secondBuffer == nil ? 1 : 2
        pages = PageDamage(count: pageCount, front: pageCount - 1)
        self.hasVBlank = hasVBlank; self.saved = saved
    }

    /// Makes the second buffer, for the second frame (creating a dumb buffer is a round trip to
    /// the host on virtio-gpu, 6–7 ms of the first frame under QEMU). If it cannot be had (little
    /// video memory, a tight CMA pool), the output stays single-buffered: the one page is on
    /// screen and current. Returns the note to log then.
    func addSecondBuffer() -> String? {
        guard let make = secondBuffer else { return nil }
        secondBuffer = nil
        do {
            buffers.append(try make())
            return nil
        } catch {
            pages = PageDamage(count: 1, front: 0)
            pages.drawn(page: 0, damage: [])
            return "\(output.name): second buffer failed (\(error)); single-buffered with drmModeDirtyFB"
        }
    }

    /// Stops waiting for the pending flip without reading its event; a late event then finds its
    /// token forgotten and changes nothing.
    func forgetFlip() {
        flipToken = nil
    }

    /// Gives up a flip whose event never came: forgotten, and the next commit is a modeset, which
    /// sets the CRTC up whatever state the lost flip left it in.
    func giveUpFlip() {
        forgetFlip()
        needsModeset = true
    }

    /// The output's mode as mode selection sees it (to notice it vanished from the connector).
    var modeCandidate: DRMModeCandidate { target.mode.candidate }
}

/// What a page-flip event's user data points at: retained until the event is read (or for good
/// when it never is: a few bytes per lost event), naming its output weakly.
final class DRMFlipToken {
    weak var state: DRMOutputState?
    init(_ state: DRMOutputState) { self.state = state }
}

/// Sets up outputs of one card (DRMDisplay's open and refresh).
struct DRMOutputFactory {
    let device: DRMDevice
    let options: DRMDisplayOptions
    let videoOverrides: [DRMModeRequest]

    /// What `make` decided for the commit strategy: the atomic objects, or why atomic cannot drive it.
    enum Atomic { case objects(DRMAtomicObjects), unavailable(String) }

    /// A new output for `connector` on CRTC `crtcIndex`: the mode (request, `video=`, preferred),
    /// the format, the rotation (panel orientation then the requested one), two buffers. Notes go
    /// to `notes`. `wantAtomic` asks for the atomic objects.
    func make(connector: DRMConnectorInfo, crtcIndex: Int, wantAtomic: Bool, notes: inout [String]) throws(DisplayError) -> (DRMOutputState, Atomic?) {
        let choice = DRMModeSelection.choose(
            modes: connector.modes.map(\.candidate), connector: connector.name, requested: options.mode,
            videoOverrides: videoOverrides)!
        for r in choice.unmatched { notes.append("\(connector.name): no mode \(r.width)x\(r.height)\(r.refreshHertz.map { "@\($0)" } ?? "")") }
        let mode = connector.modes[choice.index]
        notes.append("\(connector.name): mode \(mode.nameString) at \(mode.refreshMillihertz) mHz (\(choice.source))")
        let plane = device.primaryPlane(crtcIndex: crtcIndex)
        guard let format = DRMFormatChoice.choose(planeFormats: plane?.formats ?? [], override: options.format) else {
            throw .unsupported(device.path, "\(connector.name): the primary plane takes none of our formats")
        }
        let panel = DRMPanelOrientation.rotation(forPropertyValue: connector.properties.enumValueName("panel orientation"))
        let crtcID = device.crtcIDs[crtcIndex]
        var atomic: Atomic?
        if wantAtomic, let plane {
            let objects = DRMAtomicObjects(
                planeID: plane.id, connector: connector.properties,
                crtc: DRMDevice.readProperties(device.fd, object: crtcID, type: UInt32(DRM_MODE_OBJECT_CRTC), kind: .crtc),
                plane: plane.properties)
            let missing = objects.connector.missingRequired + objects.crtc.missingRequired + objects.plane.missingRequired
            atomic = missing.isEmpty ? .objects(objects) : .unavailable("atomic KMS lacks \(missing.joined(separator: ", "))")
        } else if wantAtomic {
            atomic = .unavailable("no primary plane for CRTC \(crtcID)")
        }
        var output = DisplayOutput(
            name: connector.name, mode: mode.displayMode, format: format, rotation: options.followPanelOrientation ? panel.then(options.rotation) : options.rotation,
            physicalWidthMM: connector.physicalWidthMM > 0 ? connector.physicalWidthMM : nil,
            physicalHeightMM: connector.physicalHeightMM > 0 ? connector.physicalHeightMM : nil)
        // Unique per set-up output (a re-plugged connector or re-opened card gets a new one).
        output.instance = UInt64(bitPattern: Syscalls.monotonicNanoseconds())
        func buffer() throws(DisplayError) -> DRMDumbBuffer {
            try DRMDumbBuffer(fd: device.fd, device: device.path, width: Int32(mode.hdisplay), height: Int32(mode.vdisplay), format: format)
        }
        let first = try buffer()
        var saved: drmModeCrtc?
        if let c = drmModeGetCrtc(device.fd.rawValue, crtcID) {
            saved = c.pointee
            drmModeFreeCrtc(c)
        }
        var objects: DRMAtomicObjects?
        if case .objects(let o) = atomic { objects = o }
        let target = DRMOutputTarget(connectorID: connector.id, crtcID: crtcID, mode: mode, atomic: objects)
        let state = DRMOutputState(
            output: output, target: target, crtcIndex: crtcIndex, buffer: first, secondBuffer: options.buffers > 1 ? buffer : nil,
            hasVBlank: DRMOutputFactory.crtcHasVBlank(device.fd, crtcIndex: crtcIndex), saved: saved)
        return (state, atomic)
    }

    /// Whether the CRTC delivers vblank events (drmWaitVBlank for the current count succeeds).
    static func crtcHasVBlank(_ fd: FileDescriptor, crtcIndex: Int) -> Bool {
        var vbl = drmVBlank()
        var type = DRM_VBLANK_RELATIVE.rawValue
        if crtcIndex == 1 { type |= DRM_VBLANK_SECONDARY.rawValue } else if crtcIndex > 1 {
            type |= (UInt32(crtcIndex) << UInt32(DRM_VBLANK_HIGH_CRTC_SHIFT)) & DRM_VBLANK_HIGH_CRTC_MASK.rawValue
        }
        vbl.request.type = drmVBlankSeqType(rawValue: type)
        vbl.request.sequence = 0
        return drmWaitVBlank(fd.rawValue, &vbl) == 0
    }
}
