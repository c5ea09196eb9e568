// SPDX-License-Identifier: MIT
// DRMDisplay.refreshOutputs(): connector hotplug on one card. The decision is pure
// (DRMOutputPlan, unit-tested); carrying it out needs the card.

import LinuxSystem
import CDRM
import SystemPackage

/// What to do with a card's outputs after its connectors were re-read.
public struct DRMOutputPlan: Equatable, Sendable {
    /// An output in use: its connector, CRTC index and mode.
    public struct Current: Equatable, Sendable {
        public var connectorID: UInt32
        public var crtcIndex: Int
        public var mode: DRMModeCandidate
        public init(connectorID: UInt32, crtcIndex: Int, mode: DRMModeCandidate) {
            self.connectorID = connectorID; self.crtcIndex = crtcIndex; self.mode = mode
        }
    }

    /// A connector as just read.
    public struct Connector: Equatable, Sendable {
        public var id: UInt32
        public var isConnected: Bool
        public var modes: [DRMModeCandidate]
        public var possibleCRTCs: UInt32
        public var currentCRTCIndex: Int?
        public init(id: UInt32, isConnected: Bool, modes: [DRMModeCandidate], possibleCRTCs: UInt32, currentCRTCIndex: Int? = nil) {
            self.id = id; self.isConnected = isConnected; self.modes = modes
            self.possibleCRTCs = possibleCRTCs; self.currentCRTCIndex = currentCRTCIndex
        }
    }

    /// Why a current output goes.
    public enum DropReason: Equatable, Sendable {
        /// Disconnected, or the connector no longer exists (DP MST).
        case disconnected
        /// Still connected but its mode is no longer offered (another monitor on the same port):
        /// it is set up again among `add`.
        case modeGone
    }

    /// Indices into `current` to drop, with why.
    public var drop: [(index: Int, reason: DropReason)]
    /// Indices into `connectors` to set up, each with its CRTC index (nil: no CRTC left).
    public var add: [(connector: Int, crtcIndex: Int?)]

    public var isEmpty: Bool { drop.isEmpty && add.isEmpty }

    public static func == (a: DRMOutputPlan, b: DRMOutputPlan) -> Bool {
        a.drop.map(\.index) == b.drop.map(\.index) && a.drop.map(\.reason) == b.drop.map(\.reason)
            && a.add.map(\.connector) == b.add.map(\.connector) && a.add.map(\.crtcIndex) == b.add.map(\.crtcIndex)
    }

    public init(drop: [(index: Int, reason: DropReason)], add: [(connector: Int, crtcIndex: Int?)]) {
        self.drop = drop; self.add = add
    }

    /// Kept outputs keep their CRTC; dropped ones free theirs; connected connectors without an
    /// output (new, or re-created after `modeGone`) get a free CRTC their encoders can drive.
    /// A connected connector without modes is not usable (nothing to set) and is left alone.
    public static func plan(current: [Current], connectors: [Connector], crtcCount: Int) -> DRMOutputPlan {
        var drop: [(index: Int, reason: DropReason)] = []
        var taken = Set<Int>()
        var keptConnectors = Set<UInt32>()
        for (i, c) in current.enumerated() {
            guard let now = connectors.first(where: { $0.id == c.connectorID }), now.isConnected, !now.modes.isEmpty else {
                drop.append((i, .disconnected))
                continue
            }
            guard now.modes.contains(where: { sameTiming($0, c.mode) }) else {
                drop.append((i, .modeGone))
                continue
            }
            taken.insert(c.crtcIndex)
            keptConnectors.insert(c.connectorID)
        }
        let wanted = connectors.indices.filter {
            connectors[$0].isConnected && !connectors[$0].modes.isEmpty && !keptConnectors.contains(connectors[$0].id)
        }
        let crtcs = DRMCRTCAssignment.assign(
            wanted.map { (connectors[$0].possibleCRTCs, connectors[$0].currentCRTCIndex) }, crtcCount: crtcCount, taken: taken)
        return DRMOutputPlan(drop: drop, add: Array(zip(wanted, crtcs)).map { (connector: $0.0, crtcIndex: $0.1) })
    }

