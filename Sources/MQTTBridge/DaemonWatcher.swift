// SPDX-License-Identifier: MIT
// The thread that follows the daemon: subscribed to its events on a connection of its own, it
// posts each event and the state after it, and while the HUD is visible reads the state every
// `stateInterval` (the daemon has no state-change event; a visible HUD is drawing frames anyway,
// so the read costs it no extra wake-up, while a hidden one is left asleep until an event).
// A daemon that goes away (restarted, ended) is looked for again with back-off, its state
// published as absent meanwhile.
import HUDClient
import HUDProtocol
import LinuxSystem

final class DaemonWatcher: @unchecked Sendable {
    let socket: String?
    let keys: Bool
    let stateInterval: Interval
    let outbox: Mailbox<Outgoing>
    let clock: BridgeClock
    /// Nothing is ever posted here: the thread waits on it for its back-off, so closing it wakes the thread.
    let stop: Mailbox<Bool>

    init(socket: String?, keys: Bool, stateInterval: Interval, outbox: Mailbox<Outgoing>, clock: BridgeClock) throws(SystemError) {
        self.socket = socket; self.keys = keys; self.stateInterval = stateInterval; self.outbox = outbox; self.clock = clock
        stop = try Mailbox(capacity: 1)
    }

    func start() -> Bool { Threads.detach { [self] in run() } }

    private func run() {
        var backoff = Backoff(base: .milliseconds(100), cap: .seconds(5))
        var absentPosted = false
        while !stop.isClosed {
            do {
                try follow { backoff.reset(); absentPosted = false }
            } catch {
                if !absentPosted {
                    outbox.replaceOrPost(.state(JSONText.state(nil), asked: clock.now), matches: \.isState)
                    absentPosted = true
                }
            }
            _ = stop.take(timeoutMilliseconds: Int32(clamping: backoff.next().nanoseconds / 1_000_000))
        }
    }

    /// One connection's life: returns or throws when it ends.
    private func follow(connected: () -> Void) throws(ControlClientError) {
        let client = try ControlClient(socket: socket, timeoutMilliseconds: 2_000)
        defer { client.close() }
        try client.request(keys ? "subscribe keys" : "subscribe")
        connected()
        var visible = try publishState(client)
        while !stop.isClosed {
            let wait: Int32? = visible ? Int32(clamping: stateInterval.nanoseconds / 1_000_000) : nil
            if let event = try client.nextEvent(timeoutMilliseconds: wait) {
                outbox.post(.event(JSONText.event(event)))
            }
            visible = try publishState(client)
        }
    }

    /// Reads and posts the state; whether the HUD is visible.
    private func publishState(_ client: ControlClient) throws(ControlClientError) -> Bool {
        let asked = clock.now
        guard let line = try client.request("state"), let state = HUDState(line: line) else {
            throw .protocolError("unreadable state reply")
        }
        outbox.replaceOrPost(.state(JSONText.state(state), asked: asked), matches: \.isState)
        return state.visible
    }
}
