// SPDX-License-Identifier: MIT
// What an update framework's events become on the HUD, whichever framework sent them, and the
// command-language line for each. Progress is a state (a newer one replaces an older one not yet
// sent); the start and the ends are events (never dropped, never reordered).
import HUDProtocol
import Raster

public enum UpdateView: Equatable, Sendable {
    /// The bar at `percent` (0...100) with `status` under it.
    case progress(percent: Int, status: String)
    /// The update is installed (SV's success icon, dismissed after its display duration).
    case succeeded(status: String)
    /// The update failed, with the framework's own reason: it stays until something else is shown,
    /// with the support QR code where the board profile names a support address.
    case failed(reason: String)

    public var isProgress: Bool {
        if case .progress = self { return true }
        return false
    }

    /// The line for the control socket.
    public var command: HUDCommand {
        switch self {
        case .progress(let percent, let status):
            let p = Int32(clamping: min(max(percent, 0), 100))
            return .progress(fraction: Fixed16_16(raw: p * 65536 / 100), status: status)
        case .succeeded(let status): return .image(.success, status: status)
        case .failed(let reason): return .image(.error, status: reason, stays: true, support: true)
        }
    }
}

/// Views waiting for the daemon: a progress replaces a progress still at the tail (the daemon then
/// sees at most one per round trip), everything else queues in order, up to `capacity` (the oldest
/// progress goes first when full; an event is never dropped for a progress).
public struct UpdateViewQueue: Sendable {
    public let capacity: Int
    public private(set) var items: [UpdateView] = []

    public init(capacity: Int = 64) { self.capacity = max(capacity, 2) }

    public mutating func push(_ view: UpdateView) {
        if view.isProgress, let last = items.last, last.isProgress {
            items[items.count - 1] = view
            return
        }
        if items.count >= capacity {
            if let i = items.firstIndex(where: \.isProgress) { items.remove(at: i) } else if view.isProgress { return }
        }
        items.append(view)
    }

    public mutating func pop() -> UpdateView? { items.isEmpty ? nil : items.removeFirst() }
    public var isEmpty: Bool { items.isEmpty }
}
