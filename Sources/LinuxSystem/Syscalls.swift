// SPDX-License-Identifier: MIT
// The only file of SplashHUD that calls the C library's system calls (libdrm's calls live in
// Display/DRM's own funnel). One trampoline per call, `system_` plus its C name, as swift-system
// does; in debug builds each first asks the thread's `MockingDriver`, so a test can see the calls
// made and make any of them fail with an errno (Mocking.swift).
#if canImport(Glibc)
import Glibc
#endif
import CLinuxShim

@inline(__always)
private func mocked(_ name: StaticString) -> CInt? {
    #if ENABLE_MOCKING
    guard let driver = MockingDriver.current else { return nil }
    driver.trace.append("\(name)")
    if let e = driver.takeFailure(for: "\(name)") { errno = e; return -1 }
    #endif
    return nil
}

func system_errno() -> CInt { errno }

func system_threadID() -> UInt { UInt(pthread_self()) }

func system_open(_ path: String, _ flags: CInt, _ mode: UInt32 = 0) -> CInt {
    if let r = mocked("open") { return r }
    return open(path, flags, mode_t(mode))
}

func system_close(_ fd: CInt) -> CInt {
    if let r = mocked("close") { return r }
    return close(fd)
}

func system_read(_ fd: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    if let r = mocked("read") { return Int(r) }
    return read(fd, buffer, count)
}

func system_write(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    if let r = mocked("write") { return Int(r) }
    return write(fd, buffer, count)
}

func system_fsync(_ fd: CInt) -> CInt {
    if let r = mocked("fsync") { return r }
    return fsync(fd)
}

func system_fstat(_ fd: CInt, _ out: inout FileStatus) -> CInt {
    if let r = mocked("fstat") { return r }
    var st = stat()
    let r = fstat(fd, &st)
    if r == 0 { out = FileStatus(st) }
    return r
}

func system_lstat(_ path: String, _ out: inout FileStatus) -> CInt {
    if let r = mocked("lstat") { return r }
    var st = stat()
    let r = lstat(path, &st)
    if r == 0 { out = FileStatus(st) }
    return r
}

extension FileStatus {
    init(_ st: stat) {
        switch st.st_mode & S_IFMT {
        case S_IFIFO: kind = .fifo
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        case S_IFLNK: kind = .symlink
        default: kind = .other
        }
        owner = UInt32(st.st_uid)
        permissions = UInt32(st.st_mode) & 0o7777
        size = Int64(st.st_size)
    }
}

func system_mkfifo(_ path: String, _ mode: UInt32) -> CInt {
    if let r = mocked("mkfifo") { return r }
    return mkfifo(path, mode_t(mode))
}

func system_fchmod(_ fd: CInt, _ mode: UInt32) -> CInt {
    if let r = mocked("fchmod") { return r }
    return fchmod(fd, mode_t(mode))
}

func system_unlink(_ path: String) -> CInt {
    if let r = mocked("unlink") { return r }
    return unlink(path)
}

func system_rename(_ from: String, _ to: String) -> CInt {
    if let r = mocked("rename") { return r }
    return rename(from, to)
}

func system_chmod(_ path: String, _ mode: UInt32) -> CInt {
    if let r = mocked("chmod") { return r }
    return chmod(path, mode_t(mode))
}

/// chown(2) of the group only (the owner stays).
func system_chgrp(_ path: String, _ gid: UInt32) -> CInt {
    if let r = mocked("chown") { return r }
    return chown(path, uid_t.max, gid_t(gid))
}

func system_mkdir(_ path: String, _ mode: UInt32) -> CInt {
    if let r = mocked("mkdir") { return r }
    return mkdir(path, mode_t(mode))
}

func system_chdir(_ path: String) -> CInt {
    if let r = mocked("chdir") { return r }
    return chdir(path)
}

func system_chroot(_ path: String) -> CInt {
    if let r = mocked("chroot") { return r }
    return chroot(path)
}

/// Whether this is a fully static binary (no program interpreter, so AT_BASE is 0): it has no name
/// service modules of its own to load, so it reads the account files itself (AccountFiles.swift).
let system_isStatic: Bool = getauxval(UInt(AT_BASE)) == 0

