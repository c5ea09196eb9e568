// SPDX-License-Identifier: MIT
// A display with no hardware: scanout memory is a heap buffer in the output's real pixel format,
// written by the same convertingBlit as fbdev and DRM, so tests read exactly the bytes a panel
// would get (565 dithering, rotation, X bytes). It is the reference the QEMU end-to-end tests
// compare real drivers' screendumps with, and what `splashhud render` style tools can record.
// Vsync is virtual: present number n (from 1) of an output is shown at vblank n, n · frameInterval
// ns after the display's time origin (0), so pacing tests are deterministic; with `vblankClock` set
// (the runtime does) a present is shown at the next vblank of that clock's refresh grid.
//
// It can drive several outputs of different sizes and simulate hotplug: `connect`/`disconnect`
// queue a change and signal an eventfd (the `hotplugDescriptor`), and the change takes effect at
// `refreshOutputs`, as a DRM display's does when the kernel's uevent is read.

import SystemPackage
import LinuxSystem
import Raster

/// One output's scanout memory.
public final class MemoryScreen {
    public let output: DisplayOutput
    /// The scanout buffer (mode size, the output's format, tight rows).
    public private(set) var scanout: SurfaceView
    /// The file the scanout is shared through (`share(atPath:)`), nil while it is private memory.
    public private(set) var sharedPath: String?
    /// Completed presents to this output.
    public internal(set) var presentCount = 0
    /// The scanout rects the last present wrote (after rotation), in the order written.
    public internal(set) var lastWrittenRects: [IntRect] = []

    private var storage: UnsafeMutableRawPointer
    private let byteCount: Int

    init(output: DisplayOutput) {
        let width = output.mode.width, height = output.mode.height
        precondition(width > 0 && height > 0, "memory display size \(width)x\(height)")
        self.output = output
        let rowBytes = Int(width) * output.format.bytesPerPixel
        byteCount = rowBytes * Int(height)
        storage = .allocate(byteCount: byteCount, alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
        scanout = SurfaceView(base: storage, width: width, height: height, rowBytes: rowBytes, format: output.format)
    }

    deinit {
        if sharedPath != nil { Syscalls.munmap(storage, length: byteCount) } else { storage.deallocate() }
    }

    /// Moves the scanout into the file at `path` (created, or emptied), mapped shared, so another
    /// process sees each frame as it is written, as Xvfb's `-fbdir` lets it: raw pixels in the
    /// output's format, rows of `mode.width` pixels, no header. What was shown is kept.
    public func share(atPath path: String) throws(DisplayError) {
        guard sharedPath == nil else { return }
        let fd = try Syscalls.createSized(path, length: byteCount)
        defer { Files.close(fd) }
        let shared = try Syscalls.mmap(fd, length: byteCount, device: path)
        shared.copyMemory(from: storage, byteCount: byteCount)
        storage.deallocate()
        storage = shared
        sharedPath = path
        scanout = SurfaceView(base: shared, width: scanout.width, height: scanout.height, rowBytes: scanout.rowBytes, format: scanout.format)
    }

    /// The screen as a viewer would see the panel's scanout: decoded to premultiplied ARGB32,
    /// `mode.width x mode.height` (rotated when the output is; use `shownUnrotated()` to compare
    /// with HUD frames).
    public func shown() -> Pixmap { scanout.toPixmap() }

    /// The screen turned back by the output's rotation: the frame as the HUD drew it, after format
    /// conversion. Equal to the presented frame for opaque frames in 8888 formats.
    public func shownUnrotated() -> Pixmap {
        if output.rotation == .r0 { return shown() }
        let out = Pixmap(width: output.frameWidth, height: output.frameHeight)
        for y in 0..<out.height {
            let row = out.view.row(y)
            for x in 0..<out.width {
                let p = output.rotation.destinationPoint(x: x, y: y, sourceWidth: out.width, sourceHeight: out.height)
                row[Int(x)] = scanout.readPixel(x: p.x, y: p.y).argb
            }
        }
        return out
    }

    /// The raw scanout bytes (rows of `mode.width` pixels in `format`, no padding).
    public var scanoutBytes: [UInt8] { Array(UnsafeRawBufferPointer(start: storage, count: byteCount)) }

    func clear() { storage.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount) }

