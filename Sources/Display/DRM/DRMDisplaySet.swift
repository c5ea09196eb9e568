// SPDX-License-Identifier: MIT
// Every modesetting card at once (Plymouth mirrors on all heads of all cards), with cards and
// connectors coming and going. Under QEMU the only hotplug there is is PCI
// hotplug of a whole display device; on a PC the commonest is simpledrm's card0 going away when
// the real driver (i915, amdgpu) registers card1.
//
//   open      every /dev/dri/cardN the selection allows (paths, drivers); a card that cannot
//             modeset or has no connected connector is skipped with a diagnostic
//   outputs   the cards' outputs in card order, named like their sysfs connectors ("card1-Virtual-1")
//             so two cards' "Virtual-1" stay apart; the name is the output's identity for callers
//   hotplug   a NETLINK_KOBJECT_UEVENT socket (UEventMonitor) is `hotplugDescriptor`;
//             refreshOutputs() drains it: card add -> open it; card remove -> drop its outputs
//             (its descriptor is dead: no restore, no ioctl); connector change -> that card's
//             DRMDisplay.refreshOutputs(); a card not open yet (none connected at add) is retried
//             on its later events; a socket overflow re-reads everything
//   ENODEV    a present that finds its card unplugged marks the card dead and returns; its outputs
//             stay in `outputs` (indices stay valid) until the next refreshOutputs drops them
//
// `outputs` changes only inside refreshOutputs, so a caller's indices are valid between calls.
// Without a uevent socket (EPERM in a container) the set works with the cards found at open.

import Raster
import SystemPackage

/// How to open a DRMDisplaySet.
public struct DRMDisplaySetOptions: Sendable {
    /// Options for every card (`devicePath` is ignored: see `devicePaths`).
    public var display: DRMDisplayOptions
    /// Only these card nodes ("/dev/dri/card1"); nil: every card.
    public var devicePaths: [String]?
    /// Only cards whose kernel driver is one of these ("bochs-drm", "virtio_gpu"; '-' and '_' are
    /// the same); nil: any driver.
    public var drivers: [String]?
    /// false: no uevent socket, the cards found at open are all there will be.
    public var watchHotplug: Bool
    /// Where card nodes live (tests may point elsewhere).
    public var directory: String
    /// No card yet is not an error when hotplug is followed: the set starts with no output and
    /// shows on the first card that appears (early boot, before the display's driver loads).
    public var waitForCards = false

    public init(display: DRMDisplayOptions = DRMDisplayOptions(), devicePaths: [String]? = nil, drivers: [String]? = nil,
                watchHotplug: Bool = true, directory: String = "/dev/dri") {
        self.display = display; self.devicePaths = devicePaths; self.drivers = drivers
        self.watchHotplug = watchHotplug; self.directory = directory
    }

    /// Whether the selection allows the card at `path` (before opening it).
    public func allows(path: String) -> Bool {
        devicePaths.map { $0.contains(path) } ?? true
    }

    /// Whether the selection allows a card driven by `driver`.
    public func allows(driver: String) -> Bool {
        func norm(_ s: String) -> String { String(s.lowercased().map { $0 == "-" ? "_" : $0 }) }
        return drivers.map { $0.map(norm).contains(norm(driver)) } ?? true
    }
}

/// A `Display` over every selected modesetting card, following hotplug.
public final class DRMDisplaySet: Display {
    public private(set) var outputs: [DisplayOutput] = []
    /// The open cards, in card-number order.
    public private(set) var cards: [DRMDisplay] = []
    /// What was skipped, added, dropped, one readable line each (cards' own notes included).
    public private(set) var diagnostics = DiagnosticLog()
    public let options: DRMDisplaySetOptions
    /// The DRM events the last refreshOutputs drained (for logs and timing).
    public private(set) var lastRefreshEvents: [DRMHotplugEvent] = []

