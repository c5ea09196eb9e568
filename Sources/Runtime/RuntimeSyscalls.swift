// The only file in the Runtime module that calls the operating system (style.md §2): lstat,
// fstat, geteuid, mkfifo, fchmod, open, read, write, poll, close, unlink, signal(SIGPIPE) and
// timerfd. Every call retries
// EINTR once and reports failure as the call's `Errno` (swift-system); callers turn that into an
// error naming the path (CommandFIFOError), so no caller reads errno itself. EBADF and EFAULT mean
// our own bug (a closed fd, a bad pointer) and trap.

#if canImport(Glibc)
import Glibc
#endif
import CLinuxShim  // <sys/timerfd.h>
import SystemPackage

enum RuntimeSyscalls {
    /// Runs `call` (a C call returning -1 and setting errno on failure); on EINTR tries once more.
    static func retryingOnce<T: BinaryInteger>(_ call: () -> T) -> Result<T, Errno> {
        var result = call()
        if result == -1 && errno == EINTR { result = call() }
        if result != -1 { return .success(result) }
        let e = Errno(rawValue: errno)
        precondition(e != .badFileDescriptor && e != .badAddress, "runtime syscall misuse: \(e)")
        return .failure(e)
    }

    // MARK: command FIFO

    /// What lies at a path, as far as the FIFO cares.
    enum FileKind: Equatable {
        case fifo, regular, directory, other
    }

    /// `lstat(2)`: the kind of file at `path` (a symlink is `.other`: never followed), nil when
    /// nothing is there.
    static func fileKind(_ path: String) -> Result<FileKind?, Errno> {
        fileStatus(path).map { $0?.kind }
    }

    /// `lstat(2)`: kind, owner and permissions of what is at `path` (a symlink itself, never its
    /// target), nil when nothing is there.
    static func fileStatus(_ path: String) -> Result<FileStatus?, Errno> {
        var st = stat()
        switch retryingOnce({ lstat(path, &st) }) {
        case .failure(.noSuchFileOrDirectory): return .success(nil)
        case .failure(let e): return .failure(e)
        case .success: return .success(FileStatus(st))
        }
    }

