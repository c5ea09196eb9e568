// SPDX-License-Identifier: MIT
// Reads one DRM card node for `splashhud probe` (DisplayProbe.swift): driver, connectors with their
// modes and panel orientation, CRTCs, planes and their formats. Read-only: no mode is set. libdrm
// calls as in DRMDevice.swift; open/close through Syscalls.

import LinuxSystem
import CDRM
import Raster
import SystemPackage

/// Closes a descriptor when the last reference goes (for early returns while probing).
final class FileDescriptorBox {
    let fd: FileDescriptor
    init(_ fd: FileDescriptor) { self.fd = fd }
    deinit { Syscalls.close(fd) }
}

enum DRMProber {
    static func probe(path: String) -> DRMCardProbe {
        var card = DRMCardProbe(path: path, driverName: "?", driverVersion: "?", driverDescription: "",
                                canModeset: false, hasAtomic: false, hasDumbBuffers: false)
        let box: FileDescriptorBox
        do { box = FileDescriptorBox(try Syscalls.open(path)) } catch {
            card.note = error.description
            return card
        }
        let fd = box.fd.rawValue
        if let v = drmGetVersion(fd) {
            let p = v.pointee
            if let n = p.name { card.driverName = String(cString: n) }
            if let d = p.desc { card.driverDescription = String(cString: d) }
            card.driverVersion = "\(p.version_major).\(p.version_minor).\(p.version_patchlevel)"
            drmFreeVersion(v)
        }
        var dumb: UInt64 = 0
        card.hasDumbBuffers = drmGetCap(fd, UInt64(DRM_CAP_DUMB_BUFFER), &dumb) == 0 && dumb != 0
        card.hasAtomic = drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0
        let universal = card.hasAtomic || drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) == 0

        let res: UnsafeMutablePointer<drmModeRes>
        do throws(DisplayError) {
            res = try DRMCall.check("drmModeGetResources", drmModeGetResources(fd), device: path)
        } catch {
            card.note = "no KMS (\(error.description)): a GPU-only or render driver, cannot modeset"
            return card
        }
        defer { drmModeFreeResources(res) }
        card.canModeset = true
        let crtcIDs = Array(UnsafeBufferPointer(start: res.pointee.crtcs, count: Int(res.pointee.count_crtcs)))
        for id in crtcIDs {
            guard let c = drmModeGetCrtc(fd, id) else { continue }
            card.crtcs.append(DRMCRTCProbe(id: id, mode: c.pointee.mode_valid != 0 ? currentMode(c.pointee.mode) : nil,
                                           framebufferID: c.pointee.buffer_id))
            drmModeFreeCrtc(c)
        }
        for id in UnsafeBufferPointer(start: res.pointee.connectors, count: Int(res.pointee.count_connectors)) {
            if let c = connector(fd, id: id) { card.connectors.append(c) }
        }
        if let pres = drmModeGetPlaneResources(fd) {
            defer { drmModeFreePlaneResources(pres) }
            for id in UnsafeBufferPointer(start: pres.pointee.planes, count: Int(pres.pointee.count_planes)) {
                guard let plane = drmModeGetPlane(fd, id) else { continue }
                defer { drmModeFreePlane(plane) }
                var type = "overlay"
                if universal {
                    let props = DRMDevice.readProperties(box.fd, object: id, type: UInt32(DRM_MODE_OBJECT_PLANE), kind: .plane)
                    type = props.enumValueName("type")?.lowercased() ?? "unknown"
                }
                let formats = UnsafeBufferPointer(start: plane.pointee.formats, count: Int(plane.pointee.count_formats)).map(formatName)
                card.planes.append(DRMPlaneProbe(id: id, type: type, possibleCRTCs: plane.pointee.possible_crtcs,
                                                 formats: formats, crtcID: plane.pointee.crtc_id))
            }
        }
        return card
    }

    static func mode(_ m: drmModeModeInfo) -> DRMModeProbe {
        let c = m.candidate
        return DRMModeProbe(name: m.nameString, width: c.width, height: c.height, refreshMillihertz: c.refreshMillihertz,
                            isPreferred: c.isPreferred, isInterlaced: c.isInterlaced)
    }

    /// A CRTC's mode: whether it is some connector's preferred one is said on the connector.
    static func currentMode(_ m: drmModeModeInfo) -> DRMModeProbe {
        var p = mode(m)
        p.isPreferred = false
        return p
    }

    static func connector(_ fd: CInt, id: UInt32) -> DRMConnectorProbe? {
        guard let c = drmModeGetConnector(fd, id) else { return nil }
        defer { drmModeFreeConnector(c) }
        let conn = c.pointee
        let typeName = drmModeGetConnectorTypeName(conn.connector_type).map { String(cString: $0) } ?? "Unknown\(conn.connector_type)"
        let status: String
        switch conn.connection {
        case DRM_MODE_CONNECTED: status = "connected"
        case DRM_MODE_DISCONNECTED: status = "disconnected"
        default: status = "unknown"
        }
        var crtcID: UInt32?
        if conn.encoder_id != 0, let enc = drmModeGetEncoder(fd, conn.encoder_id) {
            if enc.pointee.crtc_id != 0 { crtcID = enc.pointee.crtc_id }
            drmModeFreeEncoder(enc)
        }
        let props = DRMDevice.readProperties(FileDescriptor(rawValue: fd), object: id, type: UInt32(DRM_MODE_OBJECT_CONNECTOR), kind: .connector)
        return DRMConnectorProbe(
            id: id, name: "\(typeName)-\(conn.connector_type_id)", status: status,
            physicalWidthMM: Int32(clamping: conn.mmWidth), physicalHeightMM: Int32(clamping: conn.mmHeight),
            modes: UnsafeBufferPointer(start: conn.modes, count: Int(conn.count_modes)).map(mode),
            panelOrientation: props.enumValueName("panel orientation"), crtcID: crtcID)
    }

    /// The DRM name of a fourcc SplashHUD can draw ("XRGB8888", PixelFormat.name), else libdrm's
    /// drmGetFormatName (the four characters, "BX24"), else the characters themselves.
    static func formatName(_ fourcc: UInt32) -> String {
        if let f = PixelFormat(drmFourCC: fourcc) { return f.name }
        if let p = drmGetFormatName(fourcc) {
            defer { Memory.release(p) }
            return String(cString: p)
        }
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: fourcc >> (8 * UInt32($0))) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
