// SPDX-License-Identifier: MIT
// The contract between the HUD's frame loop and a screen: what the outputs are,
// "show these damaged rects of this finished frame", how the picture's timing is known, and close.
// Modelled on LVGL's flush/flush-wait pair and wlroots' small backend interface: the frame loop
// owns the shadow frame and the damage; a display only converts, copies and shows.
//
// Time is Int64 nanoseconds on CLOCK_MONOTONIC (the HUD's `Instant` uses the same unit) so that
// Display depends on Raster only, not on HUD.

import Raster

/// A video mode: the panel's size in scanout pixels and its refresh rate (DRM `drmModeModeInfo`,
/// fbdev `xres`/`yres` and pixclock timings).
public struct DisplayMode: Equatable, Sendable {
    /// Scanout pixels per row (`hdisplay`, fbdev `xres`).
    public var width: Int32
    /// Scanout rows (`vdisplay`, fbdev `yres`).
    public var height: Int32
    /// Refresh rate in thousandths of a hertz (60 Hz = 60_000), as DRM's `vrefresh` with more digits.
    public var refreshMillihertz: Int32
    /// The mode's name, e.g. "1024x768" (DRM mode name; fbdev has none, so it is made from the size).
    public var name: String

    public init(width: Int32, height: Int32, refreshMillihertz: Int32, name: String? = nil) {
        self.width = width; self.height = height; self.refreshMillihertz = refreshMillihertz
        self.name = name ?? "\(width)x\(height)"
    }

    /// One refresh period in nanoseconds (rounded to nearest), what a timer-paced frame loop waits.
    public var frameIntervalNanoseconds: Int64 {
        let mHz = Int64(max(refreshMillihertz, 1))
        return (1_000_000_000_000 + mHz / 2) / mHz
    }
}

/// One screen a display drives.
public struct DisplayOutput: Equatable, Sendable {
    /// The connector or device, e.g. "HDMI-A-1" or "/dev/fb0".
    public var name: String
    /// The scanout mode (panel orientation, before `rotation` is undone by the panel).
    public var mode: DisplayMode
    /// The scanout memory's pixel format.
    public var format: PixelFormat
    /// How frames are turned on their way into scanout memory (see Raster's Rotation.swift).
    public var rotation: Rotation
    /// The panel's size in millimetres, when the driver knows it.
    public var physicalWidthMM: Int32?
    public var physicalHeightMM: Int32?
    /// One appearance of this output: a backend gives an output that was unplugged and plugged
    /// back (or whose card was re-opened) a new value, so a frame loop that kept its picture by
    /// name knows the screen now holds nothing of it, even when name and mode are unchanged.
    public var instance: UInt64 = 0

    public init(
        name: String, mode: DisplayMode, format: PixelFormat, rotation: Rotation,
        physicalWidthMM: Int32? = nil, physicalHeightMM: Int32? = nil
    ) {
        self.name = name; self.mode = mode; self.format = format; self.rotation = rotation
        self.physicalWidthMM = physicalWidthMM; self.physicalHeightMM = physicalHeightMM
    }

    /// The size of the frame the HUD renders for this output: the mode with axes swapped when the
    /// rotation turns by 90° (a 480x800 portrait panel mounted sideways gets 800x480 frames).
    public var frameWidth: Int32 { rotation.swapsAxes ? mode.height : mode.width }
    public var frameHeight: Int32 { rotation.swapsAxes ? mode.width : mode.height }
}

/// When the picture of one `present` is (or will be) on the glass, for the frame scheduler.
public enum PresentTiming: Equatable, Sendable {
    /// Shown at this vblank (CLOCK_MONOTONIC nanoseconds): pace from it (next = stamp + interval).
    case vblank(nanoseconds: Int64)
    /// Shown now, but the display gives no vblank timestamps (fbdev without FBIO_WAITFORVSYNC,
    /// DRM drivers without vblank interrupts): pace with a timer at `frameIntervalNanoseconds`.
    case timer
    /// Shown now and there is no refresh to follow: the caller may present again at once.
    case immediate
}

/// What `close` leaves on the screen.
public enum CloseBehaviour: Equatable, Sendable {
    /// Put back what was there before the display was opened (console contents, previous mode).
    case restore
    /// Leave the last presented frame on screen (a boot splash handing over to the next program).
    case retain
}

/// A screen the HUD can be shown on: the memory display for tests, fbdev, DRM/KMS.
public protocol Display: AnyObject {
    /// The screens this display drives (one for fbdev and memory; every connected connector for DRM).
    var outputs: [DisplayOutput] { get }

    /// Copies the `damage` rects of `frame` into scanout memory (converted to the output's format,
    /// dithered and rotated) and shows it. `frame` is the HUD's premultiplied ARGB32 picture (a
    /// whole shadow buffer, or a colour and the HUD's box), `frameWidth x frameHeight` of the
    /// output, and must be the COMPLETE new picture: backends with several buffers also copy older
    /// damage from it to bring a stale buffer up to date. Returns once the new picture is visible
    /// or queued, with its timing.
    func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming

    /// Presents a frame laid out for output `index` alone (`outputs[index].frameWidth x
    /// frameHeight`): mirrored outputs of different sizes each get the HUD laid out for their own
    /// resolution. Single-output displays present to their one output.
    func present(_ frame: ComposedFrame, damage: [IntRect], output index: Int) throws(DisplayError) -> PresentTiming

