// SPDX-License-Identifier: MIT
// The virtual terminal under the display: while the HUD shows, the VT is in KD_GRAPHICS (fbcon stops
// drawing text and its blinking cursor over our frames) and in VT_PROCESS mode (a VT switch asks us
// first, by signal, so we can stop drawing or drop DRM master); on every way out it goes back to
// KD_TEXT, VT_AUTO and a visible cursor, or the user is left with a dead screen.

import CLinuxShim
import SystemPackage

/// The ioctls and writes the console needs, so its bookkeeping can be tested without a VT.
protocol ConsoleControl: AnyObject {
    /// The device node, for errors and diagnostics.
    var device: String { get }
    /// KDGETMODE: KD_TEXT (0) or KD_GRAPHICS (1).
    func kdMode() throws(DisplayError) -> Int32
    /// KDSETMODE.
    func setKDMode(_ mode: Int32) throws(DisplayError)
    /// VT_GETMODE.
    func vtMode() throws(DisplayError) -> VTMode
    /// VT_SETMODE.
    func setVTMode(_ mode: VTMode) throws(DisplayError)
    /// VT_RELDISP: 1 allows a release, 0 refuses it, VT_ACKACQ (2) acknowledges an acquire.
    func releaseDisplay(_ value: Int32) throws(DisplayError)
    /// Bytes to the terminal (escape sequences).
    func write(_ bytes: [UInt8]) throws(DisplayError)
    func close()
}

/// `struct vt_mode` of <linux/vt.h>, marshalled by hand (char, char, short, short, short) so its
/// layout does not depend on how Swift lays out a struct.
public struct VTMode: Equatable, Sendable {
    /// VT_AUTO (0): the kernel switches on its own; VT_PROCESS (1): it asks by signal.
    public var mode: Int8
    public var waitv: Int8 = 0
    public var releaseSignal: Int16 = 0
    public var acquireSignal: Int16 = 0
    public var forcedReleaseSignal: Int16 = 0

    public static let auto: Int8 = 0
    public static let process: Int8 = 1

    public init(mode: Int8, releaseSignal: Int16 = 0, acquireSignal: Int16 = 0) {
        self.mode = mode
        self.releaseSignal = releaseSignal
        self.acquireSignal = acquireSignal
    }

    init(bytes: [UInt8]) {
        mode = Int8(bitPattern: bytes[0])
        waitv = Int8(bitPattern: bytes[1])
        (releaseSignal, acquireSignal, forcedReleaseSignal) = bytes.withUnsafeBytes {
            ($0.loadUnaligned(fromByteOffset: 2, as: Int16.self), $0.loadUnaligned(fromByteOffset: 4, as: Int16.self),
             $0.loadUnaligned(fromByteOffset: 6, as: Int16.self))
        }
    }

    var bytes: [UInt8] {
        var b = [UInt8](repeating: 0, count: 8)
        b.withUnsafeMutableBytes {
            $0.storeBytes(of: mode, toByteOffset: 0, as: Int8.self)
            $0.storeBytes(of: waitv, toByteOffset: 1, as: Int8.self)
            $0.storeBytes(of: releaseSignal, toByteOffset: 2, as: Int16.self)
            $0.storeBytes(of: acquireSignal, toByteOffset: 4, as: Int16.self)
            $0.storeBytes(of: forcedReleaseSignal, toByteOffset: 6, as: Int16.self)
        }
        return b
    }
}

/// A VT taken into graphics mode for the HUD; see ConsoleSignals for the signals it needs.
///
///     let signals = try ConsoleSignals()            // first thing in main, before any thread
///     let console = try Console.open()              // the foreground VT
///     try console.enterGraphics()
///     ... present frames while console.isForeground ...
///     on signals.wait(): console.handle(signal, onRelease: { drm.releaseMaster() }, onAcquire: { redraw() })
///     console.restore()                             // also on errors; deinit does it too
public final class Console {
    public static let kdText: Int32 = 0
    public static let kdGraphics: Int32 = 1
    /// VT_RELDISP's argument acknowledging an acquire.
    static let ackAcquire: Int32 = 2