/// getgrnam_r(3): the group's id (nil: no such group), or the lookup's error number.
func system_groupID(_ name: String) -> (gid: UInt32?, error: CInt) {
    var entry = Glibc.group()
    var result: UnsafeMutablePointer<Glibc.group>?
    var buffer = [CChar](repeating: 0, count: 16384)
    let r = getgrnam_r(name, &entry, &buffer, buffer.count, &result)
    guard r == 0 else { return (nil, r) }
    return (result == nil ? nil : UInt32(entry.gr_gid), 0)
}

/// getpwnam_r(3): the user's uid, primary gid and name (nil: no such user), or the lookup's error.
func system_user(_ name: String) -> (user: (uid: UInt32, gid: UInt32)?, error: CInt) {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 16384)
    let r = getpwnam_r(name, &entry, &buffer, buffer.count, &result)
    guard r == 0 else { return (nil, r) }
    return (result == nil ? nil : (UInt32(entry.pw_uid), UInt32(entry.pw_gid)), 0)
}

/// The supplementary groups, then setgid(2), setuid(2), in that order (the order that leaves no
/// privilege behind): `groups` by setgroups(2), or nil for initgroups(3)'s lookup of the user's.
func system_dropPrivileges(user: String, uid: UInt32, gid: UInt32, groups: [UInt32]?) -> (call: String, result: CInt) {
    if let r = mocked("setuid") { return ("setuid", r) }
    if let groups {
        let ids = groups.map { gid_t($0) }
        if setgroups(ids.count, ids) != 0 { return ("setgroups", -1) }
    } else if initgroups(user, gid_t(gid)) != 0 {
        return ("initgroups", -1)
    }
    if setgid(gid_t(gid)) != 0 { return ("setgid", -1) }
    if setuid(uid_t(uid)) != 0 { return ("setuid", -1) }
    return ("", 0)
}

func system_getuid() -> UInt32 { UInt32(getuid()) }

/// chown(2) of owner and group.
func system_chown(_ path: String, _ uid: UInt32, _ gid: UInt32) -> CInt {
    if let r = mocked("chown") { return r }
    return chown(path, uid_t(uid), gid_t(gid))
}

/// realpath(3): `path` with every symlink, `.` and `..` resolved; nil on failure (errno set).
func system_realpath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// execv(2): returns only on failure (errno set).
func system_execv(_ path: String, _ arguments: [String]) {
    var argv = arguments.map { strdup($0) }
    argv.append(nil)
    _ = execv(path, argv)
    argv.forEach { free($0) }
}

