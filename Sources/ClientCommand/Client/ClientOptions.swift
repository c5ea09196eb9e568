// SPDX-License-Identifier: MIT
// What every client verb shares: where the daemon is and how long to wait for it, and how a
// failure becomes an exit status (sysexits.h, see ControlClientError.exitStatus and docs/protocol.md).
import CommandLineOptions
import HUDClient
import HUDProtocol

struct ClientOptions {
    /// The daemon's control socket; nil: $SPLASHHUD_SOCKET, else the default.
    var socket: String?
    /// How long to wait for the daemon, in milliseconds.
    var timeout: Int32 = 500

    /// The default socket is written out, not interpolated: every call builds these, and a
    /// string built at run time costs more than its parse (ClientVerbTests checks the path).
    static let specs: [OptionSpec] = [
        .option("socket", "path", help: "The daemon's control socket (default: $SPLASHHUD_SOCKET, else /run/splashhud/control)."),
        .option("timeout", "ms", help: "How long to wait for the daemon, in milliseconds, 1...60000 (default 500; it never waits longer when the daemon is absent, stopped or slow)."),
    ]

    init() {}

    init(_ p: ParsedOptions) throws(UsageError) {
        socket = p.value("socket")
        if let t = try p.integer("timeout", in: 1...60_000) { timeout = Int32(t) }
    }

    func connect() throws(ClientFailure) -> ControlClient {
        do { return try ControlClient(socket: socket, timeoutMilliseconds: timeout) } catch { throw ClientFailure(error) }
    }
}

/// A failed verb: its message (one line on standard error) and its sysexits status.
struct ClientFailure: Error, CustomStringConvertible {
    let message: String
    let status: Int32

    init(_ error: ControlClientError) { self.init("splashhud: \(error)", status: error.exitStatus) }
    init(_ message: String, status: Int32) { self.message = message; self.status = status }
    var description: String { message }
}
