// SPDX-License-Identifier: MIT
// How the 22.02 client ends, modelled rather than improvised: its handlers ask the event loop to
// exit with a code (the last request wins), and the loop stops only after the handler returns, so
// a request a handler queues after asking to exit is never sent (ask-for-password's `a` after a
// NO_ANSWER). A hang-up runs the pending request's failure handler, then prints "unexpectedly
// disconnected" and exits 2 (0 under --wait).
import CommandLineOptions
import HUDProtocol
import LinuxSystem
import SystemPackage

final class PlymouthSession {
    let connection: PlymouthConnection?
    let waiting: Bool
    private var exitCode: Int32?

    init(connection: PlymouthConnection?, waiting: Bool) {
        self.connection = connection
        self.waiting = waiting
    }

    /// The event loop's exit request: remembered, taken when the current handler is done.
    func requestExit(_ code: Int32) { exitCode = code }

    /// Ends the handler: exits as requested, or after a hang-up as on_disconnect does.
    func settle() {
        if connection?.hungUp == true { disconnected() }
        if let exitCode { CommandLineTool.exit(exitCode) }
    }

    /// The handler is done: exit if it asked to, else keep waiting as the real client's loop does.
    func finish() -> Never {
        settle()
        idle()
    }

    /// Sends a request (after settling what the last handler asked for) and returns its reply;
    /// `.failed` when there is no daemon or no reply.
    func ask(_ command: UInt8, _ argument: [UInt8]? = nil, also: UInt8? = nil, deadline: Int64 = .max) -> PlymouthConnection.Outcome {
        settle()
        guard let connection else { return .failed }
        let first = PlymouthWire.request(command: command, argument: argument)
        let requests = also.map { [first, PlymouthWire.request(command: $0, argument: nil)] } ?? [first]
        return connection.exchange(requests, deadline: deadline)
    }

    /// Nothing to send: wait for the daemon to go (the real client waits the same way).
    func idle() -> Never {
        guard let connection else {
            // The real client would block for ever with nothing to watch; at boot that is worse.
            CommandLineTool.exit(1)
        }
        connection.waitForHangUp()
        disconnected()
    }

    private func disconnected() -> Never {
        if waiting { CommandLineTool.exit(0) }
        CommandLineTool.printError("error: unexpectedly disconnected from boot status daemon")
        CommandLineTool.exit(2)
    }

    /// Writes `bytes` to standard output, unbuffered (a passphrase goes verbatim, no newline).
    static func writeOutput(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        try? Files.writeAll(FileDescriptor(rawValue: 1), bytes, subject: "standard output")
    }

    /// An answer as the real client sees it: a C string, so cut at the first NUL.
    static func cString(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.prefix { $0 != 0 }) }
}
