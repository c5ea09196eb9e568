// SPDX-License-Identifier: MIT
// Who the process runs as: looking a user up, dropping root for that user once the devices and
// sockets are open (`splashhudd --user`), and resolving paths for confinement checks.
import SystemPackage

public enum Users {
    /// A user's ids.
    public struct Account: Equatable, Sendable {
        public var name: String
        public var uid: UInt32
        public var gid: UInt32
    }

    /// The account called `name` (getpwnam_r; a static binary reads /etc/passwd itself), nil when
    /// there is none.
    public static func account(named name: String) throws(SystemError) -> Account? {
        if system_isStatic { return AccountFiles.account(named: name, passwd: try accountFile("/etc/passwd")) }
        let (user, error) = system_user(name)
        guard error == 0 else { throw SystemError("getpwnam_r", Errno(rawValue: error), name) }
        return user.map { Account(name: name, uid: $0.uid, gid: $0.gid) }
    }

    /// Becomes `account` for good: its supplementary groups (video, input: what hotplugged devices
    /// need; a static binary takes them from /etc/group itself), its group, then its user (setuid
    /// as root sets the real, effective and saved ids, so root cannot be regained). Checked afterwards.
    public static func become(_ account: Account) throws(SystemError) {
        let groups = system_isStatic
            ? AccountFiles.groups(of: account.name, primary: account.gid, group: try accountFile("/etc/group")) : nil
        let (call, result) = system_dropPrivileges(user: account.name, uid: account.uid, gid: account.gid, groups: groups)
        if result != 0 { throw SystemError(call, Errno(rawValue: system_errno()), account.name) }
        guard system_getuid() == account.uid, system_geteuid() == account.uid else {
            throw SystemError("setuid", .notPermitted, "still uid \(system_getuid())/\(system_geteuid()) after becoming \(account.name)")
        }
    }

    public static var realUserID: UInt32 { system_getuid() }

    /// /etc/passwd or /etc/group as text (up to 4 MiB; a missing file holds no one).
    static func accountFile(_ path: String) throws(SystemError) -> Substring {
        do {
            return Substring(decoding: try Files.readFile(path, limit: 4 << 20), as: UTF8.self)
        } catch where error.errno == .noSuchFileOrDirectory {
            return ""
        }
    }
}

extension Files {
    /// `path` with every symlink, `.` and `..` resolved (realpath); the path must exist.
    public static func resolvedPath(_ path: String) throws(SystemError) -> String {
        guard let p = system_realpath(path) else { throw SystemError("realpath", Errno(rawValue: system_errno()), path) }
        return p
    }

    /// `chown(2)` of owner and group.
    public static func setOwner(atPath path: String, uid: UInt32, gid: UInt32) throws(SystemError) {
        if system_chown(path, uid, gid) != 0 { throw SystemError("chown", Errno(rawValue: system_errno()), path) }
    }
}