func system_getenv(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

/// posix_spawnp(3) of `arguments` (argv[0] searched in PATH, as execvp does) with each of
/// `descriptors` (ours, the child's number) given to the child under that number (the standard
/// input for 0; the rest of ours are close-on-exec). Returns the pid, or -1 with errno set (a
/// program that cannot be run fails here, not in the child). posix_spawn rather than fork: a
/// forked copy of a Swift process may only call async-signal-safe functions before exec, which
/// Swift code cannot promise.
func system_spawn(_ arguments: [String], descriptors: [(CInt, CInt)]) -> pid_t {
    if let r = mocked("posix_spawnp") { return r }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 onto the same number clears close-on-exec too (glibc 2.29 on, as POSIX.1-2024 says).
    for (ours, theirs) in descriptors { posix_spawn_file_actions_adddup2(&actions, ours, theirs) }
    var argv = arguments.map { strdup($0) }
    argv.append(nil)
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let r = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
    guard r == 0 else { errno = r; return -1 }
    return pid
}

/// waitpid(2) for `pid` to end; `status` gets its raw wait status.
func system_waitpid(_ pid: pid_t, _ status: inout CInt) -> pid_t {
    if let r = mocked("waitpid") { return r }
    return waitpid(pid, &status, 0)
}

/// The raw wait status's exit code (WIFEXITED/WEXITSTATUS), nil when the child was killed.
func system_exitCode(_ status: CInt) -> CInt? { status & 0x7f == 0 ? (status >> 8) & 0xff : nil }

/// The raw wait status's signal (WIFSIGNALED/WTERMSIG), nil when the child exited.
func system_termSignal(_ status: CInt) -> CInt? {
    let signal = status & 0x7f
    return signal != 0 && signal != 0x7f ? signal : nil
}

func system_geteuid() -> UInt32 { UInt32(geteuid()) }

func system_getpid() -> Int32 { getpid() }

func system_ignoreSIGPIPE() { _ = signal(SIGPIPE, SIG_IGN) }

/// pidfd_open(2): a descriptor that polls readable once process `pid` has ended.
func system_pidfdOpen(_ pid: Int32) -> CInt {
    if let r = mocked("pidfd_open") { return r }
    return CLinuxShim_pidfd_open(pid)
}

/// poll(2) on `fds` (descriptor, wants write); `ready` gets (readable, writable, hang-up or error).
func system_poll(_ fds: [(CInt, Bool)], _ timeout: CInt, _ ready: inout [(Bool, Bool, Bool)]) -> CInt {
    if let r = mocked("poll") { return r }
    var p = fds.map { pollfd(fd: $0.0, events: Int16($0.1 ? POLLOUT : POLLIN), revents: 0) }
    let r = poll(&p, nfds_t(p.count), timeout)
    ready = p.map { ($0.revents & Int16(POLLIN) != 0, $0.revents & Int16(POLLOUT) != 0, $0.revents & Int16(POLLHUP | POLLERR) != 0) }
    return r
}

func system_ioctl(_ fd: CInt, _ request: UInt, _ arg: UnsafeMutableRawPointer) -> CInt {
    if let r = mocked("ioctl") { return r }
    return ioctl(fd, request, arg)
}

func system_ioctl(_ fd: CInt, _ request: UInt, value: CInt) -> CInt {
    if let r = mocked("ioctl") { return r }
    return ioctl(fd, request, value)
}

/// mmap(2) shared read-write; nil on failure (errno set).
func system_mmap(_ fd: CInt, _ length: Int, _ offset: Int64) -> UnsafeMutableRawPointer? {
    if mocked("mmap") != nil { return nil }
    let p = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
    return p == MAP_FAILED ? nil : p
}

func system_munmap(_ address: UnsafeMutableRawPointer, _ length: Int) -> CInt {
    munmap(address, length)
}

func system_pageSize() -> Int { Int(sysconf(CInt(_SC_PAGESIZE))) }

/// The entries of directory `path` (opendir/readdir), nil on failure (errno set).
func system_listdir(_ path: String) -> [String]? {
    if mocked("opendir") != nil { return nil }
    guard let dir = opendir(path) else { return nil }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
    }
    return names
}

/// clock_gettime(CLOCK_PROCESS_CPUTIME_ID): CPU time of the whole process, user and system.
func system_processCPUTime() -> Int64 {
    var ts = timespec()
    guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0 else { return 0 }
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

/// CLOCK_REALTIME in nanoseconds since the Unix epoch (tv_sec widened: 32-bit time_t on armhf).
func system_realtime() -> Int64 {
    var ts = timespec()
    guard clock_gettime(CLOCK_REALTIME, &ts) == 0 else { return 0 }
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

/// CLOCK_MONOTONIC in nanoseconds.
func system_monotonic() -> Int64 {
    var ts = timespec()
    let r = clock_gettime(CLOCK_MONOTONIC, &ts)
    precondition(r == 0, "clock_gettime(CLOCK_MONOTONIC) failed")
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

func system_timerfd_create() -> CInt {
    if let r = mocked("timerfd_create") { return r }
    return timerfd_create(CLOCK_MONOTONIC, CInt(TFD_CLOEXEC) | CInt(TFD_NONBLOCK))
}

/// Arms a timerfd at the absolute CLOCK_MONOTONIC instant `deadline` (ns); nil disarms.
func system_timerfd_arm(_ fd: CInt, _ deadline: Int64?) -> CInt {
    if let r = mocked("timerfd_settime") { return r }
    var spec = itimerspec()
    if let deadline {
        let t = max(deadline, 1)  // an all-zero it_value would disarm instead
        spec.it_value.tv_sec = time_t(t / 1_000_000_000)
        spec.it_value.tv_nsec = Int(t % 1_000_000_000)
    }
    return timerfd_settime(fd, CInt(TFD_TIMER_ABSTIME), &spec, nil)
}

func system_eventfd() -> CInt {
    if let r = mocked("eventfd") { return r }
    return eventfd(0, CInt(EFD_CLOEXEC) | CInt(EFD_NONBLOCK))
}

func system_pipe(_ fds: UnsafeMutablePointer<CInt>) -> CInt {
    if let r = mocked("pipe") { return r }
    // Flags set atomically: a fork on another thread between pipe and fcntl would keep the
    // descriptor open in the child.
    return CLinuxShim_pipe2(fds, O_CLOEXEC | O_NONBLOCK)
}

/// A blocking pipe (close-on-exec): a child's standard input must block, and O_NONBLOCK would
/// be shared with it through the duplicated descriptor.
func system_pipe_blocking(_ fds: UnsafeMutablePointer<CInt>) -> CInt {
    if let r = mocked("pipe") { return r }
    return CLinuxShim_pipe2(fds, O_CLOEXEC)
}

func system_sigaction(_ signal: CInt, handler: (@convention(c) (CInt) -> Void)?, restart: Bool) -> CInt {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler ?? SIG_DFL
    action.sa_flags = restart ? SA_RESTART : 0
    sigemptyset(&action.sa_mask)
    return sigaction(signal, &action, nil)
}

func system_unblock(_ signal: CInt) {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
}

func system_raise(_ signal: CInt) -> CInt { raise(signal) }

func system_exit(_ status: CInt) -> Never { _exit(status) }

/// pthread_create(3) of a detached thread running `body`; false when no thread could be made.
func system_detachThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let r = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
    }, box)
    guard r == 0 else { Unmanaged<Box>.fromOpaque(box).release(); return false }
    pthread_detach(thread)
    return true
}

