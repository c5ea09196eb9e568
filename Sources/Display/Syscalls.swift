// The only file in the Display module that calls the operating system directly (style.md §2):
// open, close, read, write, ioctl, mmap, munmap, fsync, poll, readdir, timerfd/eventfd, pipe,
// sigaction, raise, the monotonic clock, and socket/bind/recvfrom for uevents. (libdrm's own calls, in DRM/, are the one other
// layer; Assets reads font and image files through ImageFile.swift.)
// Every call goes through `retryingOnce`, which retries EINTR once (a signal during a display
// ioctl is normal: SIGTERM/SIGCHLD while waiting for vsync) and turns failure into a DisplayError
// carrying the call, its errno and the device, so no caller formats errno itself. EBADF and
// EFAULT mean our own bug (a closed fd, a bad pointer) and trap.

#if canImport(Glibc)
import Glibc
#endif
import CLinuxShim  // <sys/timerfd.h>, <sys/eventfd.h>
import SystemPackage

enum Syscalls {
    /// Runs `call` (a C call returning -1 and setting errno on failure); on EINTR tries once more.
    /// Returns the result or the errno of the last try.
    static func retryingOnce(_ call: () -> CInt) -> Result<CInt, Errno> {
        var result = call()
        if result == -1 && errno == EINTR { result = call() }
        if result != -1 { return .success(result) }
        let e = Errno(rawValue: errno)
        precondition(e != .badFileDescriptor && e != .badAddress, "display syscall misuse: \(e)")
        return .failure(e)
    }

    /// Opens `path` read-write, close-on-exec (swift-system `FileDescriptor.open`, C `open(2)`).
    static func open(_ path: String) throws(DisplayError) -> FileDescriptor {
        func attempt() -> Result<FileDescriptor, Errno> {
            do {
                return .success(try FileDescriptor.open(
                    FilePath(path), .readWrite, options: [.closeOnExec], retryOnInterrupt: false))
            } catch let e as Errno { return .failure(e) } catch { fatalError("FileDescriptor.open threw \(error)") }
        }
        var result = attempt()
        if case .failure(.interrupted) = result { result = attempt() }
        switch result {
        case .success(let fd): return fd
        case .failure(let e): throw .syscall("open", e, path)
        }
    }

    /// Closes `fd` (C `close(2)`). Never retried: on Linux the descriptor is gone even after EINTR,
    /// and retrying could close a descriptor another thread just opened. Errors are ignored for the
    /// same reason (nothing useful can follow a failed close of a device node).
    static func close(_ fd: FileDescriptor) {
        _ = try? fd.close()
    }

    /// `ioctl(fd, request, arg)` with a pointer argument; `name` is the request's C name.
    static func ioctl(
        _ fd: FileDescriptor, _ request: UInt, _ name: String, device: String, _ arg: UnsafeMutableRawPointer
    ) throws(DisplayError) {
        if case .failure(let e) = retryingOnce({ Glibc.ioctl(fd.rawValue, request, arg) }) {
            throw .ioctl(name, e, device)
        }
    }

    /// `ioctl(fd, request, value)` with an integer argument (FBIOBLANK, KDSETMODE).
    static func ioctl(
        _ fd: FileDescriptor, _ request: UInt, _ name: String, device: String, value: CInt
    ) throws(DisplayError) {
        if case .failure(let e) = retryingOnce({ Glibc.ioctl(fd.rawValue, request, value) }) {
            throw .ioctl(name, e, device)
        }
    }

    /// `fsync(2)` on a device: for fbdev this runs deferred I/O now (DRM's fbdev emulation copies
    /// written pages to the real scanout buffer up to 50 ms later otherwise). EINVAL means the
    /// device has nothing to flush and is not an error.
    static func fsync(_ fd: FileDescriptor, device: String) throws(DisplayError) {
        switch retryingOnce({ Glibc.fsync(fd.rawValue) }) {
        case .success, .failure(.invalidArgument), .failure(.readOnlyFileSystem): return
        case .failure(let e): throw .syscall("fsync", e, device)
        }
    }

