// SPDX-License-Identifier: MIT
// The kiosk's input devices on the runtime's loop: every /dev/input/event* that is a touchscreen,
// tablet, mouse or keyboard (or the profile's list), opened at start and followed through the
// kernel's uevents (the display's own monitor when it has one, so one socket serves both), each
// device's records decoded (Input's InputDecoder) and mapped to the frame pixels of the output its
// surface covers (the profile's assignment, else the first output), then queued for the runtime as
// an `InputMessage`, in order with the requests of the same turn.
//
// Devices are read, never grabbed, unless the profile says `grab = on`: an application behind the
// HUD keeps its input. A device that fails (unplugged: ENODEV) is closed and forgotten; a later
// uevent brings it back. What a device does is logged at a bounded rate per device node
// (`peerLog`): one that fails, or comes and goes, over and over cannot fill the journal.
import Board
import Display
import HUDProtocol
import Input
import LinuxSystem
import Logging
import Raster

/// What a device did, in an output's frame pixels.
public enum InputMessage: Equatable, Sendable {
    public enum Phase: String, Sendable { case down, move, up, cancel }
    case pointer(Phase, output: String, x: Int32, y: Int32)
    case key(code: UInt16, pressed: Bool, repeated: Bool)
    /// A keyboard's Caps Lock light.
    case capsLock(Bool)
}

/// The `[input]` keys of a profile, with their defaults.
public struct InputConfiguration: Equatable, Sendable {
    public var devices: BoardProfile.InputDevices = .auto
    public var output: String?
    public var assignments: [BoardProfile.InputAssignment] = []
    public var calibration: Calibration = .identity
    public var grab = false
    /// When prompts show the on-screen keyboard, and its layout (nil: the console's keymap).
    public var onScreenKeyboard: BoardProfile.OnScreenKeyboard = .auto
    public var keymap: String?
    /// Where device nodes are (tests point it elsewhere).
    public var directory = "/dev/input"

    public init() {}

    public init(profile: BoardProfile?) {
        guard let profile else { return }
        devices = profile.inputDevices; output = profile.inputOutput; assignments = profile.inputAssignments
        calibration = profile.inputCalibration.flatMap { Calibration(matrix: $0) } ?? .identity
        grab = profile.grabInput
        onScreenKeyboard = profile.onScreenKeyboard; keymap = profile.keymap
    }
}

public final class InputHub {
    public let configuration: InputConfiguration
    private unowned let runtime: HUDRuntime
    /// The runtime's display, whose uevents the hub may share.
    private let display: any Display
    private var logger: Logger { runtime.logger }
    private var peerLog: LogRateLimiter { runtime.peerLog }
    private var devices: [String: (device: EvdevDevice, decoder: InputDecoder)] = [:]
    /// Our own uevent monitor, when the display has none to share.
    private var monitor: UEventMonitor?

    /// The devices open now, by path, with their names.
    public var openDevices: [(path: String, name: String)] {
        devices.map { ($0.key, $0.value.device.name) }.sorted { $0.path < $1.path }
    }

    /// Opens the devices there are now and follows the ones that come and go. Nothing throws:
    /// a device that cannot be opened is logged and skipped, the HUD runs without it.
    public init(runtime: HUDRuntime, configuration: InputConfiguration) {
        self.runtime = runtime; self.display = runtime.display; self.configuration = configuration
        runtime.prompts.keyboardMode = configuration.onScreenKeyboard
        runtime.prompts.keyboardLayout = KeymapName.layout(profile: configuration.keymap)
        runtime.prompts.consoleKeymap = KeymapName.consoleName()
        switch configuration.devices {
        case .none:
            return
        case .paths(let paths):
            for path in paths { open(path, explicit: true) }
        case .auto:
            let names = (try? Files.listDirectory(configuration.directory)) ?? []
            for name in names.filter(Self.isEventNode).sorted(by: Self.byNumber) { open(configuration.directory + "/" + name, explicit: false) }
        }
        followHotplug()
        publishPresence()
    }

    deinit { close() }

    /// Closes every device (giving back a grab) and stops following hotplug.
    public func close() {
        for path in Array(devices.keys) { drop(path, reason: nil) }
        if let monitor { runtime.unwatch(monitor.descriptor) }
        monitor = nil
    }

    static func isEventNode(_ name: String) -> Bool {
        name.hasPrefix("event") && name.count > 5 && name.dropFirst(5).allSatisfy(\.isNumber)
    }

    private static func byNumber(_ a: String, _ b: String) -> Bool {
        (Int(a.dropFirst(5)) ?? 0) < (Int(b.dropFirst(5)) ?? 0)
    }

    // MARK: Devices

    private func open(_ path: String, explicit: Bool) {
        guard devices[path] == nil else { return }
        let device: EvdevDevice
        do { device = try EvdevDevice(path: path) } catch {
            peerLog.log(explicit ? .error : .debug, "input-device errors", from: path, "input \(path): \(error)\(explicit ? "; going on without it" : "")")
            return
        }
        guard device.capabilities.isUseful else {
            peerLog.log(.debug, "input devices", from: path, "input \(path) (\(device.name)): neither a pointer nor a keyboard; not used")
            return
        }
        if configuration.grab {
            do { try device.grab(true) } catch { peerLog.log(.warning, "input-device errors", from: path, "input \(path): cannot grab: \(error); reading it shared") }
        }
        do {
            try runtime.watch(device.descriptor.rawValue) { [unowned self] _ in readable(path) }
        } catch {
            peerLog.log(.error, "input-device errors", from: path, "input \(path): cannot watch: \(error)")
            return
        }
        var decoder = InputDecoder(capabilities: device.capabilities)
        let output = self.output(for: device)
        if let output { decoder.relativeSpan = (Double(output.mode.width), Double(output.mode.height)) }
        devices[path] = (device, decoder)
        publishPresence()
        peerLog.log(.info, "input devices", from: path, "input \(path): \(device.name), \(Self.describe(device.capabilities))\(output.map { " on \($0.name)" } ?? "")\(device.isGrabbed ? ", grabbed" : "")")
    }