    let control: ConsoleControl
    /// The device node (/dev/tty1...).
    public var device: String { control.device }
    /// What the VT was in before `enterGraphics`, for diagnostics.
    public let initialKDMode: Int32
    public let initialVTMode: VTMode
    /// True while the VT is ours to draw on: false between a release and the next acquire.
    public private(set) var isForeground = true
    /// True once `enterGraphics` changed the VT and `restore` has not yet put it back.
    public private(set) var isInGraphicsMode = false
    /// Problems met while restoring (restore cannot throw: it runs on the way out).
    public private(set) var diagnostics: [String] = []

    init(control: ConsoleControl) throws(DisplayError) {
        self.control = control
        do {
            initialKDMode = try control.kdMode()
            initialVTMode = try control.vtMode()
        } catch {
            control.close()
            throw error
        }
    }

    /// Opens `path`, or with nil the foreground VT: /dev/tty0's VT_GETSTATE names it, /dev/ttyN.
    /// A node that is not a VT fails with KDGETMODE's ENOTTY.
    public static func open(path: String? = nil) throws(DisplayError) -> Console {
        let device: String
        if let path { device = path } else { device = try foregroundTerminal() }
        return try Console(control: TerminalControl(device: device))
    }

    /// "/dev/ttyN" for the VT in the foreground now (VT_GETSTATE on /dev/tty0).
    public static func foregroundTerminal() throws(DisplayError) -> String {
        let tty0 = "/dev/tty0"
        let fd = try Syscalls.openTerminal(tty0)
        defer { Syscalls.close(fd) }
        var state = [UInt16](repeating: 0, count: 3)  // struct vt_stat: v_active, v_signal, v_state
        try withBytes(&state) { (p) throws(DisplayError) in
            try Syscalls.ioctl(fd, CLinuxShim_VT_GETSTATE, "VT_GETSTATE", device: tty0, p)
        }
        guard state[0] > 0 else { throw .unsupported(tty0, "VT_GETSTATE names no active VT") }
        return "/dev/tty\(state[0])"
    }

    deinit {
        restore()
        control.close()
    }

    /// Hides the cursor, switches to KD_GRAPHICS and asks for VT switches by `releaseSignal` and
    /// `acquireSignal` (VT_PROCESS). Undone by `restore`, also if this throws halfway.
    public func enterGraphics(releaseSignal: Int32, acquireSignal: Int32) throws(DisplayError) {
        isInGraphicsMode = true
        isForeground = true
        do {
            try control.write(Array("\u{1B}[?25l".utf8))
            try control.setKDMode(Console.kdGraphics)
            try control.setVTMode(VTMode(mode: VTMode.process, releaseSignal: Int16(releaseSignal), acquireSignal: Int16(acquireSignal)))
        } catch {
            restore()
            throw error
        }
    }

    /// What `handle` did with a signal.
    public enum Outcome: Equatable, Sendable {
        case released, acquired
        /// A termination signal: the caller closes the display, then restores the console (or
        /// keeps the picture, `restore(keepingPicture:)`) and exits (`ConsoleSignals.die(of:)`).
        /// The console is not restored here: KD_TEXT first would let fbcon paint over a frame the
        /// caller wants to retain, and drop the VT under a display that is still presenting.
        case terminate(Int32)
    }

    /// Acts on one signal: release → `onRelease` (stop drawing, drop DRM master) then VT_RELDISP 1;
    /// acquire → VT_RELDISP VT_ACKACQ then `onAcquire` (redraw everything); terminate → returned
    /// for the caller to close and restore in that order.
    public func handle(_ signal: ConsoleSignal, onRelease: () -> Void, onAcquire: () -> Void) throws(DisplayError) -> Outcome {
        switch signal {
        case .release:
            isForeground = false
            onRelease()
            try control.releaseDisplay(1)
            return .released
        case .acquire:
            try control.releaseDisplay(Console.ackAcquire)
            isForeground = true
            onAcquire()
            return .acquired
        case .terminate(let number):
            return .terminate(number)
        }
    }

