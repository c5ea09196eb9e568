// SPDX-License-Identifier: MIT
// Unix stream sockets, non-blocking and close-on-exec: a listener at a path or in the abstract
// namespace (a path starting with "@", for a read-only early boot), accepted connections, a client's
// connect, and the peer's credentials (SO_PEERCRED) for logging and permission checks.
import SystemPackage

public enum UnixSocket {
    /// Who is at the other end of a connection.
    public struct Credentials: Equatable, Sendable {
        public var pid: Int32
        public var uid: UInt32
        public var gid: UInt32
        public init(pid: Int32, uid: UInt32, gid: UInt32) { self.pid = pid; self.uid = uid; self.gid = gid }
    }

    /// The bytes of a socket address: a filesystem path, or "@name" for the abstract namespace.
    static func address(_ path: String) throws(SystemError) -> [UInt8] {
        let bytes = path.hasPrefix("@") ? [0] + Array(path.utf8.dropFirst()) : Array(path.utf8)
        guard bytes.count <= system_unixPathCapacity, !bytes.isEmpty else { throw SystemError("bind", .fileNameTooLong, path) }
        return bytes
    }

    /// A listening socket bound to `path` (an existing file there is the caller's to remove).
    public static func listen(at path: String, backlog: Int32 = 64) throws(SystemError) -> FileDescriptor {
        let address = try address(path)
        let s = try retrying { system_socket(system_AF_UNIX, system_SOCK_STREAM, 0) }.get("socket", path)
        if case .failure(let e) = retrying({ system_bind_unix(s, address) }) {
            _ = system_close(s); throw SystemError("bind", e, path)
        }
        if case .failure(let e) = retrying({ system_listen(s, backlog) }) {
            _ = system_close(s); throw SystemError("listen", e, path)
        }
        return FileDescriptor(rawValue: s)
    }

    /// The next pending connection (non-blocking, close-on-exec), nil when none is waiting.
    public static func accept(_ listener: FileDescriptor, subject: String) throws(SystemError) -> FileDescriptor? {
        switch retrying({ system_accept(listener.rawValue) }) {
        case .success(let fd): return FileDescriptor(rawValue: fd)
        case .failure(.resourceTemporarilyUnavailable): return nil
        case .failure(let e): throw SystemError("accept4", e, subject)
        }
    }

    /// A non-blocking connection to the listener at `path`; it may still be in progress (wait for
    /// it to become writable).
    public static func connect(to path: String) throws(SystemError) -> FileDescriptor {
        let address = try address(path)
        let s = try retrying { system_socket(system_AF_UNIX, system_SOCK_STREAM, 0) }.get("socket", path)
        switch retrying({ system_connect_unix(s, address) }) {
        case .success, .failure(.nowInProgress): return FileDescriptor(rawValue: s)
        case .failure(let e): _ = system_close(s); throw SystemError("connect", e, path)
        }
    }

    /// The peer's pid, uid and gid (`SO_PEERCRED`), as the kernel recorded them at connect.
    public static func peerCredentials(_ fd: FileDescriptor, subject: String) throws(SystemError) -> Credentials {
        var c = Credentials(pid: 0, uid: 0, gid: 0)
        _ = try retrying { system_peerCredentials(fd.rawValue, &c.pid, &c.uid, &c.gid) }.get("getsockopt SO_PEERCRED", subject)
        return c
    }

    /// Sends what it can of `bytes` on a connected socket without blocking: the count sent, nil
    /// when the socket is full (EAGAIN). A peer that went away throws (EPIPE, ECONNRESET), never
    /// SIGPIPE.
    /// Bytes sent on `fd` that its peer has not read yet (SIOCOUTQ, which for a Unix socket counts
    /// what waits in the peer's queue); nil when the kernel will not say.
    public static func unreadBySender(_ fd: FileDescriptor) -> Int? {
        var count: CInt = 0
        // SIOCOUTQ is TIOCOUTQ: 0x5411 on x86, arm, arm64 and riscv (asm-generic).
        do { try IOControl.call(fd, 0x5411, "SIOCOUTQ", subject: "a socket", &count) } catch { return nil }
        return Int(count)
    }

    public static func send(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer, subject: String) throws(SystemError) -> Int? {
        switch retrying({ system_send(fd.rawValue, bytes.baseAddress, bytes.count) }) {
        case .success(let n): return n
        case .failure(.resourceTemporarilyUnavailable): return nil
        case .failure(let e): throw SystemError("send", e, subject)
        }
    }

    /// Sends `bytes` as one datagram to the Unix datagram socket at `path` ("@name": abstract),
    /// from a socket made for it and closed again: systemd's notification socket.
    public static func sendDatagram(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let address = try address(path)
        let s = try retrying { system_socket(system_AF_UNIX, system_SOCK_DGRAM, 0) }.get("socket", path)
        defer { _ = system_close(s) }
        let sent = bytes.withUnsafeBytes { b in retrying { system_sendto_unix(s, b.baseAddress, b.count, address) } }
        _ = try sent.get("sendto", path)
    }
}
