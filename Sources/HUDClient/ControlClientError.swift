// SPDX-License-Identifier: MIT
// Why a client's request did not get its `ok`, and the exit status each means (sysexits.h), so a
// shell script can tell a refused request from a daemon that is not running or not answering.

/// Why a request did not get its `ok`, and the exit status each means (sysexits.h).
///
/// A shell script can tell a refused request (65) from a daemon that is not running (69, also when
/// another user holds the abstract fallback), not answering (75) or not to be used by this user (77).
public enum ControlClientError: Error, Equatable, CustomStringConvertible {
    /// Nothing listens at the socket (no file, a stale socket, no abstract name).
    case notRunning(socket: String, detail: String)
    /// No reply within the timeout: the daemon is stopped, hung or far too busy.
    case timedOut(socket: String, milliseconds: Int32)
    /// The daemon answered `error CODE MESSAGE`.
    case rejected(code: String, message: String)
    /// The socket exists but we may not use it.
    case permissionDenied(socket: String)
    /// The abstract fallback is held by a process of `uid`: not root, not us, not the owner of
    /// the socket path's directory. Nothing was sent to it.
    case untrustedServer(socket: String, uid: UInt32)
    /// The daemon closed the connection or sent something that is not the protocol.
    case protocolError(String)
    /// A system call failed on our side.
    case io(String)

    /// The daemon closed the connection (a subscriber's normal end, when the daemon quits).
    public static let daemonClosed = ControlClientError.protocolError("the daemon closed the connection")

    /// What happened, in a sentence that names the socket.
    public var description: String {
        switch self {
        case .notRunning(let socket, let detail): return "no splashhudd answers at \(socket) (\(detail))"
        case .timedOut(let socket, let ms): return "splashhudd at \(socket) did not answer within \(ms) ms"
        case .rejected(let code, let message): return "refused (\(code)): \(message)"
        case .permissionDenied(let socket): return "not allowed to use \(socket) (the socket is for root and its group)"
        case .untrustedServer(let socket, let uid):
            return "refused the server at \(socket): it runs as uid \(uid), not root, the socket directory's owner or us (any user may bind an abstract name first); nothing was sent"
        case .protocolError(let detail): return "protocol error: \(detail)"
        case .io(let detail): return detail
        }
    }

    /// The process exit status for this failure, as `splashhud` exits with it.
    ///
    /// sysexits.h: EX_DATAERR 65, EX_UNAVAILABLE 69, EX_IOERR 74, EX_TEMPFAIL 75, EX_PROTOCOL 76,
    /// EX_NOPERM 77.
    public var exitStatus: Int32 {
        switch self {
        case .rejected(let code, _): return code == "denied" ? 77 : 65  // ControlErrorCode.denied: EX_NOPERM
        case .notRunning, .untrustedServer: return 69  // no splashhudd we trust answers
        case .io: return 74
        case .timedOut: return 75
        case .protocolError: return 76
        case .permissionDenied: return 77
        }
    }
}
