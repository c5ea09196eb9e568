// SPDX-License-Identifier: MIT
// A lock for the little state threads share (the event loop's inbox, the mocking drivers): a
// pthread mutex, which ThreadSanitizer understands; Swift's `Mutex` is a bare futex on Linux that
// it cannot see, so every access through it is reported as a race.

public final class Lock: @unchecked Sendable {
    private let mutex = system_mutex_create()

    public init() {}

    deinit { system_mutex_destroy(mutex) }

    /// Runs `body` holding the lock.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        system_mutex_lock(mutex)
        defer { system_mutex_unlock(mutex) }
        return try body()
    }
}
