// SPDX-License-Identifier: MIT
// `splashhud quit`: end the daemon. For a hand-over (an initramfs's daemon to the real root's),
// one call saves what the HUD shows as a script for the next daemon, quits keeping the frame, and
// returns once the process has ended, in place of a shell's `state`, `quit` and polling loop.
import CommandLineOptions
import HUDClient
import HUDProtocol
import LinuxSystem

extension ClientVerb {
    static let quit = ClientVerb(
        spec: spec("quit", "End the daemon now, restoring the screen (or keeping the frame with --retain).",
                   discussion: """
                       With --save-script, what the HUD shows is written to PATH first, as a script a new daemon starts with \
                       (`splashhudd --script PATH`): the same HUD at once, without a fade-in; a hidden HUD gives a script that \
                       shows nothing. When PATH cannot be written, the daemon is not told to quit (exit 73). With --wait, the \
                       client returns once the daemon's process has ended, so its display, DRM master and VT are free \
                       (exit 75 when it still runs after --timeout).
                       """,
                   options: [.flag("retain", help: "Keep the last frame on the screen."),
                             .option("save-script", "path", help: "First write what the HUD shows to this file, as a script for splashhudd --script."),
                             .flag("wait", help: "Return once the daemon's process has ended (at most --timeout).")]),
        run: { p, connection throws(ClientFailure) in
            let client = try connection.connect()
            if let path = p.value("save-script") {
                let line: String
                do throws(ControlClientError) { line = try client.request("state") ?? "" } catch { throw ClientFailure(error) }
                guard let state = HUDState(line: line) else { throw ClientFailure(.protocolError("unreadable state '\(line)'")) }
                do { try Files.writeAtomically(Array(state.resumeScript.utf8), to: path) } catch {
                    throw ClientFailure("splashhud quit --save-script: \(error); the daemon was not told to quit", status: 73)
                }
            }
            do throws(ControlClientError) { try client.request(p.flag("retain") ? "quit --retain" : "quit") } catch {
                throw ClientFailure(error)
            }
            guard p.flag("wait") else { return }
            do throws(ControlClientError) { try client.waitForServerEnd(timeoutMilliseconds: connection.timeout) } catch {
                guard case .timedOut(let socket, let ms) = error else { throw ClientFailure(error) }
                throw ClientFailure("splashhud: splashhudd at \(socket) answered quit but still runs after \(ms) ms", status: error.exitStatus)
            }
        },
        check: { p throws(UsageError) in
            if p.value("save-script")?.isEmpty == true { throw UsageError("--save-script: a file's path, got nothing") }
        })
}
