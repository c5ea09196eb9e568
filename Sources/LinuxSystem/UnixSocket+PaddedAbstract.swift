// SPDX-License-Identifier: MIT
// An abstract socket name padded with NULs to the whole sun_path: the old way of naming one
// (the NULs are part of the name, so client and server must agree). Plymouth's old name
// "/ply-boot-protocol" is bound this way, its new one trimmed (`UnixSocket.connect(to: "@…")`).
import SystemPackage

extension UnixSocket {
    /// A non-blocking connection to the abstract socket `name` (without "@") padded to the full
    /// address size; it may still be in progress.
    public static func connect(paddedAbstract name: String) throws(SystemError) -> FileDescriptor {
        let bytes = [0] + Array(name.utf8)
        guard bytes.count <= system_unixPathCapacity else { throw SystemError("connect", .fileNameTooLong, "@" + name) }
        let address = bytes + [UInt8](repeating: 0, count: system_unixPathCapacity + 1 - bytes.count)
        let s = try retrying { system_socket(system_AF_UNIX, system_SOCK_STREAM, 0) }.get("socket", "@" + name)
        switch retrying({ system_connect_unix(s, address) }) {
        case .success, .failure(.nowInProgress): return FileDescriptor(rawValue: s)
        case .failure(let e): _ = system_close(s); throw SystemError("connect", e, "@" + name)
        }
    }
}
