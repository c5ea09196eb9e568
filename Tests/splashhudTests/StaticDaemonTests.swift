// SPDX-License-Identifier: MIT
// The daemon as `scripts/install.sh --static-stdlib` installs it: one fully static executable
// (-static-executable) with libpng, FreeType, libdrm and glibc inside, the one an initramfs carries.
// It reads /etc/passwd and /etc/group itself for `--user` and `--socket-group` (AccountFiles.swift):
// glibc's lookups in a static binary load NSS modules at run time, which an initramfs lacks.
// scripts/test.sh builds it and names it in SPLASHHUD_STATIC_DAEMON.
import Foundation
import Testing

@Suite("the fully static daemon", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["SPLASHHUD_STATIC_DAEMON"] != nil))
struct StaticDaemonTests {
    let daemon = ProcessInfo.processInfo.environment["SPLASHHUD_STATIC_DAEMON"] ?? ""

    @Test func noDynamicLoaderRunsForIt() throws {
        let (status, output) = try SplashBinary.run("/usr/bin/ldd", [daemon])
        #expect(status != 0 && output.contains("not a dynamic executable"), "\(output)")
    }

    @Test func itDecodesImagesWritesSnapshotsAndOwnsItsSocketByGroupName() throws {
        let dir = try temporaryDirectory("static-daemon")
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../AssetsTests/Fixtures").standardized.path
        for name in ["rgba8.png", "bad-crc.png"] {
            try FileManager.default.copyItem(atPath: "\(fixtures)/\(name)", toPath: "\(dir)/\(name)")
        }
        // video is in Debian's base /etc/group (base-passwd), gid 44.
        let d = try DaemonProcessTests.Running(extra: ["--asset-dir", dir, "--socket-group", "video"], dir: dir, executable: daemon)
        defer { d.end() }
        let group = try FileManager.default.attributesOfItem(atPath: d.socket)[.groupOwnerAccountID] as? NSNumber
        #expect(group?.intValue == 44)
        #expect(try d.client(["image", "\(dir)/rgba8.png", "Done"]).0 == 0)
        #expect(try d.client(["state", "--field", "mode"]) == (0, "image\n"))
        let (refused, reason) = try d.client(["image", "\(dir)/bad-crc.png", "x"])
        #expect(refused == 65 && reason.contains("corrupt PNG: IDAT: CRC error"), "\(reason)")
        let shot = "\(dir)/shot.png"
        #expect(try d.client(["snapshot", shot]) == (0, "\(shot): memory 200x120\n"))
        #expect(FileManager.default.contents(atPath: shot)?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func unknownUsersAndGroupsAreClearErrorsNotCrashes() throws {
        let dir = try temporaryDirectory("static-daemon")
        let common = ["--display", "memory:64x64", "--console", "off", "--input", "none", "--duration", "1"]
        let (groupStatus, groupOutput) = try SplashBinary.run(daemon, common + ["--socket", "\(dir)/s", "--socket-group", "no-such-group-here"])
        #expect(groupStatus == 1 && groupOutput.contains("no group called 'no-such-group-here'"), "\(groupStatus): \(groupOutput)")
        let (userStatus, userOutput) = try SplashBinary.run(daemon, common + ["--socket", "none", "--user", "no-such-user-here"])
        #expect(userStatus == 64 && userOutput.contains("no user called 'no-such-user-here'"), "\(userStatus): \(userOutput)")
    }

    /// In a mount namespace whose account files name a user only there and whose nsswitch.conf
    /// names a service that does not exist (glibc's lookups would find no one), `--user` becomes
    /// that user with the groups that list it, as initgroups would.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"), "needs root and unshare"))
    func itTakesItsUserAndGroupsFromTheFilesWithoutNameServices() throws {
        let dir = try temporaryDirectory("static-daemon")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir)
        try "root:x:0:0:root:/root:/bin/sh\nsplashtest:x:4242:4243:test:/nonexistent:/bin/false\n"
            .write(toFile: "\(dir)/passwd", atomically: true, encoding: .utf8)
        try "root:x:0:\nvideo:x:44:splashtest\ninput:x:4244:someone,splashtest\nsplashtest:x:4243:\nother:x:4245:someone\n"
            .write(toFile: "\(dir)/group", atomically: true, encoding: .utf8)
        try "passwd: nosuchservice\ngroup: nosuchservice\ninitgroups: nosuchservice\n"
            .write(toFile: "\(dir)/nsswitch.conf", atomically: true, encoding: .utf8)
        // unshare without --fork execs in place: the daemon keeps the pid Running started.
        try """
            #!/bin/sh
            exec /usr/bin/unshare -m /bin/sh -c 'for f in passwd group nsswitch.conf; do mount --bind "\(dir)/$f" "/etc/$f" || exit 70; done
            exec "$0" "$@"' "\(daemon)" "$@"
            """.write(toFile: "\(dir)/in-namespace", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(dir)/in-namespace")
        let d = try DaemonProcessTests.Running(extra: ["--user", "splashtest", "--socket-group", "input"], dir: dir, executable: "\(dir)/in-namespace")
        defer { d.end() }
        let status = try String(contentsOfFile: "/proc/\(d.process.processIdentifier)/status", encoding: .utf8)
        func ids(_ field: String) -> [String] {
            status.split(separator: "\n").first { $0.hasPrefix("\(field):") }?
                .split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().map(String.init) ?? []
        }
        #expect(ids("Uid") == ["4242", "4242", "4242", "4242"], "\(status)\n\(d.log)")
        #expect(ids("Gid") == ["4243", "4243", "4243", "4243"], "\(status)")
        #expect(Set(ids("Groups")) == ["44", "4243", "4244"], "\(status)")
        let group = try FileManager.default.attributesOfItem(atPath: d.socket)[.groupOwnerAccountID] as? NSNumber
        #expect(group?.intValue == 4244, "the socket's group by name from the files")
        #expect(try d.client(["show", "Unprivileged"]).0 == 0)
        #expect(d.log.contains("running as splashtest (uid 4242"), "\(d.log)")
    }

    @Test func calledSplashhudItIsTheClient() throws {
        let dir = try temporaryDirectory("static-daemon")
        let d = try DaemonProcessTests.Running(dir: dir, executable: daemon)
        defer { d.end() }
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/splashhud", withDestinationPath: daemon)
        #expect(try SplashBinary.run("\(dir)/splashhud", ["show", "Booting", "--socket", d.socket]).0 == 0)
        #expect(try SplashBinary.run("\(dir)/splashhud", ["state", "--field", "status", "--socket", d.socket]) == (0, "Booting\n"))
    }
}
