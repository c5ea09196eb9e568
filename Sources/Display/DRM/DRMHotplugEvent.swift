// SPDX-License-Identifier: MIT
// What a kernel uevent means for the DRM displays (pure, unit-tested on real uevents):
//
//   add@.../drm/card1                          a card appeared (PCI hotplug, a driver bound)
//   remove@.../drm/card1                       the card is gone; its descriptor is dead
//   change@.../drm/card0  HOTPLUG=1 [CONNECTOR=35]   connector status may have changed
//   add|remove@.../drm/card1/card1-Virtual-1   a connector registered/unregistered (the card's
//                                              objects are complete only after these, so a card
//                                              that could not be opened at "add" is retried)
//
// Render nodes (renderD128), control nodes and other subsystems are ignored.

/// A DRM hotplug event, by card node.
public enum DRMHotplugEvent: Equatable, Sendable {
    case cardAdded(path: String)
    case cardRemoved(path: String)
    /// Connectors of the card may have changed (`connector`: the one the kernel named, if any).
    case connectorsChanged(path: String, connector: UInt32?)

    public var path: String {
        switch self {
        case .cardAdded(let p), .cardRemoved(let p), .connectorsChanged(let p, _): return p
        }
    }

    /// The event for `uevent`, or nil when it is not about a DRM card.
    public static func classify(_ uevent: UEvent) -> DRMHotplugEvent? {
        guard uevent.subsystem == "drm" else { return nil }
        let parts = uevent.devpath.split(separator: "/")
        guard let drm = parts.lastIndex(of: "drm"), drm + 1 < parts.count else { return nil }
        let card = parts[drm + 1]
        guard isCardName(card) else { return nil }
        let path = "/dev/dri/\(card)"
        if drm + 2 == parts.count {
            switch uevent.action {
            case "add": return .cardAdded(path: path)
            case "remove": return .cardRemoved(path: path)
            case "change": return .connectorsChanged(path: path, connector: uevent.connectorID)
            default: return nil
            }
        }
        // A child of the card: its connectors ("card1-Virtual-1").
        guard drm + 3 == parts.count, parts[drm + 2].hasPrefix("\(card)-") else { return nil }
        switch uevent.action {
        case "add", "remove", "change": return .connectorsChanged(path: path, connector: nil)
        default: return nil
        }
    }

    /// "card0".."card255"; not "renderD128" or "controlD64".
    static func isCardName(_ s: Substring) -> Bool {
        s.hasPrefix("card") && s.count > 4 && s.dropFirst(4).allSatisfy { $0.isASCII && $0.isNumber }
    }
}