    func present(_ frame: ComposedFrame, damage: [IntRect], dither: Bool) throws(DisplayError) {
        guard frame.width == output.frameWidth, frame.height == output.frameHeight else {
            throw .frameSizeMismatch(
                expectedWidth: output.frameWidth, expectedHeight: output.frameHeight, width: frame.width, height: frame.height)
        }
        lastWrittenRects.removeAll(keepingCapacity: true)
        for r in damage {
            let written = convertingBlit(from: frame, rect: r, to: scanout, rotation: output.rotation, dither: dither)
            if !written.isEmpty { lastWrittenRects.append(written) }
        }
        presentCount += 1
    }
}

/// A `Display` whose screens are memory.
public final class MemoryDisplay: Display {
    public private(set) var outputs: [DisplayOutput]
    /// The screens of `outputs`, in the same order.
    public private(set) var screens: [MemoryScreen]
    /// Whether 565 output is dithered (see convertingBlit).
    public let dither: Bool
    /// Whether present reports virtual vblanks (`.vblank`) or none (`.immediate`).
    public let hasVSync: Bool
    /// Completed presents, all outputs together.
    public private(set) var presentCount = 0
    /// Whether `close` ran, and how.
    public private(set) var closedAs: CloseBehaviour?
    /// The eventfd `connect`/`disconnect` signal (nil for the single-output initializer).
    public var hotplugDescriptor: Int32? { hotplugEvent?.descriptor.rawValue }
    private let hotplugEvent: EventFd?
    /// Where virtual vblanks are in time. nil: present n of an output is shown at n · interval
    /// (deterministic tests). Set (a frame loop's CLOCK_MONOTONIC clock): a present is queued for
    /// the first vblank after now on the grid of interval multiples, like a non-blocking flip.
    public var vblankClock: (() -> Int64)?

    /// Headless: no VT to take, nothing to restore on termination.
    public var showsOnRealScreen: Bool { false }

    /// Follows the loop's clock unless a test set `vblankClock` itself.
    public func useClock(_ clock: @escaping () -> Int64) {
        if vblankClock == nil { vblankClock = clock }
    }

    public func presentCount(output index: Int) -> Int? { screens.indices.contains(index) ? screens[index].presentCount : nil }

    public func shownPicture(output index: Int) -> Pixmap? { screens.indices.contains(index) ? screens[index].shown() : nil }

    /// The screen the display was created with first (the single-output accessors read it).
    private let first: MemoryScreen
    /// Every screen ever connected, by output name, so tests can read an unplugged one.
    private var byName: [String: MemoryScreen] = [:]
    private var pending: [(connect: DisplayOutput?, disconnect: String?)] = []
    /// Outputs connected by `connect` so far (each gets the next `instance`).
    private var connections: UInt64 = 0

    /// A `width x height` scanout (the panel's size, before `rotation` is undone by the panel) in
    /// `format`, starting black (all bytes zero). `refreshMillihertz` nil means no vsync.
    public init(
        width: Int32, height: Int32, format: PixelFormat = .xrgb8888, rotation: Rotation = .r0,
        refreshMillihertz: Int32? = 60_000, dither: Bool = true, name: String = "memory"
    ) {
        let mode = DisplayMode(width: width, height: height, refreshMillihertz: refreshMillihertz ?? 60_000)
        let output = DisplayOutput(name: name, mode: mode, format: format, rotation: rotation)
        first = MemoryScreen(output: output)
        outputs = [output]
        screens = [first]
        byName[name] = first
        hasVSync = refreshMillihertz != nil
        self.dither = dither
        hotplugEvent = nil
    }

