// SPDX-License-Identifier: MIT
// Device hotplug notifications straight from the kernel, without libudev or udevd
// (a boot splash often runs before udevd): a NETLINK_KOBJECT_UEVENT socket bound to the kernel's
// multicast group, as udevd itself listens. Each datagram is one event:
//
//   "change@/devices/pci0000:00/0000:00:02.0/drm/card0\0ACTION=change\0DEVPATH=/devices/...\0
//    SUBSYSTEM=drm\0HOTPLUG=1\0CONNECTOR=35\0DEVNAME=dri/card0\0DEVTYPE=drm_minor\0SEQNUM=1712\0..."
//
// udevd re-broadcasts processed events on group 2 in its own binary format, starting "libudev\0";
// those are not ours (we bind group 1 only) and are skipped if one ever arrives.
//
// The parser is pure (unit-tested on captured bytes); a malformed datagram is a clear error the
// monitor counts and drops, never a crash.

import SystemPackage

/// One kernel uevent: "ACTION@DEVPATH" and its KEY=VALUE properties.
public struct UEvent: Equatable, Sendable {
    /// "add", "remove", "change", "bind", "unbind", "move", "online", "offline".
    public var action: String
    /// The sysfs path below /sys, e.g. "/devices/pci0000:00/0000:00:02.0/drm/card0".
    public var devpath: String
    /// Every KEY=VALUE field (ACTION, DEVPATH, SUBSYSTEM, DEVNAME, HOTPLUG, CONNECTOR, SEQNUM...).
    public var properties: [String: String]

    public init(action: String, devpath: String, properties: [String: String] = [:]) {
        self.action = action; self.devpath = devpath; self.properties = properties
    }

    public var subsystem: String? { properties["SUBSYSTEM"] }
    /// The device node below /dev ("dri/card0"), when the device has one.
    public var devname: String? { properties["DEVNAME"] }
    /// DRM: a connector's status may have changed (HOTPLUG=1 on a card "change").
    public var isHotplug: Bool { properties["HOTPLUG"] == "1" }
    /// DRM: the connector id the change is about, when the kernel names one (CONNECTOR=id).
    public var connectorID: UInt32? { properties["CONNECTOR"].flatMap { UInt32($0) } }

    /// Why a datagram is not a kernel uevent.
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case empty
        /// The first field is not "ACTION@/DEVPATH" (with a printable prefix of what it was).
        case noHeader(String)
        /// A field after the header has no '=' (its index and a printable prefix).
        case malformedField(Int, String)
        /// The ACTION or DEVPATH field contradicts the header.
        case headerMismatch(String)

        public var description: String {
            switch self {
            case .empty: return "uevent: empty datagram"
            case .noHeader(let s): return "uevent: no ACTION@DEVPATH header (starts \"\(s)\")"
            case .malformedField(let i, let s): return "uevent: field \(i) \"\(s)\" is not KEY=VALUE"
            case .headerMismatch(let s): return "uevent: \(s)"
            }
        }
    }

    /// Parses one datagram. nil for udevd's own format ("libudev\0" + binary header), which is
    /// another program's and not an error.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(ParseError) -> UEvent? {
        guard !bytes.isEmpty else { throw .empty }
        if bytes.starts(with: Array("libudev".utf8) + [0]) { return nil }
        // Fields are NUL-terminated; a missing final NUL (truncated datagram) still ends the last one.
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: true)
        guard let header = fields.first, let at = header.firstIndex(of: UInt8(ascii: "@")),
              at > header.startIndex, header.index(after: at) < header.endIndex,
              header[header.index(after: at)] == UInt8(ascii: "/")
        else { throw .noHeader(printable(fields.first ?? bytes)) }
        let action = String(decoding: header[..<at], as: UTF8.self)
        let devpath = String(decoding: header[header.index(after: at)...], as: UTF8.self)
        var properties: [String: String] = [:]
        for (i, field) in fields.dropFirst().enumerated() {
            guard let eq = field.firstIndex(of: UInt8(ascii: "=")), eq > field.startIndex else {
                throw .malformedField(i + 1, printable(field))
            }
            properties[String(decoding: field[..<eq], as: UTF8.self)] = String(decoding: field[field.index(after: eq)...], as: UTF8.self)
        }
        if let a = properties["ACTION"], a != action { throw .headerMismatch("ACTION=\(a) but the header says \(action)") }
        if let d = properties["DEVPATH"], d != devpath { throw .headerMismatch("DEVPATH=\(d) but the header says \(devpath)") }
        return UEvent(action: action, devpath: devpath, properties: properties)
    }

    private static func printable(_ bytes: ArraySlice<UInt8>) -> String {
        String(bytes.prefix(40).map { $0 >= 0x20 && $0 < 0x7F ? Character(Unicode.Scalar($0)) : "?" })
    }
}

/// The kernel's uevents on a non-blocking socket: poll `descriptor`, then `drain()`.
public final class UEventMonitor {
    private let fd: FileDescriptor
    private var buffer = [UInt8](repeating: 0, count: 16384)
    /// Datagrams dropped as malformed, and the last reason (for diagnostics).
    public private(set) var malformedCount = 0
    public private(set) var lastMalformed: UEvent.ParseError?

    /// Opens the socket; fails (EACCES/EPERM in a restricted container, EPROTONOSUPPORT without
    /// CONFIG_NET) with an error naming socket or bind.
    public init() throws(DisplayError) {
        fd = try Syscalls.ueventSocket()
    }

    deinit { Syscalls.close(fd) }

    /// The raw descriptor, readable while events are pending.
    public var descriptor: Int32 { fd.rawValue }

    /// What `drain` found: the events in order, and whether the socket overflowed (ENOBUFS), in
    /// which case events were lost and the caller should re-read everything.
    public struct Batch: Sendable {
        public var events: [UEvent] = []
        public var overflowed = false
    }

    /// Reads every pending datagram without blocking. Messages not from the kernel (sender port
    /// not 0), udevd's and malformed ones are dropped.
    public func drain() throws(DisplayError) -> Batch {
        var batch = Batch()
        while true {
            switch Syscalls.receiveUEvent(fd, into: &buffer) {
            case .success(nil):
                return batch
            case .success(let got?):
                guard got.senderPort == 0 else { continue }
                do {
                    if let e = try UEvent.parse(buffer[..<min(got.count, buffer.count)]) { batch.events.append(e) }
                } catch {
                    malformedCount += 1
                    lastMalformed = error
                }
            case .failure(.noBufferSpace):
                batch.overflowed = true  // the kernel dropped some; the next recv goes on
            case .failure(let e):
                throw .syscall("recvfrom", e, "NETLINK_KOBJECT_UEVENT")
            }
        }
    }
}