func system_socket(_ domain: CInt, _ type: CInt, _ proto: CInt) -> CInt {
    if let r = mocked("socket") { return r }
    return socket(domain, type | CInt(SOCK_CLOEXEC.rawValue) | CInt(SOCK_NONBLOCK.rawValue), proto)
}

/// bind(2) to a Unix socket path (a leading NUL: the abstract namespace).
func system_bind_unix(_ fd: CInt, _ path: [UInt8]) -> CInt {
    if let r = mocked("bind") { return r }
    return withUnixAddress(path) { bind(fd, $0, $1) }
}

/// bind(2) to the kernel's uevent multicast group 1 (struct sockaddr_nl).
func system_bind_netlink(_ fd: CInt, groups: UInt32) -> CInt {
    if let r = mocked("bind") { return r }
    var storage = sockaddr_storage()
    withUnsafeMutableBytes(of: &storage) { raw in
        raw.storeBytes(of: UInt16(AF_NETLINK), toByteOffset: 0, as: UInt16.self)
        raw.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
        raw.storeBytes(of: groups, toByteOffset: 8, as: UInt32.self)
    }
    return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, 12) } }
}

private func withUnixAddress<T>(_ path: [UInt8], _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (i, b) in path.prefix(capacity).enumerated() { raw[i] = b }
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + min(path.count, capacity) + (path.first == 0 ? 0 : 1))
    return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
}

/// The longest Unix socket path (sun_path), without its terminating NUL.
let system_unixPathCapacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

func system_listen(_ fd: CInt, _ backlog: CInt) -> CInt {
    if let r = mocked("listen") { return r }
    return listen(fd, backlog)
}

func system_accept(_ fd: CInt) -> CInt {
    if let r = mocked("accept4") { return r }
    // As pipe2: a child spawned by another thread must never inherit a client, or the client
    // would not see EOF when we close it.
    return CLinuxShim_accept4(fd, CInt(SOCK_CLOEXEC.rawValue) | CInt(SOCK_NONBLOCK.rawValue))
}

func system_connect_unix(_ fd: CInt, _ path: [UInt8]) -> CInt {
    if let r = mocked("connect") { return r }
    return withUnixAddress(path) { connect(fd, $0, $1) }
}

/// send(2) on a connected socket without SIGPIPE (a peer that went away is EPIPE) and without
/// blocking.
func system_send(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    if let r = mocked("send") { return Int(r) }
    return send(fd, buffer, count, CInt(MSG_NOSIGNAL) | CInt(MSG_DONTWAIT))
}

/// sendto(2) of one datagram to the Unix socket at `path` (a leading NUL: abstract).
func system_sendto_unix(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int, _ path: [UInt8]) -> Int {
    if let r = mocked("sendto") { return Int(r) }
    return withUnixAddress(path) { sendto(fd, buffer, count, CInt(MSG_NOSIGNAL), $0, $1) }
}

