// SPDX-License-Identifier: MIT
// The control socket's listening end: bound at its path (mode 0660, group as configured) or, when
// the path's directory cannot be made or written (a read-only early boot), in the abstract
// namespace under "@PATH". A daemon that already answers there keeps it: we refuse to start. A
// socket left by one that died (nobody accepts: ECONNREFUSED) is removed and taken over.
import HUDProtocol
import LinuxSystem
import SystemPackage

public enum ControlSocketError: Error, Equatable, CustomStringConvertible {
    /// Another daemon accepts connections at `path`.
    case alreadyRunning(path: String)
    /// Something that is not a socket is at the path; we do not remove it.
    case notASocket(path: String)
    case noSuchGroup(String)
    case system(SystemError)

    public var description: String {
        switch self {
        case .alreadyRunning(let path): return "another splashhudd already answers at \(path)"
        case .notASocket(let path): return "\(path) exists and is not a socket; remove it or choose another --socket"
        case .noSuchGroup(let name): return "no group called '\(name)' for the control socket"
        case .system(let e): return "control socket: \(e)"
        }
    }
}

public struct ControlSocket {
    public let descriptor: FileDescriptor
    /// Where it is bound: the path, or "@PATH" in the abstract namespace.
    public let address: String
    /// A stale socket from a daemon that died was removed first.
    public let tookOverStale: Bool
    /// Who may connect to an abstract socket (it has no file mode): root, our uid, this group.
    public let group: UInt32?

    public var isAbstract: Bool { address.hasPrefix("@") }

    /// Binds at `path` ("@name": abstract only) with `mode` and `group` (a name or a number).
    /// With `fallback`, a path whose directory cannot be used is replaced by "@PATH".
    public static func bind(path: String, mode: UInt32 = 0o660, group: String? = nil,
                            fallback: Bool = true) throws(ControlSocketError) -> ControlSocket {
        let gid = try group.map(groupID)
        if path.hasPrefix("@") { return try bindAbstract(path, group: gid, stale: false) }
        do {
            return try bindPath(path, mode: mode, group: gid)
        } catch .system(let e) where fallback && Self.unusableDirectory(e.errno) {
            return try bindAbstract(ControlProtocol.abstractFallback(for: path), group: gid, stale: false)
        }
    }

    /// The group called `name` (or numbered so).
    static func groupID(_ name: String) throws(ControlSocketError) -> UInt32 {
        if let n = UInt32(name) { return n }
        let id: UInt32?
        do { id = try Files.groupID(named: name) } catch { throw .system(error) }
        guard let id else { throw .noSuchGroup(name) }
        return id
    }

    /// Errors meaning "this filesystem place cannot hold our socket", not "something is wrong".
    static func unusableDirectory(_ e: Errno) -> Bool {
        let unusable: [Errno] = [.readOnlyFileSystem, .permissionDenied, .noSuchFileOrDirectory, .notDirectory, .notPermitted]
        return unusable.contains(e)
    }

    private static func bindPath(_ path: String, mode: UInt32, group: UInt32?) throws(ControlSocketError) -> ControlSocket {
        var stale = false
        do {
            if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
                try Files.makeDirectory(String(path[..<slash]), mode: 0o755)
            }
            if let status = try Files.status(atPath: path) {
                guard status.kind == .socket else { throw ControlSocketError.notASocket(path: path) }
                try checkNobodyAnswers(path)
                try Files.unlink(path)
                stale = true
            }
            let fd = try UnixSocket.listen(at: path)
            do {
                try Files.setMode(atPath: path, mode)
                if let group { try Files.setGroup(atPath: path, group) }
            } catch {
                Files.close(fd)
                try? Files.unlink(path)
                throw error
            }
            return ControlSocket(descriptor: fd, address: path, tookOverStale: stale, group: group)
        } catch let e as SystemError {
            if e.call == "bind" && e.errno == .addressInUse { throw .alreadyRunning(path: path) }
            throw .system(e)
        } catch let e as ControlSocketError {
            throw e
        } catch {
            throw .system(SystemError("bind", .ioError, path))
        }
    }

    private static func bindAbstract(_ name: String, group: UInt32?, stale: Bool) throws(ControlSocketError) -> ControlSocket {
        do {
            return ControlSocket(descriptor: try UnixSocket.listen(at: name), address: name, tookOverStale: stale, group: group)
        } catch {
            // The abstract namespace frees a name when its socket closes: in use means alive.
            if error.errno == .addressInUse { throw .alreadyRunning(path: name) }
            throw .system(error)
        }
    }

    /// Throws `alreadyRunning` when something accepts connections at `path`; returns when the
    /// socket there is dead (ECONNREFUSED).
    private static func checkNobodyAnswers(_ path: String) throws(ControlSocketError) {
        do {
            let probe = try UnixSocket.connect(to: path)
            Files.close(probe)
            throw ControlSocketError.alreadyRunning(path: path)
        } catch let e as SystemError {
            if e.errno == .connectionRefused { return }
            // EAGAIN: its backlog is full, so it lives.
            if e.errno == .resourceTemporarilyUnavailable { throw .alreadyRunning(path: path) }
            throw .system(e)
        } catch let e as ControlSocketError {
            throw e
        } catch {
            throw .system(SystemError("connect", .ioError, path))
        }
    }

    /// Whether a peer may use an abstract socket (a path socket's mode already decided).
    public func admits(_ peer: UnixSocket.Credentials) -> Bool {
        guard isAbstract else { return true }
        return ConnectionHost.isPrivileged(peer) || (group != nil && peer.gid == group)
    }

    /// Closes the listener and removes its path (not a path another daemon bound since).
    public func close() {
        Files.close(descriptor)
        if !isAbstract { try? Files.unlink(address) }
    }
}