    private var monitor: UEventMonitor?
    private var ueventObservers: [(UEventMonitor.Batch) -> Void] = []
    /// outputs[i] is cards[route[i].card].outputs[route[i].output].
    private var route: [(card: Int, output: Int)] = []
    /// Cards whose present met ENODEV: dropped at the next refreshOutputs.
    private var deadCards = Set<String>()
    /// A card found unplugged. Asked several times a frame: the set is empty nearly always, and a
    /// lookup would hash the card's path each time.
    private func isDead(_ card: DRMDisplay) -> Bool { !deadCards.isEmpty && deadCards.contains(card.devicePath) }
    private var closed = false

    /// Opens every selected card that can show something. Throws when none can (the last card's
    /// error, or `.unsupported` listing why each was skipped).
    public init(options: DRMDisplaySetOptions = DRMDisplaySetOptions()) throws(DisplayError) {
        self.options = options
        if options.watchHotplug {
            do { monitor = try UEventMonitor() } catch {
                diagnostics.append("no hotplug: \(error); the cards found now are used as they are")
            }
        }
        // The socket first: a card appearing while we open the others is not missed.
        for path in cardPaths() { _ = openCard(path) }
        if cards.isEmpty && options.waitForCards && monitor != nil {
            diagnostics.append("no card yet: waiting for one to appear")
        } else if cards.isEmpty {
            let asked = options.devicePaths.map { " (asked for \($0.joined(separator: ", ")))" } ?? ""
            let missing = options.devicePaths?.filter { !cardPaths().contains($0) } ?? []
            let why = Array(diagnostics) + (missing.isEmpty ? [] : ["\(missing.joined(separator: ", ")): no such card node"])
            throw .unsupported(options.directory, "no card to show on\(asked): " + (why.isEmpty ? "no card nodes" : why.joined(separator: "; ")))
        }
        rebuildOutputs()
    }

    deinit { close(.restore) }

    public var hotplugDescriptor: Int32? { monitor?.descriptor }

    public var frameIntervalNanoseconds: Int64 { outputs.first?.mode.frameIntervalNanoseconds ?? 16_666_667 }

    /// Whether some card lost DRM master to another process (its presents retry taking it back).
    public var isMasterLost: Bool { cards.contains { $0.isMasterLost } }

    /// The card node and connector name behind output `index`.
    public func source(ofOutput index: Int) -> (devicePath: String, connector: String) {
        let r = route[index]
        return (cards[r.card].devicePath, cards[r.card].outputs[r.output].name)
    }

    /// Presents one frame on every output (all must take this frame size).
    public func present(_ frame: ComposedFrame, damage: [IntRect]) throws(DisplayError) -> PresentTiming {
        var timing = PresentTiming.timer
        for i in outputs.indices { timing = try present(frame, damage: damage, output: i) }
        return timing
    }

    /// Waits until every live card's committed frames are on screen (see DRMDisplay's).
    public func waitForPendingFlips() throws(DisplayError) {
        guard !closed else { throw .closed }
        for card in cards where !isDead(card) {
            do throws(DisplayError) { try card.waitForPendingFlips() } catch {
                guard DRMDisplaySet.isUnplugged(error) else { throw error }
                markDead(card, because: error)
            }
        }
    }

    /// Presents a frame laid out for output `index` on its card. A card found unplugged (ENODEV)
    /// is marked dead and `.timer` returned: the frame loop goes on and the next refreshOutputs
    /// drops the card's outputs.
    public func present(_ frame: ComposedFrame, damage: [IntRect], output index: Int) throws(DisplayError) -> PresentTiming {
        guard !closed else { throw .closed }
        let r = route[index]
        let card = cards[r.card]
        if isDead(card) { return .timer }
        do throws(DisplayError) {
            return try card.present(frame, damage: damage, output: r.output)
        } catch {
            guard DRMDisplaySet.isUnplugged(error) else { throw error }
            markDead(card, because: error)
            return .timer
        }
    }

    /// Every live card's descriptor (page-flip events).
    public var eventDescriptors: [Int32] {
        cards.filter { !isDead($0) }.flatMap(\.eventDescriptors)
    }