/// SO_RCVBUF; failure is ignored by the callers (a smaller buffer still works).
func system_setReceiveBuffer(_ fd: CInt, _ bytes: CInt) {
    var size = bytes
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<CInt>.size))
}

/// SO_PEERCRED: the peer's pid, uid and gid.
func system_peerCredentials(_ fd: CInt, _ pid: inout Int32, _ uid: inout UInt32, _ gid: inout UInt32) -> CInt {
    if let r = mocked("getsockopt") { return r }
    // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (behind _GNU_SOURCE in Glibc's headers).
    var cred: (Int32, UInt32, UInt32) = (0, 0, 0)
    var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
    let r = getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length)
    if r == 0 { (pid, uid, gid) = cred }
    return r
}

/// recvfrom(2), non-blocking; `senderPort` gets the netlink sender's port id (0: the kernel).
func system_recvfrom_netlink(_ fd: CInt, _ buffer: UnsafeMutableRawBufferPointer, _ senderPort: inout UInt32) -> Int {
    if let r = mocked("recvfrom") { return Int(r) }
    var from = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let n = withUnsafeMutablePointer(to: &from) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, buffer.baseAddress, buffer.count, CInt(MSG_DONTWAIT), $0, &length) }
    }
    if n >= 0 { senderPort = withUnsafeBytes(of: &from) { $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) } }
    return n
}

func system_epoll_create() -> CInt {
    if let r = mocked("epoll_create1") { return r }
    return epoll_create1(CInt(EPOLL_CLOEXEC))
}

func system_epoll_ctl(_ epfd: CInt, _ op: CInt, _ fd: CInt, _ events: UInt32) -> CInt {
    if let r = mocked("epoll_ctl") { return r }
    var event = epoll_event()
    event.events = events
    event.data.fd = fd
    return epoll_ctl(epfd, op, fd, &event)
}

/// epoll_wait(2)'s output array: allocated once by its owner and filled by every wait, so a wait
/// allocates nothing (the event loop waits once a frame).
final class system_EpollEvents {
    let capacity: Int
    private let events: UnsafeMutablePointer<epoll_event>

    init(capacity: Int) {
        self.capacity = capacity
        events = .allocate(capacity: capacity)
        events.initialize(repeating: epoll_event(), count: capacity)
    }
    deinit { events.deallocate() }

    /// The last wait's `index`th event as (fd, readable, writable, hang-up, error).
    subscript(index: Int) -> (CInt, Bool, Bool, Bool, Bool) {
        let e = events[index]
        return (e.data.fd, e.events & EPOLLIN.rawValue != 0, e.events & EPOLLOUT.rawValue != 0,
                e.events & (EPOLLHUP.rawValue | EPOLLRDHUP.rawValue) != 0, e.events & EPOLLERR.rawValue != 0)
    }

    /// epoll_wait(2) for up to `capacity` events into this array.
    func wait(_ epfd: CInt, _ timeout: CInt) -> CInt {
        if let r = mocked("epoll_wait") { return r }
        return epoll_wait(epfd, events, CInt(capacity), timeout)
    }
}

/// epoll event bits for read and/or write interest (plus peer hang-up).
func system_epollEvents(read: Bool, write: Bool) -> UInt32 {
    (read ? EPOLLIN.rawValue | EPOLLRDHUP.rawValue : 0) | (write ? EPOLLOUT.rawValue : 0)
}

let system_EPOLL_CTL_ADD = EPOLL_CTL_ADD, system_EPOLL_CTL_MOD = EPOLL_CTL_MOD, system_EPOLL_CTL_DEL = EPOLL_CTL_DEL

// Constants the layer's users need without importing Glibc.
let O_CLOEXEC_FLAG = O_CLOEXEC, O_RDONLY_FLAG = O_RDONLY, O_WRONLY_FLAG = O_WRONLY, O_RDWR_FLAG = O_RDWR
let O_NONBLOCK_FLAG = O_NONBLOCK, O_NOCTTY_FLAG = O_NOCTTY, O_NOFOLLOW_FLAG = O_NOFOLLOW
let O_CREAT_FLAG = O_CREAT, O_TRUNC_FLAG = O_TRUNC
let system_AF_UNIX = AF_UNIX, system_AF_NETLINK = AF_NETLINK
let system_SOCK_STREAM = CInt(SOCK_STREAM.rawValue), system_SOCK_DGRAM = CInt(SOCK_DGRAM.rawValue)
let system_SIGTERM = SIGTERM, system_SIGINT = SIGINT, system_SIGHUP = SIGHUP
let system_SIGUSR1 = SIGUSR1, system_SIGUSR2 = SIGUSR2

