// SPDX-License-Identifier: MIT
// Files, FIFOs and directories: what the display backends, the command FIFO and asset loading
// open, read and write. Every call goes through its trampoline and `retrying` (EINTR), and fails
// with a `SystemError` naming the path.
import SystemPackage

/// What lies at a path, or what a descriptor was opened on.
public struct FileStatus: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case fifo, regular, directory, characterDevice, blockDevice, socket, symlink, other }
    public var kind: Kind
    /// The owner's uid.
    public var owner: UInt32
    /// The permission bits (mode & 0o7777).
    public var permissions: UInt32
    public var size: Int64

    static let none = FileStatus(kind: .other, owner: 0, permissions: 0, size: 0)
}

/// open(2) flags (close-on-exec is always added).
public enum OpenFlag {
    public static let readOnly = O_RDONLY_FLAG, writeOnly = O_WRONLY_FLAG, readWrite = O_RDWR_FLAG
    public static let nonBlocking = O_NONBLOCK_FLAG, noControllingTerminal = O_NOCTTY_FLAG, noFollow = O_NOFOLLOW_FLAG
    public static let create = O_CREAT_FLAG, truncate = O_TRUNC_FLAG
}

public enum Files {
    /// `open(2)`, close-on-exec, with the flags given (O_RDWR, O_NONBLOCK…) and `mode` for O_CREAT.
    public static func open(_ path: String, flags: CInt, mode: UInt32 = 0) throws(SystemError) -> FileDescriptor {
        FileDescriptor(rawValue: try retrying { system_open(path, flags | O_CLOEXEC_FLAG, mode) }.get("open", path))
    }

    /// `ftruncate(2)`: the file becomes `length` bytes long (bytes added read as zero).
    public static func resize(_ fd: FileDescriptor, to length: Int, subject: String) throws(SystemError) {
        do { try fd.resize(to: Int64(length)) } catch { throw SystemError("ftruncate", error as? Errno ?? .ioError, subject) }
    }

    /// `close(2)`, never retried: on Linux the descriptor is gone even after EINTR, and retrying
    /// could close one another thread just opened. Errors are ignored for the same reason.
    public static func close(_ fd: FileDescriptor) {
        _ = system_close(fd.rawValue)
    }

