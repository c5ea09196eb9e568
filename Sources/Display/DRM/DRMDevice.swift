// SPDX-License-Identifier: MIT
// An open DRM card (/dev/dri/cardN) and what it offers, read through libdrm.
//
// libdrm is the second layer allowed to make system calls in Display (style.md §2 "use libdrm's own
// calls"): the DRM files call drmModeGetResources, drmModeSetCrtc, drmIoctl... directly, while
// open/mmap/munmap/poll still go through Syscalls.swift. Every libdrm call that can fail goes
// through `DRMCall.check`, which turns libdrm's two failure conventions (-1 with errno set, or
// -errno returned) into DisplayError.ioctl naming the libdrm function and the card.
//
// Card choice (`DRMCardChoice`): only card nodes are tried (render nodes, renderD128..., cannot
// modeset); a card whose driver has no KMS (drmModeGetResources fails: v3d on a Raspberry Pi 4,
// etnaviv, lima, panfrost) or no connectors is skipped; among the rest the first with a connected
// connector wins, else the first with connectors at all.

import LinuxSystem
import CDRM
import Raster
import SystemPackage

/// libdrm's failure conventions -> DisplayError.
enum DRMCall {
    /// Throws when `result` is negative: `-1` means errno holds the cause, any other negative value
    /// is `-errno` (drmModeCreatePropertyBlob, drmModeAtomicCommit through drmIoctl...).
    static func check(_ name: String, _ result: CInt, device: String) throws(DisplayError) {
        guard result < 0 else { return }
        throw .ioctl(name, result == -1 ? currentErrno() : Errno(rawValue: -result), device)
    }

    /// Throws for a nil result of a libdrm getter (it returns NULL with errno set).
    static func check<T>(_ name: String, _ result: T?, device: String) throws(DisplayError) -> T {
        guard let result else { throw .ioctl(name, currentErrno().rawValue == 0 ? .operationNotSupportedByDevice : currentErrno(), device) }
        return result
    }
}

/// What card selection needs to know of one card node (pure data, so the rule is unit-tested).
public struct DRMCardDescription: Equatable, Sendable {
    public var path: String
    /// Whether the driver has KMS resources (drmModeGetResources works).
    public var canModeset: Bool
    public var connectorCount: Int
    public var connectedCount: Int

    public init(path: String, canModeset: Bool, connectorCount: Int, connectedCount: Int) {
        self.path = path; self.canModeset = canModeset
        self.connectorCount = connectorCount; self.connectedCount = connectedCount
    }
}

public enum DRMCardChoice {
    /// The card to drive: the first that can modeset with a connected connector, else the first
    /// that can modeset with any connector (a monitor may appear later), else nil.
    public static func choose(_ cards: [DRMCardDescription]) -> DRMCardDescription? {
        let usable = cards.filter { $0.canModeset && $0.connectorCount > 0 && !isRenderNode($0.path) }
        return usable.first { $0.connectedCount > 0 } ?? usable.first
    }

    /// Render nodes (/dev/dri/renderD128) never modeset.
    public static func isRenderNode(_ path: String) -> Bool {
        path.split(separator: "/").last?.hasPrefix("renderD") ?? false
    }

    /// The card nodes to try: /dev/dri/card0 ... card15.
    public static let candidatePaths: [String] = (0..<16).map { "/dev/dri/card\($0)" }
}

/// One connector as read at open.
public struct DRMConnectorInfo {
    public var id: UInt32
    /// "Virtual-1", "HDMI-A-1" (type name from drmModeGetConnectorTypeName and the type's index).
    public var name: String
    public var isConnected: Bool
    public var modes: [drmModeModeInfo]
    /// Bit mask of CRTC indices some encoder of this connector can drive.
    public var possibleCRTCs: UInt32
    /// The CRTC index driving it now (fbcon's), when any.
    public var currentCRTCIndex: Int?
    public var physicalWidthMM: Int32
    public var physicalHeightMM: Int32
    public var properties: DRMPropertyTable
}

/// An open card node with its KMS resources.
final class DRMDevice {
    let path: String
    let fd: FileDescriptor
    /// The kernel driver's name ("bochs-drm", "virtio_gpu").
    let driverName: String
    let crtcIDs: [UInt32]
    /// As read at open or by the last `rereadConnectors`.
    private(set) var connectors: [DRMConnectorInfo]
    /// Whether DRM_CLIENT_CAP_ATOMIC was granted (implies universal planes).
    let hasAtomic: Bool
    /// Whether DRM_CLIENT_CAP_UNIVERSAL_PLANES was granted (primary planes are listed).
    let hasUniversalPlanes: Bool

