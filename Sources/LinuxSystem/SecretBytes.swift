// SPDX-License-Identifier: MIT
// Where a passphrase lives while the daemon holds it: pages of its own, locked into memory so they
// never reach swap, left out of core dumps, and zeroed with explicit_bzero when cleared and when
// freed. Never printed: its description is the number of characters only.

/// A secret's bytes, at most `capacity` of them (more are refused, not stored elsewhere).
public final class SecretBytes: CustomStringConvertible {
    public let capacity: Int
    private let base: UnsafeMutableRawPointer
    private let mapped: Int
    public private(set) var count = 0
    /// False when mlock failed (RLIMIT_MEMLOCK): the bytes are still zeroed and kept out of dumps.
    public let isLocked: Bool

    /// Pages for `capacity` bytes, or nil when none can be mapped.
    public init?(capacity: Int = 1024) {
        let page = 4096
        mapped = max(page, (capacity + page - 1) / page * page)
        guard let p = system_mapSecret(mapped) else { return nil }
        base = p
        self.capacity = capacity
        isLocked = system_mlock(p, mapped) == 0
    }

    deinit { system_unmapSecret(base, mapped) }

    public var isEmpty: Bool { count == 0 }

    /// Appends `bytes` whole, or nothing when they would pass `capacity`; says which.
    @discardableResult
    public func append<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        guard count + bytes.count <= capacity else { return false }
        for b in bytes {
            base.storeBytes(of: b, toByteOffset: count, as: UInt8.self)
            count += 1
        }
        return true
    }

    /// Removes the last UTF-8 character (its continuation bytes and its lead).
    public func removeLastCharacter() {
        while count > 0 {
            count -= 1
            let b = base.load(fromByteOffset: count, as: UInt8.self)
            base.storeBytes(of: 0, toByteOffset: count, as: UInt8.self)
            if b & 0xC0 != 0x80 { return }
        }
    }

    /// Zeroes every byte and empties it.
    public func removeAll() {
        system_explicit_bzero(base, mapped)
        count = 0
    }

    /// Characters typed: UTF-8 lead bytes (a stray continuation byte counts as none).
    public var characterCount: Int {
        var n = 0
        for i in 0..<count where base.load(fromByteOffset: i, as: UInt8.self) & 0xC0 != 0x80 { n += 1 }
        return n
    }

    /// The bytes, for as long as `body` runs: copy them only into another `SecretBytes` or a socket.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Replaces the bytes with what `read` writes into the pages (returning how many).
    public func fill(_ read: (UnsafeMutableRawBufferPointer) throws(SystemError) -> Int) throws(SystemError) {
        removeAll()
        count = try read(UnsafeMutableRawBufferPointer(start: base, count: capacity))
    }

    /// A copy in pages of its own.
    public func copy() -> SecretBytes? {
        guard let c = SecretBytes(capacity: capacity) else { return nil }
        withBytes { _ = c.append($0) }
        return c
    }

    public var description: String { "<secret, \(characterCount) characters>" }
}

/// Core dumps of this process: off while a secret is in memory (PR_SET_DUMPABLE 0; this also keeps
/// other processes of the same user from ptrace-attaching and reading /proc/PID/mem).
/// Holders count: the process is dumpable again only when the last one lets go (a process with
/// two prompt desks, as the test runner has, must not restore it while the other holds a secret).
public enum CoreDumps {
    public static var areAllowed: Bool { system_isDumpable() }

    public static func allow(_ on: Bool) { _ = system_setDumpable(on) }

    private static let lock = Lock()
    nonisolated(unsafe) private static var holders = 0
    nonisolated(unsafe) private static var allowedBefore = true

    /// Off until every `hold` has its `release`; then as it was before the first.
    public static func hold() {
        lock.withLock {
            if holders == 0 { allowedBefore = areAllowed; allow(false) }
            holders += 1
        }
    }

    public static func release() {
        lock.withLock {
            precondition(holders > 0, "CoreDumps.release without a hold")
            holders -= 1
            if holders == 0 { allow(allowedBefore) }
        }
    }

    /// How many hold them off now.
    public static var holderCount: Int { lock.withLock { holders } }
}
