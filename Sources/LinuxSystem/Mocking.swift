// SPDX-License-Identifier: MIT
// Debug builds only: a test installs a driver on its thread and every trampoline on that thread
// reports its call name to it first; a queued failure for a name makes that call return -1 with
// the errno (as swift-system's `MockingDriver`). Swift Testing runs tests on many threads at once,
// so the driver is per thread.
#if ENABLE_MOCKING
public final class MockingDriver: @unchecked Sendable {
    /// The calls made on this thread while the driver was installed, by C name ("read", "ioctl").
    public internal(set) var trace: [String] = []
    private var failures: [String: [CInt]] = [:]

    public init() {}

    /// The next `count` calls named `name` fail with `errno` (each queued failure is used once).
    public func fail(_ name: String, with errno: CInt, count: Int = 1) {
        failures[name, default: []] += Array(repeating: errno, count: count)
    }

    func takeFailure(for name: String) -> CInt? {
        guard var queued = failures[name], !queued.isEmpty else { return nil }
        let e = queued.removeFirst()
        failures[name] = queued
        return e
    }

    /// Runs `body` with `driver` installed on this thread.
    public static func with<T>(_ driver: MockingDriver, _ body: () throws -> T) rethrows -> T {
        let previous = current
        current = driver
        defer { current = previous }
        return try body()
    }

    private static let lock = Lock()
    /// Guarded by `lock`.
    nonisolated(unsafe) private static var drivers: [UInt: MockingDriver] = [:]

    /// The driver installed on the calling thread, if any.
    static var current: MockingDriver? {
        get { lock.withLock { drivers[system_threadID()] } }
        set { lock.withLock { drivers[system_threadID()] = newValue } }
    }
}
#endif