    /// Puts the VT back: VT_AUTO, KD_TEXT, cursor shown. Idempotent; every step is tried even if
    /// one fails (the failures land in `diagnostics`).
    ///
    /// `keepingPicture` (a splash retained for the next program, Plymouth's --retain-splash):
    /// VT switching goes back to the kernel (VT_AUTO) but the VT stays in KD_GRAPHICS with the
    /// cursor hidden, so fbcon does not paint its text over the retained frame; the display
    /// manager that takes the VT next sets its own mode.
    public func restore(keepingPicture: Bool = false) {
        guard isInGraphicsMode else { return }
        isInGraphicsMode = false
        isForeground = true
        do { try control.setVTMode(VTMode(mode: VTMode.auto)) } catch { diagnostics.append("\(error) while restoring VT_AUTO") }
        if keepingPicture { return }
        do { try control.setKDMode(Console.kdText) } catch { diagnostics.append("\(error) while restoring KD_TEXT") }
        do { try control.write(Array("\u{1B}[?25h".utf8)) } catch { diagnostics.append("\(error) while showing the cursor") }
    }
}

/// The real VT: ioctls on its device node through Syscalls.
final class TerminalControl: ConsoleControl {
    let device: String
    private var fd: FileDescriptor?

    init(device: String) throws(DisplayError) {
        self.device = device
        fd = try Syscalls.openTerminal(device)
    }

    private var descriptor: FileDescriptor {
        get throws(DisplayError) {
            guard let fd else { throw .closed }
            return fd
        }
    }

    func kdMode() throws(DisplayError) -> Int32 {
        var mode: CInt = 0
        try Syscalls.ioctl(try descriptor, CLinuxShim_KDGETMODE, "KDGETMODE", device: device, &mode)
        return Int32(mode)
    }

    func setKDMode(_ mode: Int32) throws(DisplayError) {
        try Syscalls.ioctl(try descriptor, CLinuxShim_KDSETMODE, "KDSETMODE", device: device, value: CInt(mode))
    }

    func vtMode() throws(DisplayError) -> VTMode {
        var bytes = [UInt8](repeating: 0, count: 8)
        let fd = try descriptor
        try withBytes(&bytes) { (p) throws(DisplayError) in
            try Syscalls.ioctl(fd, TerminalControl.vtGetMode, "VT_GETMODE", device: device, p)
        }
        return VTMode(bytes: bytes)
    }

    func setVTMode(_ mode: VTMode) throws(DisplayError) {
        var bytes = mode.bytes
        let fd = try descriptor
        try withBytes(&bytes) { (p) throws(DisplayError) in
            try Syscalls.ioctl(fd, CLinuxShim_VT_SETMODE, "VT_SETMODE", device: device, p)
        }
    }

    func releaseDisplay(_ value: Int32) throws(DisplayError) {
        try Syscalls.ioctl(try descriptor, CLinuxShim_VT_RELDISP, "VT_RELDISP", device: device, value: CInt(value))
    }

    func write(_ bytes: [UInt8]) throws(DisplayError) {
        try Syscalls.write(try descriptor, bytes, device: device)
    }

    func close() {
        if let fd { Syscalls.close(fd) }
        fd = nil
    }

    /// VT_GETMODE from <linux/vt.h>: a plain number (not built by _IOR), stable kernel ABI; the
    /// shim has the other VT requests.
    static let vtGetMode: UInt = 0x5601
}

/// `array`'s storage as an ioctl argument, keeping the typed error (Array's own
/// withUnsafeMutableBytes only rethrows `any Error`).
func withBytes<T>(_ array: inout [T], _ body: (UnsafeMutableRawPointer) throws(DisplayError) -> Void) throws(DisplayError) {
    let result: Result<Void, DisplayError> = array.withUnsafeMutableBytes { p in
        do throws(DisplayError) { try body(p.baseAddress!); return .success(()) } catch { return .failure(error) }
    }
    try result.get()
}
