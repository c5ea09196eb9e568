// What every client verb shares: where the daemon is and how long to wait for it, and how a
// failure becomes an exit status (sysexits.h, see ControlClientError.exitStatus and the README).
import ArgumentParser
import HUDClient
import HUDProtocol
import LinuxSystem
import SystemPackage

struct ClientOptions: ParsableArguments {
    @Option(help: "The daemon's control socket (default: $SPLASHHUD_SOCKET, else \(ControlProtocol.defaultSocketPath)).")
    var socket: String?

    @Option(help: "How long to wait for the daemon, in milliseconds (it never waits longer when the daemon is absent, stopped or slow).")
    var timeout: Int32 = 500

    func validate() throws {
        guard (1...60_000).contains(timeout) else { throw ValidationError("--timeout must be 1...60000 ms") }
    }

    func connect() throws -> ControlClient {
        do { return try ControlClient(socket: socket, timeoutMilliseconds: timeout) } catch { throw ClientFailure(error) }
    }
}

/// A subcommand that talks to the daemon.
protocol ClientVerb {
    var connection: ClientOptions { get }
}

/// A failed request, printed as one line on standard error, with its sysexits status.
struct ClientFailure: Error, CustomStringConvertible {
    let error: ControlClientError
    init(_ error: ControlClientError) { self.error = error }
    var description: String { "splashhud: \(error)" }
}

extension ParsableCommand {
    /// Runs `body`; a client failure prints its message and exits with its status.
    func reporting(_ body: () throws -> Void) throws {
        do { try body() } catch let failure as ClientFailure {
            printError(failure.description)
            throw ExitCode(failure.error.exitStatus)
        } catch let error as ControlClientError {
            printError("splashhud: \(error)")
            throw ExitCode(error.exitStatus)
        }
    }
}

func printError(_ message: String) {
    var stderr = StandardError()
    print(message, to: &stderr)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        let bytes = Array(string.utf8)
        bytes.withUnsafeBytes { _ = try? Files.write(FileDescriptor(rawValue: 2), $0, subject: "standard error") }
    }
}