    private func drop(_ path: String, reason: String?) {
        guard let (device, _) = devices.removeValue(forKey: path) else { return }
        // Not while closing: the runtime may be going too (close runs from deinit).
        if reason != nil { publishPresence() }
        runtime.unwatch(device.descriptor.rawValue)
        if device.isGrabbed { try? device.grab(false) }
        device.close()
        if let reason { peerLog.log(.info, "input devices", from: path, "input \(path) (\(device.name)): \(reason)") }
    }

    /// Whether a keyboard and a pointer are open, for the prompts (the on-screen keyboard).
    private func publishPresence() {
        let c = devices.values.map(\.device.capabilities)
        let pointer = c.contains { if case .none = $0.pointer { return false } else { return true } }
        runtime.prompts.devices = InputPresence(keyboard: c.contains { $0.isKeyboard }, pointer: pointer)
    }

    private static func describe(_ c: DeviceCapabilities) -> String {
        var kinds: [String] = []
        switch c.pointer {
        case .multitouch: kinds.append("multi-touch screen")
        case .absolute: kinds.append(c.isDirect ? "touchscreen" : "absolute pointer")
        case .relative: kinds.append("mouse")
        case .none: break
        }
        if c.isKeyboard { kinds.append("keyboard") }
        return kinds.joined(separator: " and ")
    }

    /// The output a device's surface covers: its assignment, else the profile's output, else the
    /// first; nil when the display has no output now.
    private func output(for device: EvdevDevice) -> DisplayOutput? {
        let outputs = runtime.outputs
        let wanted = configuration.assignments.first { device.name.containsText($0.device) }?.output ?? configuration.output
        if let wanted, let o = outputs.first(where: { $0.name == wanted }) { return o }
        return outputs.first
    }

    private func readable(_ path: String) {
        guard let entry = devices[path] else { return }
        let records: [InputEvent]
        do { records = try entry.device.read() } catch {
            drop(path, reason: "\(error); closed")
            return
        }
        var decoder = entry.decoder
        let actions = decoder.feed(records)
        devices[path]?.decoder = decoder
        guard !actions.isEmpty else { return }
        let output = self.output(for: entry.device)
        for action in actions {
            let calibration = entry.device.capabilities.pointer == .relative ? .identity : configuration.calibration
            if let message = Self.message(for: action, on: output, calibration: calibration) {
                runtime.enqueue(message)
            }
        }
    }

    /// A decoded action as the runtime takes it: a pointer's position mapped to `output`'s frame
    /// pixels (nil without an output).
    public static func message(for action: InputAction, on output: DisplayOutput?, calibration: Calibration = .identity) -> InputMessage? {
        func pointer(_ phase: InputMessage.Phase, _ p: NormalizedPoint) -> InputMessage? {
            guard let output else { return nil }
            let mapping = SurfaceMapping(scanoutWidth: output.mode.width, scanoutHeight: output.mode.height, rotation: output.rotation,
                                         calibration: calibration)
            let (x, y) = mapping.framePixel(p)
            return .pointer(phase, output: output.name, x: x, y: y)
        }
        switch action {
        case .pointerDown(let p): return pointer(.down, p)
        case .pointerMove(let p): return pointer(.move, p)
        case .pointerUp(let p): return pointer(.up, p)
        case .pointerCancel: return output.map { .pointer(.cancel, output: $0.name, x: 0, y: 0) }
        case .key(let code, let pressed, let repeated): return .key(code: code, pressed: pressed, repeated: repeated)
        case .capsLock(let on): return .capsLock(on)
        }
    }

    // MARK: Hotplug

    private func followHotplug() {
        guard configuration.devices == .auto else { return }
        if display.shareUEvents(with: { [weak self] in self?.uevents($0) }) { return }
        do {
            let m = try UEventMonitor()
            try runtime.watch(m.descriptor) { [unowned self] _ in
                guard let monitor else { return }
                do { uevents(try monitor.drain()) } catch { peerLog.log(.error, "input-device errors", from: "the uevent monitor", "input hotplug: \(error)") }
            }
            monitor = m
        } catch {
            logger.warning("input hotplug is not followed: \(error); the devices found now are used")
        }
    }

    /// Input devices in the batch: added ones are opened, removed ones closed; after an overflow
    /// the directory is read again.
    func uevents(_ batch: UEventMonitor.Batch) {
        for e in batch.events where e.subsystem == "input" {
            guard let devname = e.devname, devname.hasPrefix("input/"), Self.isEventNode(String(devname.dropFirst(6))) else { continue }
            let path = configuration.directory + "/" + devname.dropFirst(6)
            switch e.action {
            case "add": open(path, explicit: false)
            case "remove": drop(path, reason: "removed")
            default: break
            }
        }
        if batch.overflowed {
            let names = (try? Files.listDirectory(configuration.directory)) ?? []
            for name in names.filter(Self.isEventNode) { open(configuration.directory + "/" + name, explicit: false) }
        }
    }
}
