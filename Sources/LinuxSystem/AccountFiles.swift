// SPDX-License-Identifier: MIT
// /etc/passwd and /etc/group read as glibc's "files" name service reads them, for the fully static
// daemon. glibc's getpwnam_r, getgrnam_r and initgroups in a static binary load NSS modules of the
// glibc that linked it at run time (the link warns so): an initramfs or a board image without them,
// or with another glibc, cannot look up `--user` or `--group`. Names a system user and the groups of
// its devices live in these files (systemd-sysusers and adduser write them); LDAP, systemd-userdb
// and NIS ("+" lines) are for the dynamic daemon, which keeps the C library's lookups.

public enum AccountFiles {
    /// The first entry of `passwd` (the file's text) called `name` whose ids parse, as nss_files
    /// returns it (a line it cannot parse is skipped, not an answer).
    public static func account(named name: String, passwd: Substring) -> Users.Account? {
        for fields in entries(passwd, fieldCount: 7) where fields[0] == name {
            if let uid = UInt32(fields[2]), let gid = UInt32(fields[3]) { return Users.Account(name: name, uid: uid, gid: gid) }
        }
        return nil
    }

    /// The id of the first group of `group` (the file's text) called `name` whose id parses.
    public static func groupID(named name: String, group: Substring) -> UInt32? {
        entries(group, fieldCount: 4).lazy.filter { $0[0] == name }.compactMap { UInt32($0[2]) }.first
    }

    /// The groups `user` belongs to, as initgroups gives them: `primary` first, then every group of
    /// `group` that lists the user as a member, each id once.
    public static func groups(of user: String, primary: UInt32, group: Substring) -> [UInt32] {
        var ids = [primary]
        for fields in entries(group, fieldCount: 4) where fields[3].split(separator: ",").contains(where: { $0 == user }) {
            if let gid = UInt32(fields[2]), !ids.contains(gid) { ids.append(gid) }
        }
        return ids
    }

    /// The colon-separated fields of each entry: comments, blank lines, NIS compat lines ("+", "-")
    /// and lines with fewer fields are skipped, as nss_files skips what it cannot parse.
    static func entries(_ text: Substring, fieldCount: Int) -> some Sequence<[Substring]> {
        text.split(separator: "\n").lazy
            .filter { !($0.first == "#" || $0.first == "+" || $0.first == "-") }
            .map { $0.split(separator: ":", omittingEmptySubsequences: false) }
            .filter { $0.count >= fieldCount && !$0[0].isEmpty }
    }
}
