// SPDX-License-Identifier: MIT
// Mapping scanout memory: an fbdev framebuffer or a DRM dumb buffer, shared and read-write.
import CLinuxShim
import SystemPackage

public enum Memory {
    /// `mmap(2)` of `length` bytes of `fd` at `offset`, shared and read-write.
    public static func map(_ fd: FileDescriptor, length: Int, offset: UInt64 = 0, subject: String) throws(SystemError) -> UnsafeMutableRawPointer {
        while true {
            if let p = system_mmap(fd.rawValue, length, Int64(bitPattern: offset)) { return p }
            let e = currentErrno()
            if e != .interrupted { throw SystemError("mmap", e, subject) }
        }
    }

    /// `munmap(2)`. Failing means a wrong address or length: our bug.
    public static func unmap(_ address: UnsafeMutableRawPointer, length: Int) {
        let r = system_munmap(address, length)
        precondition(r == 0, "munmap of \(length) bytes failed: \(currentErrno())")
    }

    /// The size of a page of memory (4 KiB on x86-64; 4, 16 or 64 KiB on arm64 kernels).
    public static let pageSize = system_pageSize()

    /// Writes the byte at `address` back to itself, a store the compiler keeps (a plain
    /// `p[0] = p[0]` it may drop): a page of a mapping with deferred I/O counts as written again.
    public static func rewriteByte(at address: UnsafeMutableRawPointer) {
        CLinuxShim_rewrite_byte(address.assumingMemoryBound(to: UInt8.self))
    }
}

extension Memory {
    /// `free(3)` of memory a C library allocated for us (libdrm's drmGetFormatName).
    public static func release(_ pointer: UnsafeMutableRawPointer?) { system_free(pointer) }
}
