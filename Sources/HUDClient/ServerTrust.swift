// SPDX-License-Identifier: MIT
// Whom the client accepts on the abstract fallback "@PATH". An abstract name has no file mode, so
// any local user could bind it first and read the requests (a passphrase's prompt, `ask-password`'s
// answer) or forge the replies. Before a byte is sent, the server's SO_PEERCRED must be root, our
// own user (who needs no protecting from itself), or the owner of PATH's directory: whoever could
// have put a socket at PATH, the trust a path socket gets from the filesystem anyway. A daemon that
// binds as root and then drops to `--user` still shows root: the kernel keeps the listener's
// credentials from listen(2). A name given as "@NAME" is the caller's choice and is not checked.
import LinuxSystem
import SystemPackage

enum ServerTrust {
    /// The uids whose server is accepted on the abstract fallback of `path`.
    static func trustedUsers(forPath path: String) -> Set<UInt32> {
        var uids: Set<UInt32> = [0, Files.effectiveUserID]
        if let owner = directoryOwner(of: path) { uids.insert(owner) }
        return uids
    }

    /// The owner of the directory `path` is in, nil when it is missing or not a directory (a
    /// symlink's target is not followed: its owner could be anyone).
    static func directoryOwner(of path: String) -> UInt32? {
        let parent = FilePath(path).removingLastComponent()
        let directory = parent.isEmpty ? "." : parent.string
        guard let status = try? Files.status(atPath: directory), status.kind == .directory else { return nil }
        return status.owner
    }

    /// Returns when the server on `fd` (connected to `socket`, the abstract fallback of `path`)
    /// runs as a trusted user; throws `.untrustedServer` naming its uid otherwise.
    static func check(_ fd: FileDescriptor, socket: String, path: String) throws(ControlClientError) {
        let server: UnixSocket.Credentials
        do { server = try UnixSocket.peerCredentials(fd, subject: socket) } catch { throw .io("\(error)") }
        guard trustedUsers(forPath: path).contains(server.uid) else {
            throw .untrustedServer(socket: socket, uid: server.uid)
        }
    }
}
