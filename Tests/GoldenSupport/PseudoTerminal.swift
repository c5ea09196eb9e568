// SPDX-License-Identifier: MIT
// A pseudo-terminal standing in for the VT in tests: the test types on `master`, the daemon (or
// the runtime) reads `path` in raw mode as it reads a VT.
#if canImport(Glibc)
import Glibc
#endif

public final class PseudoTerminal: Sendable {
    public let master: Int32
    public let path: String

    public struct Failure: Error {}

    /// /dev/ptmx, unlocked, and its slave's number (Glibc's Swift module leaves posix_openpt and
    /// ptsname out; these are their ioctls, _IOW('T', 0x31, int) and _IOR('T', 0x30, unsigned int)
    /// on the asm-generic ioctl layout of x86, arm and arm64).
    public init() throws {
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: CInt = 0, number: CUnsignedInt = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else { throw Failure() }
        path = "/dev/pts/\(number)"
    }

    deinit { close(master) }

    public func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    public func type(_ text: String) { type(Array(text.utf8)) }
}
