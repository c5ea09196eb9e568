// SPDX-License-Identifier: MIT
// A detached thread, for the clients' background work (the Swift API's sender and event reader)
// without Foundation.
public enum Threads {
    /// Runs `body` on a new detached thread; false when the system would not make one.
    @discardableResult
    public static func detach(_ body: @escaping @Sendable () -> Void) -> Bool { system_detachThread(body) }
}
