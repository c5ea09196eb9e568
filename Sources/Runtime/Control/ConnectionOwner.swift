// SPDX-License-Identifier: MIT
// What a listener's owner (the control server, Plymouth's server) decides for the clients its
// ConnectionHost accepts: one protocol instead of settable closures, so an owner is wired whole
// or not at all (`ConnectionHost.start(owner:)`), and reads as a contract.
import LinuxSystem

protocol ConnectionOwner: AnyObject {
    /// Why `peer` may not connect, nil when it may.
    func refusal(of peer: UnixSocket.Credentials) -> String?
    /// Sets a new client up (its decoder) before its first bytes.
    func accepted(_ c: ControlConnection)
    /// Bytes a client sent. The owner calls the host's `heard` for each complete request in them.
    func received(_ bytes: ArraySlice<UInt8>, from c: ControlConnection)
    /// Whether to read from a client now (false: its requests wait in its socket).
    func wantsInput(_ c: ControlConnection) -> Bool
    /// Whether a client waits on the daemon (subscribed, a `wait`, a prompt): never idle.
    func isWaiting(_ c: ControlConnection) -> Bool
    /// Why a client's unread output is too much, nil when it is not.
    func overflow(_ c: ControlConnection) -> String?
    /// A client is gone (its state can be forgotten).
    func dropped(_ c: ControlConnection)
}

extension ConnectionOwner {
    func refusal(of peer: UnixSocket.Credentials) -> String? { nil }
    func accepted(_ c: ControlConnection) {}
    func wantsInput(_ c: ControlConnection) -> Bool { !c.peerFinished }
}
