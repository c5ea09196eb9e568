// SPDX-License-Identifier: MIT
// An open /dev/input/event* node: its name and capabilities read once (EVIOCGNAME, EVIOCGBIT,
// EVIOCGABS, EVIOCGPROP), records read without blocking, and an optional exclusive grab
// (EVIOCGRAB) — off by default, so the application behind the HUD keeps its input.
import CLinuxShim
import LinuxSystem
import SystemPackage

public final class EvdevDevice {
    public let path: String
    public let name: String
    public let capabilities: DeviceCapabilities
    public let descriptor: FileDescriptor
    public private(set) var isGrabbed = false
    private var buffer = [UInt8](repeating: 0, count: 64 * InputEvent.Layout.native.size)
    private var closed = false

    /// Opens `path` read-only and non-blocking and reads what the device is.
    public init(path: String) throws(SystemError) {
        self.path = path
        let fd = try Files.open(path, flags: OpenFlag.readOnly | OpenFlag.nonBlocking)
        do {
            name = try Self.name(fd, path)
            capabilities = try Self.capabilities(fd, path)
        } catch {
            Files.close(fd)
            throw error
        }
        descriptor = fd
    }

    deinit { close() }

    public func close() {
        guard !closed else { return }
        closed = true
        Files.close(descriptor)
    }

    /// Takes the device for this process alone (or gives it back): other readers, the console
    /// and an application behind the HUD, stop seeing its events.
    public func grab(_ on: Bool) throws(SystemError) {
        try IOControl.call(descriptor, UInt(CLinuxShim_EVIOCGRAB), "EVIOCGRAB", subject: path, value: on ? 1 : 0)
        isGrabbed = on
    }

    /// Every record pending now; empty when none is. ENODEV (the device was unplugged) throws.
    public func read() throws(SystemError) -> [InputEvent] {
        var out: [InputEvent] = []
        while true {
            let fd = descriptor, path = path
            let got = try buffer.withUnsafeMutableBytes { b in
                Result { () throws(SystemError) in try Files.read(fd, into: b, subject: path) }
            }.get()
            guard let got, got > 0 else { return out }
            out += buffer.withUnsafeBytes { InputEvent.decode(UnsafeRawBufferPointer(rebasing: $0[..<got])) }
            if got < buffer.count { return out }
        }
    }

    // MARK: What the device is

    private static func name(_ fd: FileDescriptor, _ path: String) throws(SystemError) -> String {
        var bytes = [UInt8](repeating: 0, count: 256)
        try call(fd, CLinuxShim_EVIOCGNAME(UInt32(bytes.count - 1)), "EVIOCGNAME", path, &bytes)
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    private static func bits(_ fd: FileDescriptor, _ path: String, type: UInt16?, count: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: (count + 7) / 8)
        let request = type.map { CLinuxShim_EVIOCGBIT(UInt32($0), UInt32(bytes.count)) } ?? CLinuxShim_EVIOCGPROP(UInt32(bytes.count))
        try call(fd, request, type == nil ? "EVIOCGPROP" : "EVIOCGBIT", path, &bytes)
        return bytes
    }

    private static func range(_ fd: FileDescriptor, _ path: String, axis: UInt16) throws(SystemError) -> AxisRange {
        var info = [Int32](repeating: 0, count: 6)  // struct input_absinfo: value, minimum, maximum, fuzz, flat, resolution
        try call(fd, CLinuxShim_EVIOCGABS(UInt32(axis)), "EVIOCGABS", path, &info)
        return AxisRange(minimum: info[1], maximum: info[2])
    }

    /// An ioctl that fills `buffer`.
    private static func call<T>(_ fd: FileDescriptor, _ request: UInt, _ name: String, _ path: String, _ buffer: inout [T]) throws(SystemError) {
        try buffer.withUnsafeMutableBytes { b in
            Result { () throws(SystemError) in try IOControl.call(fd, request, name, subject: path, b.baseAddress!) }
        }.get()
    }

    static func capabilities(_ fd: FileDescriptor, _ path: String) throws(SystemError) -> DeviceCapabilities {
        func has(_ bits: [UInt8], _ code: UInt16) -> Bool {
            Int(code / 8) < bits.count && bits[Int(code / 8)] & (1 << (code % 8)) != 0
        }
        let types = try bits(fd, path, type: 0, count: 32)
        let keys = has(types, EventType.key) ? try bits(fd, path, type: EventType.key, count: 0x300) : []
        let abs = has(types, EventType.abs) ? try bits(fd, path, type: EventType.abs, count: 0x40) : []
        let rel = has(types, EventType.rel) ? try bits(fd, path, type: EventType.rel, count: 0x10) : []
        let props = try bits(fd, path, type: nil, count: 0x20)

        let pointer: DeviceCapabilities.Pointer
        if has(abs, EventCode.absMTSlot) && has(abs, EventCode.absMTPositionX) && has(abs, EventCode.absMTPositionY) {
            pointer = .multitouch(x: try range(fd, path, axis: EventCode.absMTPositionX), y: try range(fd, path, axis: EventCode.absMTPositionY))
        } else if has(abs, EventCode.absX) && has(abs, EventCode.absY)
                    && (has(keys, EventCode.buttonTouch) || has(keys, EventCode.buttonLeft)) {
            pointer = .absolute(x: try range(fd, path, axis: EventCode.absX), y: try range(fd, path, axis: EventCode.absY))
        } else if has(rel, EventCode.relX) && has(rel, EventCode.relY) && has(keys, EventCode.buttonLeft) {
            pointer = .relative
        } else {
            pointer = .none
        }
        let keyboard = [EventCode.keyEnter, EventCode.keyEsc, EventCode.keySpace, EventCode.keyA].contains { has(keys, $0) }
        return DeviceCapabilities(pointer: pointer, isKeyboard: keyboard, isDirect: has(props, EventCode.propertyDirect))
    }
}