    /// Handles the flip events of the card behind `descriptor`; an unplugged card is marked dead.
    public func handleEvents(on descriptor: Int32) throws(DisplayError) {
        guard !closed, let card = cards.first(where: { $0.watches(descriptor) }), !isDead(card) else { return }
        do throws(DisplayError) { try card.handleEvents(on: descriptor) } catch {
            guard DRMDisplaySet.isUnplugged(error) else { throw error }
            markDead(card, because: error)
        }
    }

    public func isFlipPending(output index: Int) -> Bool {
        guard !closed, route.indices.contains(index) else { return false }
        let r = route[index]
        return !isDead(cards[r.card]) && cards[r.card].isFlipPending(output: r.output)
    }

    public func abandonFlip(output index: Int) {
        guard !closed, route.indices.contains(index) else { return }
        let r = route[index]
        cards[r.card].abandonFlip(output: r.output)
    }

    /// Drains the uevents and applies them (see the header); true when `outputs` changed.
    public func refreshOutputs() throws(DisplayError) -> Bool {
        guard !closed else { throw .closed }
        var changed = false
        var events: [DRMHotplugEvent] = []
        if let monitor {
            let batch = try monitor.drain()
            for observer in ueventObservers { observer(batch) }
            events = batch.events.compactMap(DRMHotplugEvent.classify)
            if batch.overflowed {
                diagnostics.append("uevent socket overflowed: re-reading every card")
                changed = rescanAll() || changed
            }
        }
        lastRefreshEvents = events
        var refreshed = Set<String>()
        for event in events {
            let path = event.path
            let card = cards.first { $0.devicePath == path }
            switch event {
            case .cardAdded:
                refreshed.remove(path)
                if card == nil { changed = openCard(path) || changed }
            case .cardRemoved:
                refreshed.remove(path)
                if let card { dropCard(card, reason: "removed"); changed = true }
            case .connectorsChanged:
                guard !refreshed.contains(path) else { continue }
                refreshed.insert(path)
                if let card { changed = refresh(card) || changed } else { changed = openCard(path) || changed }
            }
        }
        for path in deadCards {
            if let card = cards.first(where: { $0.devicePath == path }) { dropCard(card, reason: "unplugged (ENODEV)"); changed = true }
        }
        deadCards.removeAll()
        if changed { rebuildOutputs() }
        return changed
    }

    public func shareUEvents(with observer: @escaping (UEventMonitor.Batch) -> Void) -> Bool {
        guard monitor != nil else { return false }
        ueventObservers.append(observer)
        return true
    }

    /// Gives up DRM master on every card (VT switch away); presents take it back.
    public var fbdevEmulationPaths: [String] { cards.compactMap(\.fbdevEmulationPath) }

    /// Drops master on every live card (a VT switch needs all of them), then throws the first
    /// failure, if any.
    public func releaseMaster() throws(DisplayError) {
        var first: DisplayError?
        for card in cards where !isDead(card) {
            do { try card.releaseMaster() } catch { first = first ?? error }
        }
        if let first { throw first }
    }

    /// Another program's picture on any live card.
    public func othersDrawn() -> Bool? {
        let answers = cards.filter { !isDead($0) }.compactMap { $0.othersDrawn() }
        return answers.isEmpty ? nil : answers.contains(true)
    }

    /// Closes every card (restore or retain); dead cards are only let go.
    public func close(_ how: CloseBehaviour) {
        guard !closed else { return }
        closed = true
        for card in cards {
            if isDead(card) { card.abandonUnpluggedCard() } else { card.close(how) }
        }
        monitor = nil
    }

    // MARK: cards

    /// The card nodes in `options.directory`, by card number.
    private func cardPaths() -> [String] {
        let names = (try? Syscalls.listDirectory(options.directory)) ?? []
        return names.filter { DRMHotplugEvent.isCardName(Substring($0)) }
            .sorted { Int($0.dropFirst(4))! < Int($1.dropFirst(4))! }
            .map { "\(options.directory)/\($0)" }
    }