/// The self-pipe's write end for the signal handler (set before any handler is installed).
nonisolated(unsafe) var system_signalPipeWrite: CInt = -1

/// The signal handler: writes the signal number as one byte to the self-pipe, saving errno;
/// nothing else is async-signal-safe enough to do here.
let system_signalToPipe: @convention(c) (CInt) -> Void = { signal in
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(system_signalPipeWrite, &byte, 1)
    errno = saved
}

func system_free(_ pointer: UnsafeMutableRawPointer?) { free(pointer) }

// A pthread mutex (ThreadSanitizer follows these; it cannot see the futex under Swift's `Mutex`).
func system_mutex_create() -> UnsafeMutableRawPointer {
    let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(m, nil)
    return UnsafeMutableRawPointer(m)
}
func system_mutex_lock(_ m: UnsafeMutableRawPointer) { pthread_mutex_lock(m.assumingMemoryBound(to: pthread_mutex_t.self)) }
func system_mutex_unlock(_ m: UnsafeMutableRawPointer) { pthread_mutex_unlock(m.assumingMemoryBound(to: pthread_mutex_t.self)) }
func system_mutex_destroy(_ m: UnsafeMutableRawPointer) {
    pthread_mutex_destroy(m.assumingMemoryBound(to: pthread_mutex_t.self))
    m.deallocate()
}

// MARK: Secrets and terminals

/// Anonymous private pages for a secret: locked (mlock) so they never reach swap, left out of core
/// dumps (MADV_DONTDUMP). nil with errno on failure.
func system_mapSecret(_ length: Int) -> UnsafeMutableRawPointer? {
    if mocked("mmap") != nil { return nil }
    guard let p = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), p != MAP_FAILED else { return nil }
    _ = madvise(p, length, MADV_DONTDUMP)
    return p
}

func system_mlock(_ p: UnsafeRawPointer, _ length: Int) -> CInt {
    if let r = mocked("mlock") { return r }
    return mlock(p, length)
}

/// Zeroes, unlocks and unmaps a secret's pages; explicit_bzero, which the compiler may not drop.
func system_unmapSecret(_ p: UnsafeMutableRawPointer, _ length: Int) {
    explicit_bzero(p, length)
    _ = munlock(p, length)
    _ = munmap(p, length)
}

func system_explicit_bzero(_ p: UnsafeMutableRawPointer, _ length: Int) { explicit_bzero(p, length) }

func system_setDumpable(_ on: Bool) -> CInt {
    if let r = mocked("prctl") { return r }
    return CLinuxShim_set_dumpable(on ? 1 : 0)
}

func system_isDumpable() -> Bool { CLinuxShim_get_dumpable() == 1 }

/// tcgetattr(3), the settings as bytes (termios's layout is the C library's business).
func system_tcgetattr(_ fd: CInt, _ out: inout [UInt8]) -> CInt {
    if let r = mocked("tcgetattr") { return r }
    var t = termios()
    let r = tcgetattr(fd, &t)
    if r == 0 { out = withUnsafeBytes(of: &t) { Array($0) } }
    return r
}

/// tcsetattr(3) of settings from `system_tcgetattr`, made raw first when `raw` (cfmakeraw, as
/// plymouthd's unbuffered input: no echo, no line editing, no signals from Ctrl-C).
func system_tcsetattr(_ fd: CInt, _ settings: [UInt8], raw: Bool) -> CInt {
    if let r = mocked("tcsetattr") { return r }
    var t = termios()
    withUnsafeMutableBytes(of: &t) { dst in settings.withUnsafeBytes { dst.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(dst.count))) } }
    if raw { cfmakeraw(&t) }
    return tcsetattr(fd, TCSANOW, &t)
}

/// tcflush(3) of input not yet read: what was typed before a prompt appeared.
func system_tcflushInput(_ fd: CInt) -> CInt {
    if let r = mocked("tcflush") { return r }
    return tcflush(fd, TCIFLUSH)
}