    /// Opens `path` and reads its connectors. `wantAtomic: false` keeps to legacy KMS.
    init(path: String, wantAtomic: Bool = true) throws(DisplayError) {
        // Non-blocking: with no page-flip event waiting, reading events returns EAGAIN at once,
        // so the frame loop reads them without polling first (one syscall less a frame).
        let fd = try Syscalls.open(path, nonBlocking: true)
        do throws(DisplayError) {
            self.path = path; self.fd = fd
            var name = "unknown"
            if let v = drmGetVersion(fd.rawValue) {
                if let n = v.pointee.name { name = String(cString: n) }
                drmFreeVersion(v)
            }
            driverName = name
            var dumb: UInt64 = 0
            if drmGetCap(fd.rawValue, UInt64(DRM_CAP_DUMB_BUFFER), &dumb) != 0 || dumb == 0 {
                throw .unsupported(path, "driver \(name) has no dumb buffers")
            }
            hasAtomic = wantAtomic && drmSetClientCap(fd.rawValue, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0
            hasUniversalPlanes = hasAtomic || drmSetClientCap(fd.rawValue, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) == 0
            let (crtcs, list) = try DRMDevice.readResources(fd, device: path)
            crtcIDs = crtcs
            connectors = list
        } catch {
            Syscalls.close(fd)
            throw error
        }
    }

    deinit { Syscalls.close(fd) }

    /// The CRTC ids and every connector (drmModeGetConnector probes them: status and modes are
    /// current, as after a hotplug event).
    private static func readResources(_ fd: FileDescriptor, device: String) throws(DisplayError) -> ([UInt32], [DRMConnectorInfo]) {
        let res = try DRMCall.check("drmModeGetResources", drmModeGetResources(fd.rawValue), device: device)
        defer { drmModeFreeResources(res) }
        let crtcIDs = Array(UnsafeBufferPointer(start: res.pointee.crtcs, count: Int(res.pointee.count_crtcs)))
        let connectorIDs = Array(UnsafeBufferPointer(start: res.pointee.connectors, count: Int(res.pointee.count_connectors)))
        var list: [DRMConnectorInfo] = []
        for id in connectorIDs {
            list.append(try readConnector(fd, id: id, crtcIDs: crtcIDs, device: device))
        }
        return (crtcIDs, list)
    }

    /// Reads the connectors again after a hotplug event (connectors can appear: DP MST).
    func rereadConnectors() throws(DisplayError) {
        connectors = try DRMDevice.readResources(fd, device: path).1
    }

    /// A summary for card selection.
    var description: DRMCardDescription {
        DRMCardDescription(
            path: path, canModeset: true, connectorCount: connectors.count,
            connectedCount: connectors.filter(\.isConnected).count)
    }

    /// Opens the card that can modeset (see the header); the error of the last card tried when none can.
    static func openModesettingCard(wantAtomic: Bool = true) throws(DisplayError) -> DRMDevice {
        var opened: [DRMDevice] = []
        var lastError = DisplayError.syscall("open", .noSuchFileOrDirectory, "/dev/dri/card*")
        for path in DRMCardChoice.candidatePaths {
            do {
                opened.append(try DRMDevice(path: path, wantAtomic: wantAtomic))
            } catch {
                if case .syscall("open", .noSuchFileOrDirectory, _) = error { continue }
                lastError = error
            }
        }
        guard let chosen = DRMCardChoice.choose(opened.map(\.description)) else {
            throw opened.isEmpty ? lastError : .unsupported("/dev/dri", "no card has connectors")
        }
        return opened.first { $0.path == chosen.path }!
    }

    private static func readConnector(_ fd: FileDescriptor, id: UInt32, crtcIDs: [UInt32], device: String) throws(DisplayError) -> DRMConnectorInfo {
        let c = try DRMCall.check("drmModeGetConnector", drmModeGetConnector(fd.rawValue, id), device: device)
        defer { drmModeFreeConnector(c) }
        let conn = c.pointee
        let typeName = drmModeGetConnectorTypeName(conn.connector_type).map { String(cString: $0) } ?? "Unknown\(conn.connector_type)"
        var possible: UInt32 = 0
        var current: Int?
        for e in UnsafeBufferPointer(start: conn.encoders, count: Int(conn.count_encoders)) {
            guard let enc = drmModeGetEncoder(fd.rawValue, e) else { continue }
            possible |= enc.pointee.possible_crtcs
            if e == conn.encoder_id, enc.pointee.crtc_id != 0 { current = crtcIDs.firstIndex(of: enc.pointee.crtc_id) }
            drmModeFreeEncoder(enc)
        }
        return DRMConnectorInfo(
            id: id, name: "\(typeName)-\(conn.connector_type_id)", isConnected: conn.connection == DRM_MODE_CONNECTED,
            modes: Array(UnsafeBufferPointer(start: conn.modes, count: Int(conn.count_modes))),
            possibleCRTCs: possible, currentCRTCIndex: current,
            physicalWidthMM: Int32(clamping: conn.mmWidth), physicalHeightMM: Int32(clamping: conn.mmHeight),
            properties: readProperties(fd, object: id, type: UInt32(DRM_MODE_OBJECT_CONNECTOR), kind: .connector))
    }

    /// The primary plane that can scan out on CRTC `crtcIndex`: its id, formats and properties;
    /// nil without universal planes (legacy drivers hide the primary plane).
    func primaryPlane(crtcIndex: Int) -> (id: UInt32, formats: [UInt32], properties: DRMPropertyTable)? {
        guard hasUniversalPlanes, let res = drmModeGetPlaneResources(fd.rawValue) else { return nil }
        defer { drmModeFreePlaneResources(res) }
        for id in UnsafeBufferPointer(start: res.pointee.planes, count: Int(res.pointee.count_planes)) {
            guard let plane = drmModeGetPlane(fd.rawValue, id) else { continue }
            defer { drmModeFreePlane(plane) }
            guard crtcIndex < 32, plane.pointee.possible_crtcs & (1 << UInt32(crtcIndex)) != 0 else { continue }
            let props = DRMDevice.readProperties(fd, object: id, type: UInt32(DRM_MODE_OBJECT_PLANE), kind: .plane)
            guard props.values["type"] == UInt64(DRM_PLANE_TYPE_PRIMARY) else { continue }
            let formats = Array(UnsafeBufferPointer(start: plane.pointee.formats, count: Int(plane.pointee.count_formats)))
            return (id, formats, props)
        }
        return nil
    }

    /// The properties of a KMS object by name (empty when the driver will not list them).
    static func readProperties(_ fd: FileDescriptor, object: UInt32, type: UInt32, kind: DRMObjectKind) -> DRMPropertyTable {
        var list: [(id: UInt32, name: String, value: UInt64, enums: [UInt64: String])] = []
        if let props = drmModeObjectGetProperties(fd.rawValue, object, type) {
            defer { drmModeFreeObjectProperties(props) }
            for i in 0..<Int(props.pointee.count_props) {
                guard let p = drmModeGetProperty(fd.rawValue, props.pointee.props[i]) else { continue }
                let name = withUnsafeBytes(of: p.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                var enums: [UInt64: String] = [:]
                for e in UnsafeBufferPointer(start: p.pointee.enums, count: Int(p.pointee.count_enums)) {
                    enums[e.value] = withUnsafeBytes(of: e.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                }
                list.append((p.pointee.prop_id, name, props.pointee.prop_values[i], enums))
                drmModeFreeProperty(p)
            }
        }
        return DRMPropertyTable(kind: kind, properties: list)
    }
}

extension drmModeModeInfo {
    /// The mode's name ("1024x768").
    var nameString: String {
        withUnsafeBytes(of: name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    var candidate: DRMModeCandidate {
        DRMModeCandidate(
            width: Int32(hdisplay), height: Int32(vdisplay), refreshMillihertz: refreshMillihertz,
            isPreferred: type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0, isInterlaced: flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0)
    }

    var refreshMillihertz: Int32 {
        DRMModeSelection.refreshMillihertz(
            clockKHz: clock, htotal: htotal, vtotal: vtotal, interlaced: flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0,
            doubleScan: flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0, vscan: vscan)
    }

    var displayMode: DisplayMode {
        DisplayMode(width: Int32(hdisplay), height: Int32(vdisplay), refreshMillihertz: refreshMillihertz, name: nameString)
    }
}

/// Which CRTC drives each connector: pure, so it is unit-tested.
public enum DRMCRTCAssignment {
    /// For each connector (its possible-CRTC bit mask and the CRTC index driving it now), a distinct
    /// CRTC index or nil when none is left. The current CRTC is kept where possible (no needless
    /// reroute), then the lowest free possible one is taken.
    /// `taken`: CRTC indices already driving outputs (after a hotplug, the kept ones).
    public static func assign(_ connectors: [(possible: UInt32, current: Int?)], crtcCount: Int, taken: Set<Int> = []) -> [Int?] {
        var used = taken
        var result = [Int?](repeating: nil, count: connectors.count)
        for (i, c) in connectors.enumerated() {
            if let cur = c.current, cur < crtcCount, c.possible & (1 << UInt32(cur)) != 0, !used.contains(cur) {
                result[i] = cur; used.insert(cur)
            }
        }
        for (i, c) in connectors.enumerated() where result[i] == nil {
            if let free = (0..<min(crtcCount, 32)).first(where: { c.possible & (1 << UInt32($0)) != 0 && !used.contains($0) }) {
                result[i] = free; used.insert(free)
            }
        }
        return result
    }
}
