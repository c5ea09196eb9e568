// SPDX-License-Identifier: MIT
// systemd's readiness protocol (sd_notify(3)) without libsystemd: one datagram of `KEY=VALUE` lines
// to the socket named in $NOTIFY_SOCKET ("@name" is abstract). The daemon says READY=1 once its
// first frame is on the screen, so `Type=notify` units ordered after it start with the splash up
// (or, with --ready serving, once it takes requests), STATUS= with what the HUD says, and
// STOPPING=1 when it ends. Without $NOTIFY_SOCKET nothing is sent.
import LinuxSystem
import Logging

public final class ServiceNotifier {
    /// Where the notifications go; nil: not started by systemd (or not as Type=notify).
    public let socketPath: String?
    private let logger: Logger
    public private(set) var sentReady = false

    public init(socketPath: String? = Environment.value("NOTIFY_SOCKET"), logger: Logger) {
        self.socketPath = socketPath.flatMap { $0.isEmpty ? nil : $0 }
        self.logger = logger
    }

    /// Sends `fields` (each `KEY=VALUE`); failures are logged, never thrown: the HUD runs anyway.
    public func notify(_ fields: [String]) {
        guard let socketPath else { return }
        do { try UnixSocket.sendDatagram(Array(fields.joined(separator: "\n").utf8), to: socketPath) } catch {
            logger.warning("sd_notify \(fields.first ?? ""): \(error)")
        }
    }

    /// READY=1 now, with the daemon's pid: it serves (`--ready serving`), its first frame to come.
    public func sendReady(status: String) { ready(status: status, what: "serving") }

    /// READY=1 once `runtime` has presented its first frame (checked at the end of every turn),
    /// with the daemon's pid; at once when the runtime has presented one already.
    public func sendReady(when runtime: HUDRuntime, status: String) {
        // With no output yet (waiting for the display's driver) there is no frame to wait for
        // (`isReady`): the daemon answers its clients, which is what the boot needs to go on.
        runtime.whenReady { [weak self, unowned runtime] in
            self?.ready(status: status, what: runtime.outputs.isEmpty ? "serving, no screen yet" : "first frame on screen")
        }
    }

    /// READY=1 once, with the daemon's pid, and `what` in the log.
    private func ready(status: String, what: String) {
        guard !sentReady else { return }
        sentReady = true
        notify(["READY=1", "MAINPID=\(Files.processID)", "STATUS=\(status)"])
        logger.info("\(what)\(socketPath == nil ? "" : "; told systemd READY=1")")
    }
}
