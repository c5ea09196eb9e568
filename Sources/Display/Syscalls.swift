// SPDX-License-Identifier: MIT
// Display's calls into the system layer (LinuxSystem, the one funnel: EINTR, mocking, one error
// type), with each failure turned into the DisplayError that names the call and the device, so no
// backend formats errno itself. libdrm's own calls are the other layer (DRM/DRMCall.swift).
import LinuxSystem
import SystemPackage

extension DisplayError {
    /// The display's view of a failed system call: an ioctl by its request name, else the call.
    init(_ e: SystemError) {
        if e.call.hasPrefix("ioctl ") {
            self = .ioctl(String(e.call.dropFirst(6)), e.errno, e.subject)
        } else {
            self = .syscall(e.call, e.errno, e.subject)
        }
    }
}

enum Syscalls {
    /// Runs `body`, turning a SystemError into a DisplayError.
    @inline(__always)
    static func mapped<T>(_ body: () throws(SystemError) -> T) throws(DisplayError) -> T {
        do { return try body() } catch { throw DisplayError(error) }
    }

    /// Opens `path` read-write, close-on-exec.
    static func open(_ path: String, nonBlocking: Bool = false) throws(DisplayError) -> FileDescriptor {
        try mapped { () throws(SystemError) in try Files.open(path, flags: OpenFlag.readWrite | (nonBlocking ? OpenFlag.nonBlocking : 0)) }
    }

    /// Opens a terminal read-write without making it our controlling terminal (a daemon must not
    /// get SIGHUP from the VT).
    static func openTerminal(_ path: String) throws(DisplayError) -> FileDescriptor {
        try mapped { () throws(SystemError) in try Files.open(path, flags: OpenFlag.readWrite | OpenFlag.noControllingTerminal) }
    }

    static func close(_ fd: FileDescriptor) { Files.close(fd) }

    /// `ioctl(fd, request, arg)` with a pointer argument; `name` is the request's C name.
    static func ioctl(_ fd: FileDescriptor, _ request: UInt, _ name: String, device: String, _ arg: UnsafeMutableRawPointer) throws(DisplayError) {
        try mapped { () throws(SystemError) in try IOControl.call(fd, request, name, subject: device, arg) }
    }

    /// `ioctl(fd, request, value)` with an integer argument (FBIOBLANK, KDSETMODE).
    static func ioctl(_ fd: FileDescriptor, _ request: UInt, _ name: String, device: String, value: CInt) throws(DisplayError) {
        try mapped { () throws(SystemError) in try IOControl.call(fd, request, name, subject: device, value: value) }
    }

    /// `fsync(2)`: for fbdev this runs deferred I/O now (DRM's fbdev emulation copies written pages
    /// to the real scanout buffer up to 50 ms later otherwise).
    /// False when the device has nothing to sync (no deferred I/O).
    static func fsync(_ fd: FileDescriptor, device: String) throws(DisplayError) -> Bool {
        try mapped { () throws(SystemError) in try Files.fsync(fd, subject: device) }
    }

    /// Maps `length` bytes of `fd` at `offset`, shared and read-write: scanout memory.
    static func mmap(_ fd: FileDescriptor, length: Int, offset: UInt64 = 0, device: String) throws(DisplayError) -> UnsafeMutableRawPointer {
        try mapped { () throws(SystemError) in try Memory.map(fd, length: length, offset: offset, subject: device) }
    }

    /// Creates (or empties) `path` and makes it `length` bytes long, for a shared mapping. A
    /// symbolic link is refused: a daemon running as root must not empty the file it points to.
    static func createSized(_ path: String, length: Int) throws(DisplayError) -> FileDescriptor {
        let fd = try mapped { () throws(SystemError) in
            try Files.open(path, flags: OpenFlag.readWrite | OpenFlag.create | OpenFlag.truncate | OpenFlag.noFollow, mode: 0o644)
        }
        do { try mapped { () throws(SystemError) in try Files.resize(fd, to: length, subject: path) } } catch { Files.close(fd); throw error }
        return fd
    }

    static func munmap(_ address: UnsafeMutableRawPointer, length: Int) { Memory.unmap(address, length: length) }

    /// The size of a page of memory, the unit deferred I/O tracks writes in.
    static var pageSize: Int { Memory.pageSize }

    /// Writes a mapped byte back to itself so that deferred I/O sees its page written again.
    static func rewriteByte(at address: UnsafeMutableRawPointer) { Memory.rewriteByte(at: address) }

    /// Waits up to `timeoutMilliseconds` for `fd` to become readable (a DRM event is ready);
    /// false on timeout or a signal.
    static func pollReadable(_ fd: FileDescriptor, timeoutMilliseconds: Int32, device: String) throws(DisplayError) -> Bool {
        try mapped { () throws(SystemError) in try Poll.wait(fd, for: .read, timeoutMilliseconds: timeoutMilliseconds, subject: device) }
    }

    /// The first `limit` bytes of a small file such as /proc/cmdline.
    static func readFile(_ path: String, limit: Int = 65536) throws(DisplayError) -> [UInt8] {
        try mapped { () throws(SystemError) in try Files.readFile(path, limit: limit) }
    }

    /// The names in directory `path`, without "." and "..", sorted.
    static func listDirectory(_ path: String) throws(DisplayError) -> [String] {
        try mapped { () throws(SystemError) in try Files.listDirectory(path) }
    }

    /// CLOCK_MONOTONIC in nanoseconds, the time base of vblank timestamps.
    static func monotonicNanoseconds() -> Int64 { MonotonicClock.nanoseconds() }

    /// Writes all of `bytes` to `fd` (escape sequences to a VT).
    static func write(_ fd: FileDescriptor, _ bytes: [UInt8], device: String) throws(DisplayError) {
        try mapped { () throws(SystemError) in try Files.writeAll(fd, bytes, subject: device) }
    }

    // MARK: signals (ConsoleSignals.swift)

    static func signalPipe() throws(DisplayError) -> FileDescriptor {
        try mapped { () throws(SystemError) in try SignalPipe.open() }
    }

    static func closeSignalPipe(_ readEnd: FileDescriptor) { SignalPipe.close(readEnd) }

    static func catchSignal(_ signal: CInt) throws(DisplayError) {
        try mapped { () throws(SystemError) in try SignalPipe.catch(signal) }
    }

    static func defaultSignal(_ signal: CInt) { SignalPipe.reset(signal) }

    static func readSignals(_ fd: FileDescriptor, timeoutMilliseconds: Int32) throws(DisplayError) -> [CInt] {
        try mapped { () throws(SystemError) in try SignalPipe.read(fd, timeoutMilliseconds: timeoutMilliseconds) }
    }

    static func die(of signal: CInt) -> Never { SignalPipe.die(of: signal) }

    // MARK: hotplug (UEventMonitor.swift)

    static func ueventSocket() throws(DisplayError) -> FileDescriptor {
        try mapped { () throws(SystemError) in try UEventSocket.open() }
    }

    /// One datagram from a uevent socket: its byte count and the sender's netlink port (0: the
    /// kernel); nil when nothing is pending. `.failure(.noBufferSpace)` means events were lost.
    static func receiveUEvent(_ fd: FileDescriptor, into buffer: inout [UInt8]) -> Result<(count: Int, senderPort: UInt32)?, Errno> {
        do { return .success(try UEventSocket.receive(fd, into: &buffer)) } catch { return .failure(error.errno) }
    }
}