    /// The same mode apart from the preferred mark (which may move between modes).
    static func sameTiming(_ a: DRMModeCandidate, _ b: DRMModeCandidate) -> Bool {
        a.width == b.width && a.height == b.height && a.refreshMillihertz == b.refreshMillihertz && a.isInterlaced == b.isInterlaced
    }
}

extension DRMDisplay {
    /// Re-reads the card's connectors (after a uevent: connector status or modes changed) and
    /// carries out `DRMOutputPlan`: returns whether `outputs` changed. New outputs show from their
    /// next present. Outputs that cannot be set up are skipped with a diagnostic, not thrown: the
    /// others keep running.
    public func refreshOutputs() throws(DisplayError) -> Bool {
        guard let device else { throw .closed }
        try device.rereadConnectors()
        let connectors = device.connectors
        let current = states.map { DRMOutputPlan.Current(connectorID: $0.target.connectorID, crtcIndex: $0.crtcIndex, mode: $0.modeCandidate) }
        let plan = DRMOutputPlan.plan(
            current: current,
            connectors: connectors.map {
                DRMOutputPlan.Connector(id: $0.id, isConnected: $0.isConnected && factory.options.allows(connector: $0.name), modes: $0.modes.map(\.candidate),
                                        possibleCRTCs: $0.possibleCRTCs, currentCRTCIndex: $0.currentCRTCIndex)
            },
            crtcCount: device.crtcIDs.count)
        guard !plan.isEmpty else { return false }
        var kept = states
        for (index, reason) in plan.drop.reversed() {
            let s = states[index]
            dropOutput(s, device: device)
            diagnostics.append("\(s.output.name): \(reason == .disconnected ? "disconnected, dropped" : "mode \(s.output.mode.name) gone, set up again")")
            kept.remove(at: index)
        }
        var notes: [String] = []
        for (connectorIndex, crtcIndex) in plan.add {
            let connector = connectors[connectorIndex]
            guard let crtcIndex else {
                notes.append("\(connector.name): connected, but no free CRTC; not used")
                continue
            }
            do {
                let atomic = strategy is AtomicCommit
                let (state, objects) = try factory.make(connector: connector, crtcIndex: crtcIndex, wantAtomic: atomic, notes: &notes)
                if atomic, case .unavailable(let why)? = objects {
                    notes.append("\(connector.name): \(why); not used (this card commits atomically)")
                    continue
                }
                kept.append(state)
                notes.append("\(connector.name): connected, added on CRTC \(device.crtcIDs[crtcIndex])")
            } catch {
                notes.append("\(connector.name): connected, but cannot be set up: \(error)")
            }
        }
        diagnostics += notes
        let before = states.map(\.output)
        states = kept
        return before != outputs
    }

    /// Lets an output go: its flip forgotten (its event finds no state), its CRTC turned off (it no
    /// longer drives anything that is plugged in) and its buffers freed on the worker, as the
    /// kernel makes drmModeSetCrtc wait for the flip still in flight. Errors are noted, not thrown
    /// (the connector is gone).
    func dropOutput(_ s: DRMOutputState, device: DRMDevice) {
        s.forgetFlip()
        let fd = device.fd, crtc = s.target.crtcID, name = s.output.name
        let buffers = DroppedBuffers(buffers: s.buffers)
        worker.run {
            var notes: [String] = []
            if drmModeSetCrtc(fd.rawValue, crtc, 0, 0, 0, nil, 0, nil) != 0 {
                notes.append("\(name): turning CRTC \(crtc) off failed: \(currentErrno())")
            }
            for b in buffers.buffers { b.destroy() }
            return .dropped(notes)
        }
    }
}

/// A dropped output's buffers, handed to the worker: nothing on the loop touches them again.
private struct DroppedBuffers: @unchecked Sendable {
    let buffers: [DRMDumbBuffer]
}