    /// `read(2)` into `buffer`: the byte count (0 at end of file), nil when nothing is waiting on
    /// a non-blocking descriptor (EAGAIN).
    public static func read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, subject: String) throws(SystemError) -> Int? {
        switch retrying({ system_read(fd.rawValue, buffer.baseAddress, buffer.count) }) {
        case .success(let n): return n
        case .failure(.resourceTemporarilyUnavailable): return nil
        case .failure(let e): throw SystemError("read", e, subject)
        }
    }

    /// `write(2)` of `bytes`: the count written, nil when a non-blocking descriptor is full (EAGAIN).
    public static func write(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer, subject: String) throws(SystemError) -> Int? {
        switch retrying({ system_write(fd.rawValue, bytes.baseAddress, bytes.count) }) {
        case .success(let n): return n
        case .failure(.resourceTemporarilyUnavailable): return nil
        case .failure(let e): throw SystemError("write", e, subject)
        }
    }

    /// Writes all of `bytes`, waiting for room on a full non-blocking descriptor.
    public static func writeAll(_ fd: FileDescriptor, _ bytes: [UInt8], subject: String) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let r = bytes.withUnsafeBytes { b in Result { () throws(SystemError) in try write(fd, UnsafeRawBufferPointer(rebasing: b[done...]), subject: subject) } }
            if let n = try r.get() { done += n } else { _ = try Poll.wait(fd, for: .write, timeoutMilliseconds: -1, subject: subject) }
        }
    }

    /// Writes `bytes` to a temporary file beside `path` (mode `mode`), then renames it over `path`,
    /// so a reader never sees half a file; `durable` also fsyncs it first (state that must
    /// survive a power cut). On failure the temporary file is removed and `path` is untouched.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o644, durable: Bool = false) throws(SystemError) {
        let temporary = path + ".tmp-\(processID)"
        let fd = try open(temporary, flags: O_WRONLY_FLAG | O_CREAT_FLAG | O_TRUNC_FLAG, mode: mode)
        do {
            defer { close(fd) }
            try writeAll(fd, bytes, subject: temporary)
            if durable { try fsync(fd, subject: temporary) }
        } catch {
            try? unlink(temporary)
            throw error
        }
        do { try rename(temporary, to: path) } catch {
            try? unlink(temporary)
            throw error
        }
    }

    /// `fsync(2)`; EINVAL and EROFS (nothing to flush: a device) are not errors but return false
    /// (a device without deferred I/O, such as vesafb), so a caller that syncs at every frame can
    /// stop asking.
    @discardableResult
    public static func fsync(_ fd: FileDescriptor, subject: String) throws(SystemError) -> Bool {
        switch retrying({ system_fsync(fd.rawValue) }) {
        case .success: return true
        case .failure(.invalidArgument), .failure(.readOnlyFileSystem): return false
        case .failure(let e): throw SystemError("fsync", e, subject)
        }
    }

    /// `lstat(2)`: what is at `path` (a symlink itself, never its target), nil when nothing is.
    public static func status(atPath path: String) throws(SystemError) -> FileStatus? {
        var st = FileStatus.none
        switch retrying({ system_lstat(path, &st) }) {
        case .failure(.noSuchFileOrDirectory): return nil
        case .failure(let e): throw SystemError("lstat", e, path)
        case .success: return st
        }
    }

    /// `fstat(2)`: what an open descriptor is, whatever its path points at now.
    public static func status(_ fd: FileDescriptor, subject: String) throws(SystemError) -> FileStatus {
        var st = FileStatus.none
        _ = try retrying { system_fstat(fd.rawValue, &st) }.get("fstat", subject)
        return st
    }

    /// `mkfifo(3)` with `mode` (the umask may narrow it; `setMode` sets it exactly).
    public static func makeFIFO(_ path: String, mode: UInt32) throws(SystemError) {
        _ = try retrying { system_mkfifo(path, mode) }.get("mkfifo", path)
    }

    /// `fchmod(2)`: exact permission bits, whatever the umask was.
    public static func setMode(_ fd: FileDescriptor, _ mode: UInt32, subject: String) throws(SystemError) {
        _ = try retrying { system_fchmod(fd.rawValue, mode) }.get("fchmod", subject)
    }

    /// `chmod(2)` of `path` (for what has no descriptor to fchmod, such as a bound socket).
    public static func setMode(atPath path: String, _ mode: UInt32) throws(SystemError) {
        _ = try retrying { system_chmod(path, mode) }.get("chmod", path)
    }

    /// `chown(2)` of `path`'s group, its owner kept.
    public static func setGroup(atPath path: String, _ gid: UInt32) throws(SystemError) {
        _ = try retrying { system_chgrp(path, gid) }.get("chown", path)
    }

    /// `mkdir(2)` with `mode` (narrowed by the umask); an existing directory is not an error.
    public static func makeDirectory(_ path: String, mode: UInt32) throws(SystemError) {
        switch retrying({ system_mkdir(path, mode) }) {
        case .success: return
        case .failure(.fileExists):
            if (try status(atPath: path))?.kind == .directory { return }
            throw SystemError("mkdir", .fileExists, path)
        case .failure(let e): throw SystemError("mkdir", e, path)
        }
    }

    /// `mkdir -p`: `path` and every missing directory above it.
    public static func makeDirectories(_ path: String, mode: UInt32 = 0o755) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            try makeDirectory(prefix, mode: mode)
            prefix += "/"
        }
    }

    /// The id of the group called `name` (getgrnam_r; a static binary reads /etc/group itself), nil
    /// when there is none.
    public static func groupID(named name: String) throws(SystemError) -> UInt32? {
        if system_isStatic { return AccountFiles.groupID(named: name, group: try Users.accountFile("/etc/group")) }
        let (gid, error) = system_groupID(name)
        guard error == 0 else { throw SystemError("getgrnam_r", Errno(rawValue: error), name) }
        return gid
    }

    /// `unlink(2)`; a path already gone is not an error.
    public static func unlink(_ path: String) throws(SystemError) {
        switch retrying({ system_unlink(path) }) {
        case .success, .failure(.noSuchFileOrDirectory): return
        case .failure(let e): throw SystemError("unlink", e, path)
        }
    }

    /// `rename(2)`.
    public static func rename(_ from: String, to: String) throws(SystemError) {
        _ = try retrying { system_rename(from, to) }.get("rename", to)
    }

    /// `geteuid(2)`: the user our files are created as.
    public static var effectiveUserID: UInt32 { system_geteuid() }

    /// `getpid(2)`.
    public static var processID: Int32 { system_getpid() }

    /// Ignores SIGPIPE, so writing to a pipe whose reader went away fails with EPIPE (a clear
    /// error) instead of killing the writer.
    public static func ignoreBrokenPipe() { system_ignoreSIGPIPE() }

    /// The names in directory `path` (`opendir(3)`/`readdir(3)`), without "." and "..", sorted.
    public static func listDirectory(_ path: String) throws(SystemError) -> [String] {
        guard let names = system_listdir(path) else { throw SystemError("opendir", currentErrno(), path) }
        return names.filter { $0 != "." && $0 != ".." }.sorted()
    }

    /// The first `limit` bytes of a small file such as /proc/cmdline or a sysfs attribute.
    public static func readFile(_ path: String, limit: Int = 65536) throws(SystemError) -> [UInt8] {
        let fd = try open(path, flags: O_RDONLY_FLAG)
        defer { close(fd) }
        return try readUpTo(fd, limit: limit, subject: path)
    }

    /// Reads into uninitialized memory (read(2) writes what it returns): zero-filling the limit
    /// first cost a million instructions for each 1 MiB-limited read (a script, a profile).
    private static func readUpTo(_ fd: FileDescriptor, limit: Int, subject: String) throws(SystemError) -> [UInt8] {
        var failure: SystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: limit) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            var count = 0
            while count < limit {
                do throws(SystemError) {
                    guard let n = try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[count...]), subject: subject), n > 0 else { break }
                    count += n
                } catch {
                    failure = error
                    break
                }
            }
            initialized = count
        }
        if let failure { throw failure }
        // A copy of what was read, so the result does not keep the limit's capacity.
        return Array(bytes[...])
    }
}
