// SPDX-License-Identifier: MIT
// The static daemon's own reading of /etc/passwd and /etc/group gives what glibc's "files" name
// service gives: checked on written files, and on this machine's against getpwnam_r, getgrnam_r
// and getgrouplist for every account and group they hold.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import LinuxSystem

@Suite("account files read as nss_files reads them")
struct AccountFilesTests {
    static let passwd: Substring = """
        root:x:0:0:root:/root:/bin/bash
        kiosk:x:oops:1000::/home/kiosk:/bin/sh
        # a comment
        +nisuser::::::
        splashhud:x:998:995:SplashHUD daemon:/nonexistent:/usr/sbin/nologin
        kiosk:x:1000:1000::/home/kiosk:/bin/sh

        broken:x:notanumber:1:::
        short:x:5
        splashhud:x:1234:1234:a second entry nss_files never reaches:/:/bin/sh
        """
    static let group: Substring = """
        root:x:0:
        input:x:notanumber:
        video:x:44:splashhud,kiosk
        input:x:105:kiosk,splashhud
        render:x:106:kiosk
        splashhud:x:995:
        -nisgroup:::
        tty:x:5:splashhudd
        """

    @Test func theFirstEntryOfAUserCounts() {
        #expect(AccountFiles.account(named: "splashhud", passwd: Self.passwd) == Users.Account(name: "splashhud", uid: 998, gid: 995))
        #expect(AccountFiles.account(named: "root", passwd: Self.passwd) == Users.Account(name: "root", uid: 0, gid: 0))
        // An entry whose ids do not parse is skipped, as nss_files skips it: the next one counts.
        #expect(AccountFiles.account(named: "kiosk", passwd: Self.passwd) == Users.Account(name: "kiosk", uid: 1000, gid: 1000))
        #expect(AccountFiles.groupID(named: "input", group: Self.group) == 105)
    }

    @Test func commentsNISLinesAndBrokenEntriesHoldNoOne() {
        for name in ["nisuser", "+nisuser", "broken", "short", "# a comment", ""] {
            #expect(AccountFiles.account(named: name, passwd: Self.passwd) == nil, "\(name)")
        }
        #expect(AccountFiles.groupID(named: "nisgroup", group: Self.group) == nil)
    }

    @Test func groupsByNameAndByMember() {
        #expect(AccountFiles.groupID(named: "video", group: Self.group) == 44)
        #expect(AccountFiles.groupID(named: "vid", group: Self.group) == nil)
        // The primary group first, then each group listing the user; "splashhudd" is someone else.
        #expect(AccountFiles.groups(of: "splashhud", primary: 995, group: Self.group) == [995, 44, 105])
        #expect(AccountFiles.groups(of: "kiosk", primary: 1000, group: Self.group) == [1000, 44, 105, 106])
        #expect(AccountFiles.groups(of: "nobody", primary: 65534, group: Self.group) == [65534])
    }

    @Test func thisMachinesAccountsAsGlibcGivesThem() throws {
        let passwd = try Users.accountFile("/etc/passwd"), group = try Users.accountFile("/etc/group")
        let users = AccountFiles.entries(passwd, fieldCount: 7).map { String($0[0]) }
        try #require(users.contains("root") && users.count > 3)
        for name in users {
            let (user, error) = system_user(name)
            #expect(error == 0)
            let mine = AccountFiles.account(named: name, passwd: passwd)
            #expect(mine?.uid == user?.uid && mine?.gid == user?.gid, "\(name)")
            guard let mine else { continue }
            // getgrouplist(3) is initgroups' list.
            var count: Int32 = 256
            var ids = [gid_t](repeating: 0, count: Int(count))
            try #require(getgrouplist(name, gid_t(mine.gid), &ids, &count) >= 0)
            #expect(Set(AccountFiles.groups(of: name, primary: mine.gid, group: group)) == Set(ids.prefix(Int(count)).map { UInt32($0) }), "\(name)")
        }
        for fields in AccountFiles.entries(group, fieldCount: 4) {
            #expect(AccountFiles.groupID(named: String(fields[0]), group: group) == system_groupID(String(fields[0])).gid, "\(fields[0])")
        }
    }

    @Test func aMissingFileHoldsNoOne() throws {
        #expect(try Users.accountFile("/nonexistent/passwd").isEmpty)
    }
}