    /// A descriptor (raw fd) that becomes readable when outputs may have come or gone (a hotplug
    /// uevent); nil for displays whose outputs never change. The frame loop polls it beside its
    /// timer and then calls `refreshOutputs`.
    var hotplugDescriptor: Int32? { get }

    /// Drains pending hotplug notifications and re-reads the outputs: a newly connected one is
    /// added (shown by the next present), an unplugged one dropped without disturbing the others.
    /// Returns whether `outputs` changed (indices may then refer to other outputs).
    func refreshOutputs() throws(DisplayError) -> Bool

    /// Descriptors that become readable when the display has events to handle (a KMS card's
    /// page-flip completions); the frame loop watches them and calls `handleEvents(on:)`. May
    /// change when `refreshOutputs` changes the outputs. Empty for displays without events.
    var eventDescriptors: [Int32] { get }

    /// Handles what is waiting on `descriptor`, without blocking: completed page flips free
    /// their buffers (and give their vblank stamp). Nothing waiting is not an error.
    func handleEvents(on descriptor: Int32) throws(DisplayError)

    /// Whether output `index` has a page flip in flight: presenting to it now would have to wait
    /// for the flip's event, so the frame loop waits for the event first.
    func isFlipPending(output index: Int) -> Bool

    /// Gives up output `index`'s flip, whose event the frame loop waited for long enough without
    /// blocking: the next present does not wait for it (it sets the output up again instead).
    /// Nothing in flight: nothing to do.
    func abandonFlip(output index: Int)

    /// The refresh interval the frame scheduler uses when `present` returns `.timer`.
    var frameIntervalNanoseconds: Int64 { get }

    /// Releases the screen, restoring what was shown before or retaining the last frame. Later
    /// `present` calls throw `DisplayError.closed`; closing twice does nothing.
    func close(_ how: CloseBehaviour)

    // MARK: Capabilities: what a display can do beyond showing frames (defaults: nothing)

    /// Whether the pictures go to a real screen, which shares the machine with a text console:
    /// the runtime takes a VT for it and restores the screen on termination signals.
    var showsOnRealScreen: Bool { get }

    /// Gives up the screen to another process (a VT switch away): DRM master on every card. The
    /// next present takes it back.
    func releaseMaster() throws(DisplayError)

    /// After `releaseMaster`: whether another program's picture is on the screen now (a CRTC
    /// scanning out a framebuffer that is not ours), false when only ours (or nothing) is; nil
    /// where the display cannot tell (fbdev, memory).
    func othersDrawn() -> Bool?

    /// Device nodes whose picture outlives the process (a KMS card's fbdev emulation, the
    /// kernel's fallback once our framebuffers go): a retaining quit leaves the HUD there too.
    var fbdevEmulationPaths: [String] { get }

    /// Makes up vblank times from the loop's `clock` (CLOCK_MONOTONIC ns), for displays without
    /// hardware timing (the memory display); real screens take their times from the kernel.
    func useClock(_ clock: @escaping () -> Int64)

    /// How many frames output `index` has been presented, for displays that can read their
    /// picture back (memory); nil for the others.
    func presentCount(output index: Int) -> Int?

    /// A copy of what output `index` shows now, for displays that can read it back; else nil.
    func shownPicture(output index: Int) -> Pixmap?

    /// Hands every batch of kernel uevents the display's hotplug monitor reads to `observer` as
    /// well (input devices follow the same monitor as outputs), from `refreshOutputs`. False when
    /// the display has no monitor: the caller then needs its own.
    func shareUEvents(with observer: @escaping (UEventMonitor.Batch) -> Void) -> Bool
}

extension Display {
    public func present(_ frame: ComposedFrame, damage: [IntRect], output index: Int) throws(DisplayError) -> PresentTiming {
        precondition(index == 0, "output \(index) of a single-output display")
        return try present(frame, damage: damage)
    }

    /// Presents a whole picture (see `present(_:damage:)`).
    public func present(_ frame: PixmapView, damage: [IntRect]) throws(DisplayError) -> PresentTiming {
        try present(ComposedFrame(frame), damage: damage)
    }

    /// Presents a whole picture on output `index` (see `present(_:damage:output:)`).
    public func present(_ frame: PixmapView, damage: [IntRect], output index: Int) throws(DisplayError) -> PresentTiming {
        try present(ComposedFrame(frame), damage: damage, output: index)
    }

    public var hotplugDescriptor: Int32? { nil }

    public var eventDescriptors: [Int32] { [] }

    public func handleEvents(on descriptor: Int32) throws(DisplayError) {}

    public func isFlipPending(output index: Int) -> Bool { false }

    public func abandonFlip(output index: Int) {}

    public func refreshOutputs() throws(DisplayError) -> Bool { false }

    public var showsOnRealScreen: Bool { true }

    public func releaseMaster() throws(DisplayError) {}

    public func othersDrawn() -> Bool? { nil }

    public var fbdevEmulationPaths: [String] { [] }

    public func useClock(_ clock: @escaping () -> Int64) {}

    public func presentCount(output index: Int) -> Int? { nil }

    public func shownPicture(output index: Int) -> Pixmap? { nil }

    public func shareUEvents(with observer: @escaping (UEventMonitor.Batch) -> Void) -> Bool { false }
}
