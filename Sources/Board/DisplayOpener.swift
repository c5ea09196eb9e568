// SPDX-License-Identifier: MIT
// Opens the best display for a board profile (or for none): the profile's backends in order -
// DRM (card path or any card, preferred drivers, mode, rotation, pixel format, connectors), fbdev
// (device, rotation) - and the memory display when no screen can be opened, so the HUD always
// runs. Each failure is logged with its reason; the opened backend is logged too.
//
// Connector selection reaches DRM itself (unselected connectors get no CRTC). A fixed profile
// rotation replaces the connector's `panel orientation`; `rotation = panel-orientation` follows it.
import Display
import Logging
import Raster

/// The display `DisplayOpener.open` settled on.
public struct OpenedDisplay {
    public let display: any Display
    /// The backend that opened.
    public let backend: BoardProfile.Backend
    /// Every backend that failed before it, with the reason, in the order tried.
    public let failures: [String]
}

public struct DisplayOpener {
    public var profile: BoardProfile?
    public var logger: Logger
    /// The memory display's size when the profile names no mode (the headless profile's size).
    /// When no screen opens and the profile tries DRM: wait for a card to appear (an empty DRM
    /// display that follows hotplug) instead of falling back to the memory display.
    public var waitForDisplay = false
    /// Whether its caller goes on on the memory display when no screen opens (the daemon with an
    /// explicit `--display` gives up instead, so the log must not say it goes on).
    public var continuesOnMemory = true
    public var memoryWidth: Int32 = 1280
    public var memoryHeight: Int32 = 720
    /// How DRM and fbdev are opened; tests replace them to see the options a profile gives.
    public var openDRM: (DRMDisplaySetOptions) throws(DisplayError) -> any Display = { (o) throws(DisplayError) in try DRMDisplaySet(options: o) }
    public var openFBDev: (_ path: String, _ rotation: Rotation, _ doubleBuffer: Bool) throws(DisplayError) -> any Display

    public init(profile: BoardProfile?, logger: Logger = Logger(label: "splashhud.board")) {
        self.profile = profile; self.logger = logger
        openFBDev = { (p, r, double) throws(DisplayError) in
            // The daemon paces from a frame loop: the pan and the vsync wait run off it.
            let fb = try FBDevDisplay(path: p, rotation: r, doubleBuffer: double, waitsOnWorker: true)
            logger.debug("\(p): saved console page: \(fb.savedPageByteCount) bytes of \(fb.layout.pageBytes)")
            return fb
        }
    }

    /// The first backend of the profile (DRM then fbdev without one) that opens, else memory.
    public func open() -> OpenedDisplay {
        let p = profile ?? BoardProfile(file: "(no profile)")
        var failures: [String] = []
        for backend in p.backends {
            do {
                let display = try open(backend, p)
                logger.info("display: \(backend.rawValue), outputs \(display.outputs.map { "\($0.name) \($0.mode.name)" }.joined(separator: ", "))")
                return OpenedDisplay(display: movingToCards(display, p), backend: backend, failures: failures)
            } catch {
                let line = "\(backend.rawValue): \(error)"
                logger.warning("display backend \(line)")
                failures.append(line)
            }
        }
        if waitForDisplay && p.backends.contains(.drm) {
            var options = Self.drmOptions(p)
            options.waitForCards = true
            do {
                let display = try openDRM(options)
                logger.notice("display: drm, no card yet (\(failures.joined(separator: "; "))); waiting for one to appear")
                return OpenedDisplay(display: display, backend: .drm, failures: failures)
            } catch {
                failures.append("drm (waiting): \(error)")
            }
        }
        if !failures.isEmpty {
            logger.error("no screen could be opened (\(failures.joined(separator: "; ")))\(continuesOnMemory ? "; running on the memory display" : "")")
        }
        return OpenedDisplay(display: memoryDisplay(p), backend: .memory, failures: failures)
    }

    /// A firmware framebuffer (efifb, vesafb, simplefb) where the profile allows DRM: the cards
    /// are waited for from now on and the splash moves to the first that appears, asked for the
    /// firmware's mode unless the profile names one (FirmwareHandoffDisplay).
    private func movingToCards(_ display: any Display, _ p: BoardProfile) -> any Display {
        guard let fb = display as? FBDevDisplay, fb.layout.isFirmwareFramebuffer, p.backends.contains(.drm) else { return display }
        var options = Self.drmOptions(p)
        options.waitForCards = true
        if options.display.mode == nil, let m = fb.outputs.first?.mode {
            options.display.mode = DRMModeRequest(width: m.width, height: m.height)
        }
        do {
            let cards = try openDRM(options)
            logger.info("display: \(fb.path) is the firmware's framebuffer (\(fb.layout.id)); the splash moves to the GPU's card when its driver loads")
            return FirmwareHandoffDisplay(firmware: fb, cards: cards, log: { [logger] in logger.notice("\($0)") })
        } catch {
            logger.warning("display: \(fb.path) is the firmware's framebuffer, but no card can be waited for (\(error)); the splash stays on it")
            return display
        }
    }

    private func open(_ backend: BoardProfile.Backend, _ p: BoardProfile) throws(DisplayError) -> any Display {
        switch backend {
        case .drm:
            return try openDRM(Self.drmOptions(p))
        case .fbdev:
            if let format = p.pixelFormat { logger.notice("\(p.file): pixel-format \(format.name) is not applied on fbdev (the current layout is used)") }
            if case .size(let w, let h, _) = p.mode {
                logger.notice("\(p.file): mode \(w)x\(h) is not set on fbdev (the driver's current mode is used)")
            }
            return try openFBDev(p.fbdevPath, Self.fixedRotation(p), p.buffers > 1)
        case .memory:
            return memoryDisplay(p)
        }
    }

    /// The profile's rotation when fixed; panel-orientation is 0 where no property says more.
    public static func fixedRotation(_ p: BoardProfile) -> Rotation {
        if case .fixed(let r) = p.rotation { return r }
        return .r0
    }

    /// The DRM options a profile asks for.
    public static func drmOptions(_ p: BoardProfile) -> DRMDisplaySetOptions {
        var display = DRMDisplayOptions()
        if case .size(let w, let h, let mHz) = p.mode {
            display.mode = DRMModeRequest(width: w, height: h, refreshHertz: mHz.map { ($0 + 500) / 1000 })
        }
        display.rotation = fixedRotation(p)
        if case .fixed = p.rotation { display.followPanelOrientation = false }
        if case .named(let names) = p.connectors { display.connectors = names }
        display.format = p.pixelFormat
        display.buffers = p.buffers
        var options = DRMDisplaySetOptions(display: display)
        if case .path(let path) = p.card { options.devicePaths = [path] }
        if !p.drivers.isEmpty { options.drivers = p.drivers }
        return options
    }

    /// The memory display a profile describes: its mode (else the default size), rotation and format.
    public func memoryDisplay(_ p: BoardProfile) -> MemoryDisplay {
        var width = memoryWidth, height = memoryHeight, mHz: Int32 = 60_000
        if case .size(let w, let h, let r) = p.mode { width = w; height = h; mHz = r ?? 60_000 }
        return MemoryDisplay(width: width, height: height, format: p.pixelFormat ?? .xrgb8888, rotation: Self.fixedRotation(p), refreshMillihertz: mHz)
    }
}
