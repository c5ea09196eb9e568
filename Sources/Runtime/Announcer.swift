// SPDX-License-Identifier: MIT
// Every status text the HUD shows, said where a person without the screen can read it, as
// SVProgressHUD announces its status to VoiceOver: in the log (the journal, under systemd) and,
// when configured, on a serial console. A text is announced when it appears with the HUD and when
// it changes while the HUD is up; the hidden HUD is announced once. The console is written without
// blocking: a line that does not fit (a slow or unplugged serial line) is dropped, never waited for.
// The texts are a peer's, so the log's lines go through a rate limiter of their own (20 in 10 s,
// then a count of those held back): a client changing the status every turn cannot flood the
// journal, and a boot's dozen steps are all in it. The console has its own bound: it drops.
import HUD
import LinuxSystem
import Logging
import SystemPackage

public final class Announcer {
    private let logger: Logger
    /// The log's announcements, within their own budget (not the peers' connection lines').
    public let logLimiter: LogRateLimiter
    private weak var runtime: HUDRuntime?
    private let console: FileDescriptor?
    private let consolePath: String?
    private var lastAnnounced: String?
    private var wasVisible = false
    /// Lines dropped because the console was full.
    public private(set) var droppedLines = 0

    /// Announces `runtime`'s status texts at the end of every turn; `consolePath` (e.g. /dev/ttyS0)
    /// also gets them. A console that does not open is logged and left out.
    public init(runtime: HUDRuntime, consolePath: String?, logger: Logger) {
        self.logger = logger
        var fd: FileDescriptor?
        if let consolePath {
            do {
                fd = try Files.open(consolePath, flags: OpenFlag.writeOnly | OpenFlag.nonBlocking | OpenFlag.noControllingTerminal)
            } catch { logger.error("--announce \(consolePath): \(error); announcing in the log only") }
        }
        console = fd
        self.consolePath = consolePath
        let loop = runtime.loop
        self.runtime = runtime
        logLimiter = LogRateLimiter(logger: logger, clock: { [weak runtime] in runtime?.now ?? 0 },
                                    schedule: { loop.schedule(at: $0, $1) })
        logLimiter.perSource = 20
        logLimiter.total = 20
        runtime.atTurnEnd { [unowned self, unowned runtime] in look(at: runtime) }
    }

    deinit {
        // What was held back is counted in the log, while the runtime's clock can still say for how long.
        if runtime != nil { logLimiter.flush() }
        if let console { Files.close(console) }
    }

    /// What the last look saw of the controller (see `HUDController.hasMoved(since:)`).
    private var watch = RestWatch()

    private func look(at runtime: HUDRuntime) {
        // At rest on the generation last looked at: nothing to announce (every turn but a few).
        guard runtime.controller.hasMoved(since: &watch) else { return }
        let visible = runtime.controller.isVisible
        let status = visible ? runtime.controller.status : nil
        defer { wasVisible = visible }
        if visible, let status, status != lastAnnounced || !wasVisible {
            lastAnnounced = status
            announce("HUD: \(status)")
        } else if !visible && wasVisible {
            lastAnnounced = nil
            announce("HUD: hidden")
        }
    }

    private func announce(_ line: String) {
        logLimiter.log(.notice, "announcements", from: "the HUD's status", line)
        guard let console else { return }
        let bytes = Array((line + "\r\n").utf8)
        do {
            let n = try bytes.withUnsafeBytes { try Files.write(console, $0, subject: consolePath ?? "console") }
            if n != bytes.count { droppedLines += 1 }
        } catch {
            droppedLines += 1
        }
    }
}
