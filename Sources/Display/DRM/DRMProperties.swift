// SPDX-License-Identifier: MIT
// KMS property ids, looked up by name once per object (like wlroots backend/drm/properties.c):
// atomic commits address every value by property id, and the ids differ between drivers and boots.
// The names an atomic modeset needs are data in `DRMPropertyTable.required`; a driver lacking one of
// them cannot be driven atomically and the legacy strategy is used instead.

import Raster

/// The kind of KMS object a property belongs to.
public enum DRMObjectKind: String, Sendable, CaseIterable {
    case connector, crtc, plane
}

/// Property name -> id for one KMS object, from `drmModeObjectGetProperties` + `drmModeGetProperty`.
public struct DRMPropertyTable: Equatable, Sendable {
    public let kind: DRMObjectKind
    public private(set) var ids: [String: UInt32]
    /// Current values by name (the `panel orientation` enum value, a plane's `type`).
    public private(set) var values: [String: UInt64]
    /// Enum properties: name -> (enum value -> enum name), e.g. "panel orientation" -> [1: "Upside Down"].
    public private(set) var enumNames: [String: [UInt64: String]]

    public init(kind: DRMObjectKind, properties: [(id: UInt32, name: String, value: UInt64, enums: [UInt64: String])]) {
        self.kind = kind
        ids = [:]; values = [:]; enumNames = [:]
        for p in properties {
            ids[p.name] = p.id; values[p.name] = p.value
            if !p.enums.isEmpty { enumNames[p.name] = p.enums }
        }
    }

    /// The properties an atomic modeset and flip set on each kind of object.
    public static let required: [DRMObjectKind: [String]] = [
        .connector: ["CRTC_ID"],
        .crtc: ["ACTIVE", "MODE_ID"],
        .plane: ["FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H", "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H"],
    ]

    /// The required names this object lacks (empty when atomic commits can address it).
    public var missingRequired: [String] {
        (DRMPropertyTable.required[kind] ?? []).filter { ids[$0] == nil }
    }

    /// The id of `name`, or nil.
    public subscript(name: String) -> UInt32? { ids[name] }

    /// The current value of an enum property as its name ("Normal"), or nil.
    public func enumValueName(_ name: String) -> String? {
        guard let v = values[name], let names = enumNames[name] else { return nil }
        return names[v]
    }
}

/// The connector property "panel orientation" (drm_connector.c) as the rotation the frame needs
/// so the viewer sees it upright, following drm_client_modeset's drm_client_rotation: "Left Side
/// Up" is DRM_MODE_ROTATE_90 (counter-clockwise) = Raster `.r270`, "Right Side Up" is
/// DRM_MODE_ROTATE_270 = `.r90`. Unknown names (and "Normal") need none.
public enum DRMPanelOrientation {
    public static let rotations: [String: Rotation] = [
        "Normal": .r0, "Upside Down": .r180, "Left Side Up": .r270, "Right Side Up": .r90,
    ]

    public static func rotation(forPropertyValue name: String?) -> Rotation {
        name.flatMap { rotations[$0] } ?? .r0
    }
}

extension Rotation {
    /// This rotation followed by `other` (angles add, modulo 360°).
    public func then(_ other: Rotation) -> Rotation {
        Rotation(rawValue: (rawValue + other.rawValue) % 360)!
    }
}
