// SPDX-License-Identifier: MIT
// How many connections a listener keeps, for whom, and for how long one may sit silent. Root and
// the daemon's own user have a pool of their own rather than a right to evict: nobody else can
// take a slot of theirs, so there is never a connection to choose for closing, and a peer that is
// waiting on the daemon (a passphrase prompt, a `wait`) is never cut off to make room. Everyone
// else shares a second pool, at most `perUID` each, so one user cannot take it all either.
public struct ConnectionLimits: Equatable, Sendable {
    /// Connections root and the daemon's user may hold at once (their own pool).
    public var privileged = 64
    /// Connections everyone else may hold at once, in all.
    public var unprivileged = 64
    /// Connections one uid other than root's and ours may hold at once.
    public var perUID = 8
    /// How long a connection may go without a complete request, and without being sent anything,
    /// before it is closed (ns), unless it waits on the daemon (subscribed, a `wait`, a prompt, a
    /// keystroke watch, Plymouth's pause-progress bracket).
    public var idleNanoseconds: Int64 = 30_000_000_000
    /// The same for a peer that may not use the socket at all (not root, not our user, on
    /// Plymouth's socket): it is answered NAK and closed at its first request, and one that sends
    /// nothing goes after this (ns). nil: `idleNanoseconds`.
    public var untrustedIdleNanoseconds: Int64?

    public init() {}
}
