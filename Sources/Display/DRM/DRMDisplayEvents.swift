// SPDX-License-Identifier: MIT
// DRMDisplay's events: page flips completed on the card, calls its worker finished (DisplayWorker),
// flips given up, and the one wait outside a frame loop (waitForFlip, for tools and close).

import LinuxSystem
import CDRM
import SystemPackage

extension DRMDisplay {
    /// The card's descriptor, readable when page-flip events wait, and the worker's, readable
    /// when a call it ran is done (the frame loop watches both).
    public var eventDescriptors: [Int32] { device.map { [$0.fd.rawValue, worker.descriptor] } ?? [] }

    /// Whether `descriptor` is one of `eventDescriptors` (asked at every flip event: builds no array).
    func watches(_ descriptor: Int32) -> Bool {
        guard let device else { return false }
        return descriptor == device.fd.rawValue || descriptor == worker.descriptor
    }

    /// Handles the page-flip events waiting on the card, or the calls the worker finished,
    /// without blocking (the card is open non-blocking): their outputs' other buffers are free again.
    public func handleEvents(on descriptor: Int32) throws(DisplayError) {
        guard let device else { return }
        if descriptor == worker.descriptor {
            absorb(worker.collect())
            try throwDeferredError()
        } else {
            guard device.fd.rawValue == descriptor else { return }
            var context = Self.eventContext()
            try Self.readEvents(device, &context)
        }
        probeVBlanksAfterModesets(device)
    }

    /// Applies what the worker finished: a legacy modeset completes its frame as a flip's event
    /// would (and its failure is the next present's); a dropped output's notes are logged.
    func absorb(_ finished: [DisplayWorker<DRMWorkDone>.Finished]) {
        for f in finished {
            switch f.outcome {
            case .dropped(let notes):
                diagnostics += notes
            case .modeset(let failure, let stamp):
                guard let legacy = strategy as? LegacyCommit, let userData = legacy.modesetDone(f.id) else { continue }
                let state = Self.flipDone(userData, at: stamp)
                if let failure {
                    // Not on screen: the next present to it sets the mode again.
                    state?.needsModeset = true
                    deferredError = masterLoss(failure)
                }
            }
        }
    }

    /// Throws (once) the failure the worker met.
    func throwDeferredError() throws(DisplayError) {
        guard let error = deferredError else { return }
        deferredError = nil
        throw error
    }

    /// Outputs whose modeset's event has come: their CRTCs are on and answer drmWaitVBlank if
    /// they ever will.
    func probeVBlanksAfterModesets(_ device: DRMDevice) {
        for s in states where s.probesVBlankAfterFlip && !s.flipPending {
            s.probesVBlankAfterFlip = false
            s.hasVBlank = DRMOutputFactory.crtcHasVBlank(device.fd, crtcIndex: s.crtcIndex)
        }
    }

    /// drmHandleEvent: reads the events waiting and calls `context`'s handlers. None waiting
    /// (EAGAIN on the non-blocking card) is no error.
    static func readEvents(_ device: DRMDevice, _ context: inout drmEventContext) throws(DisplayError) {
        guard drmHandleEvent(device.fd.rawValue, &context) < 0 else { return }
        let e = currentErrno()
        if e == .resourceTemporarilyUnavailable || e == .interrupted { return }
        throw .ioctl("drmHandleEvent", e, device.path)
    }

    public func isFlipPending(output index: Int) -> Bool {
        states.indices.contains(index) && states[index].flipPending
    }

    /// The loop waited for this flip's event (without blocking) and gives up on it, as
    /// `waitForFlip` would after the flip timeout: the next present sets the mode again.
    public func abandonFlip(output index: Int) {
        guard states.indices.contains(index), states[index].flipPending else { return }
        states[index].giveUpFlip()
        flipTimeouts += 1
        diagnostics.append("\(states[index].output.name): no page-flip event before the frame loop gave up on it; the next present sets the mode again")
    }

    /// What drmHandleEvent calls for a completed flip: the flip's output gets its stamp and its
    /// token back.
    static func eventContext() -> drmEventContext {
        var context = drmEventContext()
        context.version = 2
        context.page_flip_handler = { _, _, seconds, microseconds, data in
            DRMDisplay.flipDone(data, at: Int64(seconds) * 1_000_000_000 + Int64(microseconds) * 1000)
        }
        return context
    }

    /// The flip (or legacy modeset) whose user data is `data` is on screen since `stamp`: its
    /// output gets the stamp and its token back. Returns the output, unless it forgot that flip.
    @discardableResult
    fileprivate static func flipDone(_ data: UnsafeMutableRawPointer?, at stamp: Int64) -> DRMOutputState? {
        guard let data else { return nil }
        let token = Unmanaged<DRMFlipToken>.fromOpaque(data).takeRetainedValue()
        // Only the flip the output waits for completes it (an older, forgotten one does not).
        guard let s = token.state, s.flipToken === token else { return nil }
        s.flipToken = nil
        s.lastFlipNanoseconds = stamp
        return s
    }

    /// Reads DRM events until `state`'s flip has completed. A flip whose event does not come within
    /// the flip timeout (a driver that lost it) is given up: the output is set up again by its
    /// next commit (a modeset, which a lost event cannot stall), noted in `diagnostics`, and the
    /// splash goes on.
    func waitForFlip(_ state: DRMOutputState, device: DRMDevice) throws(DisplayError) {
        let start = Syscalls.monotonicNanoseconds()
        defer { flipWaitNanoseconds += Syscalls.monotonicNanoseconds() - start }
        let deadline = start + Int64(flipTimeout) * 1_000_000
        var context = Self.eventContext()
        while state.flipPending {
            let left = deadline - Syscalls.monotonicNanoseconds()
            if left > 0, !worker.outstanding.isEmpty {
                // A legacy modeset on the worker: its outcome, not a card event, completes it.
                absorb(worker.finish(timeoutMilliseconds: Int32(clamping: left / 1_000_000 + 1)))
                continue
            }
            guard left > 0 else {
                state.giveUpFlip()
                flipTimeouts += 1
                diagnostics.append("\(state.output.name): no page-flip event within \(flipTimeout) ms; the next present sets the mode again")
                return
            }
            if try Syscalls.pollReadable(device.fd, timeoutMilliseconds: Int32(clamping: left / 1_000_000 + 1), device: device.path) {
                try Self.readEvents(device, &context)
            }
        }
        probeVBlanksAfterModesets(device)
    }
}