    /// Maps `length` bytes of `fd` from offset 0, shared and read-write (C `mmap(2)`): scanout memory.
    static func mmap(_ fd: FileDescriptor, length: Int, device: String) throws(DisplayError) -> UnsafeMutableRawPointer {
        let failed = UnsafeMutableRawPointer(bitPattern: -1)
        var p = Glibc.mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd.rawValue, 0)
        if p == failed && errno == EINTR { p = Glibc.mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd.rawValue, 0) }
        guard let p, p != failed else { throw .syscall("mmap", Errno(rawValue: errno), device) }
        return p
    }

    /// Maps `length` bytes of `fd` at `offset`, shared and read-write (C `mmap(2)`): a DRM dumb
    /// buffer, whose fake offset DRM_IOCTL_MODE_MAP_DUMB returned.
    static func mmap(_ fd: FileDescriptor, length: Int, offset: UInt64, device: String) throws(DisplayError) -> UnsafeMutableRawPointer {
        let failed = UnsafeMutableRawPointer(bitPattern: -1)
        let off = off_t(Int64(bitPattern: offset))
        var p = Glibc.mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd.rawValue, off)
        if p == failed && errno == EINTR { p = Glibc.mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd.rawValue, off) }
        guard let p, p != failed else { throw .syscall("mmap", Errno(rawValue: errno), device) }
        return p
    }

    /// Waits up to `timeoutMilliseconds` for `fd` to become readable (C `poll(2)`, POLLIN): a DRM
    /// event (page flip done) is ready. Returns false on timeout; EINTR counts as a timeout (the
    /// caller polls again or gives up).
    static func pollReadable(_ fd: FileDescriptor, timeoutMilliseconds: Int32, device: String) throws(DisplayError) -> Bool {
        var pfd = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        let r = Glibc.poll(&pfd, 1, timeoutMilliseconds)
        if r < 0 {
            if errno == EINTR { return false }
            throw .syscall("poll", Errno(rawValue: errno), device)
        }
        return r > 0 && (pfd.revents & Int16(POLLIN)) != 0
    }

    /// Unmaps what `mmap` returned (C `munmap(2)`). Failing means a wrong address or length: our bug.
    static func munmap(_ address: UnsafeMutableRawPointer, length: Int) {
        let r = Glibc.munmap(address, length)
        precondition(r == 0, "munmap of \(length) bytes failed: \(Errno(rawValue: errno))")
    }

    /// The first `limit` bytes of a small read-only file such as /proc/cmdline (C `open(2)` read-only
    /// and `read(2)`; EINTR retried once each).
    static func readFile(_ path: String, limit: Int = 65536) throws(DisplayError) -> [UInt8] {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec], retryOnInterrupt: true)
        } catch let e as Errno { throw .syscall("open", e, path) } catch { fatalError("FileDescriptor.open threw \(error)") }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let n: Int
            do {
                n = try bytes.withUnsafeMutableBytes { try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...]), retryOnInterrupt: true) }
            } catch let e as Errno { throw .syscall("read", e, path) } catch { fatalError("FileDescriptor.read threw \(error)") }
            if n == 0 { break }
            count += n
        }
        return Array(bytes[..<count])
    }

    /// The names in directory `path` (C `opendir(3)`/`readdir(3)`), without "." and "..", sorted;
    /// what `splashhud probe` uses to find /dev/dri/* and /dev/fb* nodes.
    static func listDirectory(_ path: String) throws(DisplayError) -> [String] {
        guard let dir = opendir(path) else { throw .syscall("opendir", Errno(rawValue: errno), path) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// CLOCK_MONOTONIC in nanoseconds (`clock_gettime(2)`), the time base of vblank timestamps.
    static func monotonicNanoseconds() -> Int64 {
        var ts = timespec()
        let r = clock_gettime(CLOCK_MONOTONIC, &ts)
        precondition(r == 0, "clock_gettime(CLOCK_MONOTONIC) failed")
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    // MARK: frame pacer: timerfd, eventfd and poll on several descriptors

    /// A CLOCK_MONOTONIC timerfd, non-blocking and close-on-exec (C `timerfd_create(2)`): the frame
    /// pacer's timer, armed at absolute instants so a late wake-up never drifts the frame grid.
    static func timerfdCreate() throws(DisplayError) -> FileDescriptor {
        switch retryingOnce({ timerfd_create(CLOCK_MONOTONIC, CInt(TFD_CLOEXEC) | CInt(TFD_NONBLOCK)) }) {
        case .success(let fd): return FileDescriptor(rawValue: fd)
        case .failure(let e): throw .syscall("timerfd_create", e, "timerfd")
        }
    }

    /// Arms `fd` to expire once at `deadline` (CLOCK_MONOTONIC ns, absolute), or disarms it when
    /// nil (C `timerfd_settime(2)` with TFD_TIMER_ABSTIME). A deadline in the past expires at once.
    static func timerfdArm(_ fd: FileDescriptor, at deadline: Int64?) throws(DisplayError) {
        var spec = itimerspec()
        if let deadline {
            let t = max(deadline, 1)  // an all-zero it_value would disarm instead
            spec.it_value.tv_sec = time_t(t / 1_000_000_000)
            spec.it_value.tv_nsec = Int(t % 1_000_000_000)
        }
        if case .failure(let e) = retryingOnce({ timerfd_settime(fd.rawValue, CInt(TFD_TIMER_ABSTIME), &spec, nil) }) {
            throw .syscall("timerfd_settime", e, "timerfd")
        }
    }

    /// An eventfd, non-blocking and close-on-exec (C `eventfd(2)`): another thread or a signal
    /// handler's `eventfdSignal` wakes a poll on it.
    static func eventfdCreate() throws(DisplayError) -> FileDescriptor {
        switch retryingOnce({ eventfd(0, CInt(EFD_CLOEXEC) | CInt(EFD_NONBLOCK)) }) {
        case .success(let fd): return FileDescriptor(rawValue: fd)
        case .failure(let e): throw .syscall("eventfd", e, "eventfd")
        }
    }

    /// Adds 1 to an eventfd's counter (C `write(2)` of 8 bytes); EAGAIN (counter full) is ignored:
    /// the descriptor is readable anyway.
    static func eventfdSignal(_ fd: FileDescriptor) {
        var one: UInt64 = 1
        _ = retryingOnce({ CInt(Glibc.write(fd.rawValue, &one, 8)) })
    }

    /// Reads and resets the 8-byte counter of a timerfd (expirations) or eventfd (signals) (C
    /// `read(2)`); 0 when nothing was pending (EAGAIN on the non-blocking descriptor).
    static func readCounter(_ fd: FileDescriptor, name: String) throws(DisplayError) -> UInt64 {
        var value: UInt64 = 0
        switch retryingOnce({ CInt(Glibc.read(fd.rawValue, &value, 8)) }) {
        case .success: return value
        case .failure(.resourceTemporarilyUnavailable): return 0
        case .failure(let e): throw .syscall("read", e, name)
        }
    }

    /// Blocks until at least one of `fds` is readable, with no timeout (C `poll(2)`, POLLIN, -1):
    /// the pacer's only wait, since deadlines live in a timerfd among `fds`. Returns which are
    /// readable (or hung up); EINTR returns all false so the caller re-checks its state.
    static func pollReadable(_ fds: [FileDescriptor]) throws(DisplayError) -> [Bool] {
        var pfds = fds.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
        let r = Glibc.poll(&pfds, nfds_t(pfds.count), -1)
        if r < 0 {
            if errno == EINTR { return fds.map { _ in false } }
            throw .syscall("poll", Errno(rawValue: errno), "pacer descriptors")
        }
        return pfds.map { ($0.revents & Int16(POLLIN | POLLHUP | POLLERR)) != 0 }
    }
}

// Console and signals (Console.swift, ConsoleSignals.swift): opening a VT, writing escape
// sequences to it, and a self-pipe whose signal handler does nothing but write(2) one byte.
extension Syscalls {
    /// Opens a terminal `path` read-write without making it our controlling terminal (O_NOCTTY:
    /// a daemon must not get SIGHUP from the VT), close-on-exec.
    static func openTerminal(_ path: String) throws(DisplayError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(
                FilePath(path), .readWrite, options: [.closeOnExec, FileDescriptor.OpenOptions(rawValue: O_NOCTTY)], retryOnInterrupt: true)
        } catch let e as Errno { throw .syscall("open", e, path) } catch { fatalError("FileDescriptor.open threw \(error)") }
    }

    /// Writes all of `bytes` to `fd` (C `write(2)`, EINTR retried).
    static func write(_ fd: FileDescriptor, _ bytes: [UInt8], device: String) throws(DisplayError) {
        do {
            _ = try bytes.withUnsafeBytes { try fd.writeAll($0) }
        } catch let e as Errno { throw .syscall("write", e, device) } catch { fatalError("FileDescriptor.writeAll threw \(error)") }
    }

    /// The self-pipe's write end, for the handler: set once before any handler is installed.
    nonisolated(unsafe) static var signalPipeWrite: CInt = -1

    /// A non-blocking close-on-exec pipe (C `pipe(2)`, `fcntl(2)`) whose write end the signal
    /// handler uses; returns the read end.
    static func signalPipe() throws(DisplayError) -> FileDescriptor {
        precondition(signalPipeWrite < 0, "the signal pipe exists already")
        var fds: [CInt] = [-1, -1]
        guard Glibc.pipe(&fds) == 0 else { throw .syscall("pipe", Errno(rawValue: errno), "signal pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        signalPipeWrite = fds[1]
        return FileDescriptor(rawValue: fds[0])
    }

    /// Closes both ends of the self-pipe (after the handlers are gone).
    static func closeSignalPipe(_ readEnd: FileDescriptor) {
        close(readEnd)
        if signalPipeWrite >= 0 { _ = Glibc.close(signalPipeWrite) }
        signalPipeWrite = -1
    }

    /// Installs the self-pipe handler for `signal` (C `sigaction(2)`, SA_RESTART so other blocking
    /// calls carry on): the handler writes the signal number as one byte, saving errno; nothing
    /// else is async-signal-safe enough to do there. Unblocks `signal` in the calling thread.
    static func catchSignal(_ signal: CInt) throws(DisplayError) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = Glibc.write(Syscalls.signalPipeWrite, &byte, 1)
            errno = saved
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        guard sigaction(signal, &action, nil) == 0 else { throw .syscall("sigaction", Errno(rawValue: errno), "signal \(signal)") }
        // A signal blocked in this thread would stay pending and never reach the pipe.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Puts the default action back for `signal` (C `signal(2)` with SIG_DFL).
    static func defaultSignal(_ signal: CInt) {
        _ = Glibc.signal(signal, SIG_DFL)
    }

    /// The signal numbers written to the self-pipe so far, waiting up to `timeoutMilliseconds`
    /// (-1: forever) for the first; empty on timeout (or an interruption by a signal we do not catch).
    static func readSignals(_ fd: FileDescriptor, timeoutMilliseconds: Int32) throws(DisplayError) -> [CInt] {
        // A caught signal interrupts the poll (EINTR, reported as a timeout) after its handler
        // wrote the byte: read in any case, the pipe is non-blocking.
        _ = try pollReadable(fd, timeoutMilliseconds: timeoutMilliseconds, device: "signal pipe")
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = bytes.withUnsafeMutableBytes { Glibc.read(fd.rawValue, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EAGAIN || errno == EINTR { return [] }
            throw .syscall("read", Errno(rawValue: errno), "signal pipe")
        }
        return bytes[..<n].map { CInt($0) }
    }

    /// Dies of `signal` the conventional way (default action, then `raise(3)`), so the parent sees
    /// "killed by SIGTERM"; `_exit(128 + signal)` if the default action does not end the process.
    static func die(of signal: CInt) -> Never {
        defaultSignal(signal)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
        _ = raise(signal)
        _exit(128 + signal)
    }
}

// MARK: hotplug: the kernel's uevent netlink socket (UEventMonitor.swift)
extension Syscalls {
    /// A NETLINK_KOBJECT_UEVENT datagram socket bound to the kernel's multicast group 1, non-blocking
    /// and close-on-exec (C `socket(2)`, `bind(2)`, `setsockopt(2)`): every device add/remove/change
    /// the kernel announces, as udevd receives them. The receive buffer is raised to 1 MiB where
    /// allowed, since a card coming up sends a burst (card, connectors, fb, backlight...).
    static func ueventSocket() throws(DisplayError) -> FileDescriptor {
        let netlinkKobjectUevent: CInt = 15  // <linux/netlink.h>
        let s: CInt
        switch retryingOnce({ socket(AF_NETLINK, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue) | CInt(SOCK_NONBLOCK.rawValue), netlinkKobjectUevent) }) {
        case .success(let fd): s = fd
        case .failure(let e): throw .syscall("socket", e, "NETLINK_KOBJECT_UEVENT")
        }
        var size: CInt = 1 << 20
        _ = setsockopt(s, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<CInt>.size))
        var address = netlinkAddress(groups: 1)
        let r = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, netlinkAddressLength) }
        }
        if r != 0 {
            let e = Errno(rawValue: errno)
            _ = Glibc.close(s)
            throw .syscall("bind", e, "NETLINK_KOBJECT_UEVENT group 1")
        }
        return FileDescriptor(rawValue: s)
    }

    /// `struct sockaddr_nl { sa_family_t nl_family; unsigned short nl_pad; __u32 nl_pid; __u32
    /// nl_groups; }` (not in Glibc's Swift module, host byte order) written into a
    /// sockaddr_storage, which is large enough to be viewed as the `sockaddr` bind/recvfrom take.
    static func netlinkAddress(groups: UInt32) -> sockaddr_storage {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.storeBytes(of: UInt16(AF_NETLINK), toByteOffset: 0, as: UInt16.self)
            raw.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
            raw.storeBytes(of: groups, toByteOffset: 8, as: UInt32.self)
        }
        return storage
    }

    /// sizeof(struct sockaddr_nl).
    static let netlinkAddressLength = socklen_t(12)

    /// One datagram from a uevent socket (C `recvfrom(2)`, non-blocking): the bytes received and the
    /// sender's netlink port id (0 = the kernel); nil when nothing is pending (EAGAIN).
    /// `.failure(.noBufferSpace)` means the socket overflowed and events were lost.
    static func receiveUEvent(_ fd: FileDescriptor, into buffer: inout [UInt8]) -> Result<(count: Int, senderPort: UInt32)?, Errno> {
        var from = sockaddr_storage()
        var fromLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        func attempt() -> Int {
            buffer.withUnsafeMutableBytes { b in
                withUnsafeMutablePointer(to: &from) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd.rawValue, b.baseAddress, b.count, CInt(MSG_DONTWAIT), $0, &fromLength) }
                }
            }
        }
        var n = attempt()
        if n < 0 && errno == EINTR { n = attempt() }
        if n >= 0 { return .success((n, withUnsafeBytes(of: &from) { $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) })) }
        let e = Errno(rawValue: errno)
        if e == .resourceTemporarilyUnavailable { return .success(nil) }
        precondition(e != .badFileDescriptor && e != .badAddress, "uevent recv misuse: \(e)")
        return .failure(e)
    }
}
