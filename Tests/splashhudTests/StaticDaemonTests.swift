// SPDX-License-Identifier: MIT
// The daemon as `scripts/install.sh --static-stdlib` installs it: one fully static executable
// (-static-executable) with libpng, FreeType, libdrm and glibc inside, the one an initramfs carries.
// Its user and group lookups use glibc's /etc files alone (LinuxSystem's system_staticNameServices):
// asking nsswitch.conf's other services there would load a second C library and crash.
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

    @Test func calledSplashhudItIsTheClient() throws {
        let dir = try temporaryDirectory("static-daemon")
        let d = try DaemonProcessTests.Running(dir: dir, executable: daemon)
        defer { d.end() }
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/splashhud", withDestinationPath: daemon)
        #expect(try SplashBinary.run("\(dir)/splashhud", ["show", "Booting", "--socket", d.socket]).0 == 0)
        #expect(try SplashBinary.run("\(dir)/splashhud", ["state", "--field", "status", "--socket", d.socket]) == (0, "Booting\n"))
    }
}
