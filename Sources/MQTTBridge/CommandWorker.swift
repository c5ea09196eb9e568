// SPDX-License-Identifier: MIT
// The thread that carries the broker's commands to the daemon, one at a time and in arrival
// order (so commands from one publisher apply in order), over its own control connection. It
// blocks where the control socket does (a `wait`, an `ask-password`) without stalling the MQTT
// loop; after each command it reads the state, so the retained state follows at once.
import HUDClient
import HUDProtocol
import LinuxSystem

final class CommandWorker: @unchecked Sendable {
    let socket: String?
    let jobs: Mailbox<Job>
    let outbox: Mailbox<Outgoing>
    let clock: BridgeClock
    /// Only this thread touches the connection.
    private var client: ControlClient?

    /// How long one ordinary request may take, and one that waits on the HUD or its user.
    static let requestTimeoutMilliseconds: Int32 = 5_000
    static let waitingTimeoutMilliseconds: Int32 = 120_000

    init(socket: String?, jobs: Mailbox<Job>, outbox: Mailbox<Outgoing>, clock: BridgeClock) {
        self.socket = socket; self.jobs = jobs; self.outbox = outbox; self.clock = clock
    }

    func start() -> Bool { Threads.detach { [self] in run() } }

    private func run() {
        while true {
            guard let job = jobs.take(timeoutMilliseconds: -1) else {
                if jobs.isClosed { return }
                continue
            }
            switch job {
            case .command(let line, let route): command(line, route)
            case .snapshot(let output, let route, let budget): snapshot(output, route, budget)
            }
        }
    }

    private func connection() throws(ControlClientError) -> ControlClient {
        if let client { return client }
        let c = try ControlClient(socket: socket, timeoutMilliseconds: Self.requestTimeoutMilliseconds)
        client = c
        return c
    }

    /// The reply line for `error`; a broken connection is dropped so the next job reconnects.
    private func failure(_ error: ControlClientError) -> String {
        if case .rejected(let code, let message) = error { return "error \(code) \(message)" }
        client?.close()
        client = nil
        if case .notRunning = error { return ControlReply.error(.failed, "no daemon: \(error)").line }
        return ControlReply.error(.failed, "\(error)").line
    }

    private func command(_ line: String, _ route: ReplyRoute) {
        let verb = line.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        let waits = verb == "wait" || verb == "ask-password"
        let reply: String
        do {
            let data = try connection().request(line, timeoutMilliseconds: waits ? Self.waitingTimeoutMilliseconds : nil)
            reply = ControlReply.ok(data).line
        } catch { reply = failure(error) }
        outbox.post(.reply(route, reply))
        refreshState()
    }

    private func refreshState() {
        guard let c = client else { return }
        let asked = clock.now
        guard let line = try? c.request("state"), let state = HUDState(line: line) else { return }
        outbox.replaceOrPost(.state(JSONText.state(state), asked: asked), matches: \.isState)
    }

    private func snapshot(_ output: String?, _ route: ReplyRoute, _ budget: Int) {
        do {
            let shot = try connection().snapshot(output: output)
            let fitted = try SnapshotFitter.fit(shot.png, budget: budget)
            outbox.post(.snapshot(route, fitted, output: shot.output))
        } catch let e as ControlClientError {
            outbox.post(.reply(route, failure(e)))
        } catch {
            outbox.post(.reply(route, ControlReply.error(.failed, "\(error)").line))
        }
    }
}