    /// Several outputs (distinct names, each mode its scanout size and virtual refresh), with an
    /// eventfd as `hotplugDescriptor` so `connect`/`disconnect` wake a frame loop.
    public init(outputs: [DisplayOutput], vsync: Bool = true, dither: Bool = true) throws(DisplayError) {
        precondition(!outputs.isEmpty, "a memory display needs at least one output")
        precondition(Set(outputs.map(\.name)).count == outputs.count, "output names must differ")
        hotplugEvent = try Syscalls.mapped { () throws(SystemError) in try EventFd() }
        self.outputs = outputs
        screens = outputs.map(MemoryScreen.init(output:))
        first = screens[0]
        for s in screens { byName[s.output.name] = s }
        hasVSync = vsync
        self.dither = dither
    }

    /// The screen of the output called `name`, also after it was disconnected (it keeps what it
    /// showed last); nil for a name never connected.
    public func screen(named name: String) -> MemoryScreen? { byName[name] }

    /// Simulates plugging in `output` (a new name, or one unplugged before: it gets a new black
    /// screen): takes effect at the next `refreshOutputs`, which the hotplug descriptor announces.
    public func connect(_ output: DisplayOutput) {
        pending.append((output, nil))
        hotplugEvent?.signal()
    }

    /// Simulates unplugging the output called `name`, at the next `refreshOutputs`.
    public func disconnect(_ name: String) {
        pending.append((nil, name))
        hotplugEvent?.signal()
    }

    public func refreshOutputs() throws(DisplayError) -> Bool {
        _ = try Syscalls.mapped { () throws(SystemError) in try hotplugEvent?.drain() }
        let before = outputs
        for change in pending {
            if let name = change.disconnect, let i = outputs.firstIndex(where: { $0.name == name }) {
                outputs.remove(at: i)
                screens.remove(at: i)
            }
            if var output = change.connect, !outputs.contains(where: { $0.name == output.name }) {
                connections += 1
                output.instance = connections
                let screen = MemoryScreen(output: output)
                outputs.append(output)
                screens.append(screen)
                byName[output.name] = screen
            }
        }
        pending.removeAll()
        return outputs != before
    }

    /// The first output's interval (60 Hz while no output is connected).
    public var frameIntervalNanoseconds: Int64 { (outputs.first?.mode ?? DisplayMode(width: 1, height: 1, refreshMillihertz: 60_000)).frameIntervalNanoseconds }

    /// Presents `frame` on every output (each must take this frame size).
    public func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming {
        var timing = PresentTiming.immediate
        for i in screens.indices { timing = try present(frame, damage: damage, output: i) }
        return timing
    }

    public func present(_ frame: ComposedFrame, damage: [IntRect], output index: Int) throws(DisplayError) -> PresentTiming {
        guard closedAs == nil else { throw .closed }
        precondition(screens.indices.contains(index), "output \(index) of \(screens.count)")
        let screen = screens[index]
        try screen.present(frame, damage: damage, dither: dither)
        presentCount += 1
        guard hasVSync else { return .immediate }
        let interval = screen.output.mode.frameIntervalNanoseconds
        guard let now = vblankClock?() else { return .vblank(nanoseconds: Int64(screen.presentCount) * interval) }
        return .vblank(nanoseconds: (now / interval + 1) * interval)
    }

    // The first output's screen, for single-output tests.

    /// The first output's scanout buffer.
    public var scanout: SurfaceView { first.scanout }
    /// The scanout rects the first output's last present wrote.
    public var lastWrittenRects: [IntRect] { first.lastWrittenRects }
    /// The first output's screen as a viewer sees it (see `MemoryScreen.shown`).
    public func shown() -> Pixmap { first.shown() }
    /// The first output's screen turned back by its rotation (see `MemoryScreen.shownUnrotated`).
    public func shownUnrotated() -> Pixmap { first.shownUnrotated() }
    /// The first output's raw scanout bytes.
    public var scanoutBytes: [UInt8] { first.scanoutBytes }
    /// Shares the first output's scanout through the file at `path` (`MemoryScreen.share`).
    public func shareScanout(atPath path: String) throws(DisplayError) { try first.share(atPath: path) }

    public func close(_ how: CloseBehaviour) {
        guard closedAs == nil else { return }
        closedAs = how
        // What was "on screen" before is the black it started with.
        if how == .restore { for s in byName.values { s.clear() } }
    }
}
