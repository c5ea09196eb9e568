// `splashhud send LINE...`: what boot scripts and systemd units run to talk to a running splash.
// It checks every line first (nothing is sent if one is wrong), then writes them to the splash's
// FIFO without ever blocking: no splash running is an error at once (exit 1), so a boot never
// waits on a splash that is not there.
import ArgumentParser
import HUDProtocol
import Runtime

struct Send: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send command lines to a running `splashhud show` through its FIFO (never blocks).",
        discussion: """
            Each LINE is one command: `show "Starting"`, `progress 0.4 "Installing 3 of 7"`, `success`,
            psplash's `MSG text`, `PROGRESS 40`, `QUIT`, fbsplash's `40` and `exit`, or `quit [--retain]`.
            Exit status 1 at once when no splash reads the FIFO.
            """)

    @Option(help: "The splash's FIFO.")
    var fifo: String = CommandFIFO.defaultPath

    @Option(help: "How long a full FIFO may keep us waiting, in milliseconds.")
    var timeout: Int32 = 2000

    @Argument(help: "Command lines, one per argument.")
    var lines: [String]

    func validate() throws {
        guard !lines.isEmpty else { throw ValidationError("nothing to send: give at least one command line") }
        guard (0...60_000).contains(timeout) else { throw ValidationError("--timeout must be 0...60000 ms") }
        for (i, line) in lines.enumerated() {
            do { _ = try CommandParser.parseRequest(line) } catch {
                throw ValidationError("line \(i + 1) '\(line)': \(error)")
            }
        }
    }

    func run() throws {
        do { try CommandFIFO.send(lines, to: fifo, timeoutMilliseconds: timeout) } catch {
            throw SendFailure(message: "splashhud send: \(error)")
        }
    }
}

/// A failure the user reads as one line (exit status 1).
struct SendFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