    /// Opens the card at `path` if the selection allows it and it can show something; true when added.
    private func openCard(_ path: String) -> Bool {
        guard options.allows(path: path) else { return false }
        let device: DRMDevice
        do {
            device = try DRMDevice(path: path, wantAtomic: options.display.allowAtomic)
        } catch {
            // A node already gone again (events of a removed card) is not worth a line.
            if case .syscall("open", .noSuchFileOrDirectory, _) = error { return false }
            diagnostics.append("\(path): skipped: \(error)")
            return false
        }
        guard options.allows(driver: device.driverName) else {
            diagnostics.append("\(path): skipped: driver \(device.driverName) is not among \(options.drivers ?? [])")
            return false
        }
        let card: DRMDisplay
        do {
            card = try DRMDisplay(device: device, options: options.display)
        } catch {
            diagnostics.append("\(path) (\(device.driverName)): skipped: \(error)")
            return false
        }
        diagnostics += card.diagnostics.map { "\(path): \($0)" }
        diagnostics.append("\(path) (\(card.driverName), \(card.commitStrategyName)): \(card.outputs.map(\.name).joined(separator: ", "))")
        cards.append(card)
        cards.sort { DRMDisplaySet.cardNumber($0.devicePath) < DRMDisplaySet.cardNumber($1.devicePath) }
        return true
    }

    private func refresh(_ card: DRMDisplay) -> Bool {
        let seen = card.diagnostics.total
        do {
            let changed = try card.refreshOutputs()
            diagnostics += card.diagnostics.added(since: seen).map { "\(card.devicePath): \($0)" }
            return changed
        } catch {
            if DRMDisplaySet.isUnplugged(error) {
                // Its node may already belong to a new device (removed and re-added between reads).
                dropCard(card, reason: "unplugged (ENODEV)")
                _ = openCard(card.devicePath)
                return true
            }
            diagnostics.append("\(card.devicePath): re-reading connectors failed: \(error)")
            return false
        }
    }

    private func dropCard(_ card: DRMDisplay, reason: String) {
        card.abandonUnpluggedCard()
        cards.removeAll { $0 === card }
        deadCards.remove(card.devicePath)
        diagnostics.append("\(card.devicePath): \(reason), its outputs dropped")
    }

    private func markDead(_ card: DRMDisplay, because error: DisplayError) {
        deadCards.insert(card.devicePath)
        diagnostics.append("\(card.devicePath): \(error); dropped at the next refresh")
    }

    /// After lost events: every open card re-read (or dropped when its node is gone), every other
    /// card node tried.
    private func rescanAll() -> Bool {
        var changed = false
        let present = Set(cardPaths())
        for card in cards {
            if present.contains(card.devicePath) { changed = refresh(card) || changed } else { dropCard(card, reason: "gone"); changed = true }
        }
        for path in present where !cards.contains(where: { $0.devicePath == path }) { changed = openCard(path) || changed }
        return changed
    }

    private func rebuildOutputs() {
        route = []
        outputs = []
        for (c, card) in cards.enumerated() {
            let card = card.devicePath.split(separator: "/").last.map(String.init) ?? card.devicePath
            for (o, var output) in cards[c].outputs.enumerated() {
                output.name = "\(card)-\(output.name)"
                outputs.append(output)
                route.append((c, o))
            }
        }
    }

    private static func cardNumber(_ path: String) -> Int {
        Int(path.split(separator: "/").last?.dropFirst(4) ?? "") ?? Int.max
    }

    /// Whether `error` says the card is gone: ENODEV (swift-system's `operationNotSupportedByDevice`)
    /// from any libdrm call or syscall, as drm_dev_enter fails after drm_dev_unplug.
    static func isUnplugged(_ error: DisplayError) -> Bool {
        switch error {
        case .ioctl(_, let e, _), .syscall(_, let e, _), .masterLost(_, let e, _): return e == .operationNotSupportedByDevice  // ENODEV
        default: return false
        }
    }
}