    private static func kind(_ mode: mode_t) -> FileKind {
        switch mode & S_IFMT {
        case S_IFIFO: return .fifo
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Who may use an open file, for the FIFO's trust check.
    struct FileStatus: Equatable {
        var kind: FileKind
        /// The owner's uid.
        var owner: UInt32
        /// The permission bits (mode & 0o7777).
        var permissions: UInt32

        init(_ st: stat) {
            kind = RuntimeSyscalls.kind(st.st_mode)
            owner = UInt32(st.st_uid)
            permissions = UInt32(st.st_mode) & 0o7777
        }
    }

    /// `fstat(2)` of an open descriptor: what was really opened, whatever the path points at now.
    static func status(_ fd: FileDescriptor) -> Result<FileStatus, Errno> {
        var st = stat()
        return retryingOnce { fstat(fd.rawValue, &st) }.map { _ in FileStatus(st) }
    }

    /// `geteuid(2)`: the user our files are created as (never fails).
    static func effectiveUserID() -> UInt32 {
        UInt32(geteuid())
    }

    /// `mkfifo(3)` with `mode` (the umask may narrow it; `setMode` sets it exactly afterwards).
    static func makeFIFO(_ path: String, mode: UInt32) -> Result<Void, Errno> {
        retryingOnce { mkfifo(path, mode_t(mode)) }.map { _ in () }
    }

    /// `fchmod(2)`: the exact permission bits, whatever the umask was.
    static func setMode(_ fd: FileDescriptor, mode: UInt32) -> Result<Void, Errno> {
        retryingOnce { fchmod(fd.rawValue, mode_t(mode)) }.map { _ in () }
    }

    /// `open(2)` close-on-exec and non-blocking, read-only or write-only. A FIFO opened read-only
    /// this way never waits for a writer; write-only fails at once with ENXIO when no reader has it
    /// open (fifo(7)), which is what lets `splashhud send` never block. A symlink is never followed
    /// (ELOOP): one swapped in after `fileKind` looked must not lead elsewhere.
    static func openNonBlocking(_ path: String, write: Bool) -> Result<FileDescriptor, Errno> {
        let flags = (write ? O_WRONLY : O_RDONLY) | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY
        return retryingOnce { open(path, flags) }.map { FileDescriptor(rawValue: $0) }
    }

    /// `read(2)` into `buffer`: the byte count (0 at end of file), or nil when nothing is waiting
    /// (EAGAIN on a non-blocking descriptor).
    static func read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int?, Errno> {
        switch retryingOnce({ Glibc.read(fd.rawValue, buffer.baseAddress, buffer.count) }) {
        case .success(let n): return .success(n)
        case .failure(.resourceTemporarilyUnavailable): return .success(nil)
        case .failure(let e): return .failure(e)
        }
    }

    /// `write(2)` of `bytes`: the count written, or nil when the pipe is full (EAGAIN).
    static func write(_ fd: FileDescriptor, _ bytes: ArraySlice<UInt8>) -> Result<Int?, Errno> {
        let r = bytes.withUnsafeBytes { b in retryingOnce { Glibc.write(fd.rawValue, b.baseAddress, b.count) } }
        switch r {
        case .success(let n): return .success(n)
        case .failure(.resourceTemporarilyUnavailable): return .success(nil)
        case .failure(let e): return .failure(e)
        }
    }

    /// `poll(2)` for room to write on `fd`, at most `timeoutMilliseconds`: true when writable (or
    /// in error, which the next write reports), false on timeout.
    static func waitWritable(_ fd: FileDescriptor, timeoutMilliseconds: Int32) -> Result<Bool, Errno> {
        var p = pollfd(fd: fd.rawValue, events: Int16(POLLOUT), revents: 0)
        return retryingOnce { poll(&p, 1, timeoutMilliseconds) }.map { $0 > 0 }
    }

    /// `close(2)`, never retried (on Linux the descriptor is gone even after EINTR).
    static func close(_ fd: FileDescriptor) {
        _ = try? fd.close()
    }

    /// `unlink(2)`; a path already gone is not an error.
    static func unlink(_ path: String) -> Result<Void, Errno> {
        switch retryingOnce({ Glibc.unlink(path) }) {
        case .success, .failure(.noSuchFileOrDirectory): return .success(())
        case .failure(let e): return .failure(e)
        }
    }

    /// Ignores SIGPIPE, so writing to a FIFO whose reader went away fails with EPIPE (a clear
    /// error) instead of killing the writer.
    static func ignoreBrokenPipe() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    // MARK: service timer

    /// A CLOCK_MONOTONIC timerfd, non-blocking and close-on-exec.
    static func timerCreate() -> Result<FileDescriptor, Errno> {
        retryingOnce { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK)) }.map { FileDescriptor(rawValue: $0) }
    }

    /// Arms `fd` to expire once at the absolute CLOCK_MONOTONIC instant `deadline` (ns); nil disarms.
    /// A deadline already past expires at once.
    static func timerArm(_ fd: FileDescriptor, at deadline: Int64?) -> Result<Void, Errno> {
        var spec = itimerspec()
        if let deadline {
            let d = max(deadline, 1)  // 0 would disarm
            spec.it_value.tv_sec = Int(d / 1_000_000_000)
            spec.it_value.tv_nsec = Int(d % 1_000_000_000)
        }
        return retryingOnce { timerfd_settime(fd.rawValue, CInt(TFD_TIMER_ABSTIME), &spec, nil) }.map { _ in () }
    }

    /// Reads the expiry count of a timerfd (0 when it has not expired).
    static func timerRead(_ fd: FileDescriptor) -> Result<UInt64, Errno> {
        var count: UInt64 = 0
        let r = withUnsafeMutableBytes(of: &count) { b in retryingOnce { Glibc.read(fd.rawValue, b.baseAddress, 8) } }
        switch r {
        case .success: return .success(count)
        case .failure(.resourceTemporarilyUnavailable): return .success(0)
        case .failure(let e): return .failure(e)
        }
    }
}
