// SPDX-License-Identifier: MIT
// The command FIFO's calls into the system layer (LinuxSystem: one funnel, EINTR handled there),
// as results carrying the call's errno; CommandFIFO turns them into errors that name the path.
import LinuxSystem
import SystemPackage

enum RuntimeSyscalls {
    /// Runs `body`, keeping only the errno of a failure.
    private static func result<T>(_ body: () throws(SystemError) -> T) -> Result<T, Errno> {
        do { return .success(try body()) } catch { return .failure(error.errno) }
    }

    typealias FileStatus = LinuxSystem.FileStatus
    typealias FileKind = LinuxSystem.FileStatus.Kind

    /// `lstat(2)`: kind, owner and permissions of what is at `path`, nil when nothing is there.
    static func fileStatus(_ path: String) -> Result<FileStatus?, Errno> {
        result { () throws(SystemError) in try Files.status(atPath: path) }
    }

    /// `fstat(2)` of an open descriptor: what was really opened, whatever the path points at now.
    static func status(_ fd: FileDescriptor) -> Result<FileStatus, Errno> {
        result { () throws(SystemError) in try Files.status(fd, subject: "FIFO") }
    }

    static func effectiveUserID() -> UInt32 { Files.effectiveUserID }

    static func makeFIFO(_ path: String, mode: UInt32) -> Result<Void, Errno> {
        result { () throws(SystemError) in try Files.makeFIFO(path, mode: mode) }
    }

    static func setMode(_ fd: FileDescriptor, mode: UInt32) -> Result<Void, Errno> {
        result { () throws(SystemError) in try Files.setMode(fd, mode, subject: "FIFO") }
    }

    /// `open(2)` non-blocking, read-only or write-only, never following a symlink. A FIFO opened
    /// read-only this way never waits for a writer; write-only fails at once with ENXIO when no
    /// reader has it open (fifo(7)), which is what lets `splashhud send` never block.
    static func openNonBlocking(_ path: String, write: Bool) -> Result<FileDescriptor, Errno> {
        let flags = (write ? OpenFlag.writeOnly : OpenFlag.readOnly) | OpenFlag.nonBlocking | OpenFlag.noFollow | OpenFlag.noControllingTerminal
        return result { () throws(SystemError) in try Files.open(path, flags: flags) }
    }

    /// `read(2)`: the byte count (0 at end of file), nil when nothing is waiting.
    static func read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int?, Errno> {
        result { () throws(SystemError) in try Files.read(fd, into: buffer, subject: "FIFO") }
    }

    static func close(_ fd: FileDescriptor) { Files.close(fd) }

    /// `unlink(2)`; a path already gone is not an error.
    static func unlink(_ path: String) -> Result<Void, Errno> {
        result { () throws(SystemError) in try Files.unlink(path) }
    }
}
