// SPDX-License-Identifier: MIT
// What the control socket lets whom do, and what the daemon may open: a member of the socket's
// group (a real process of another user, through setpriv) may drive the HUD but not end the daemon
// or name files (exit 77, `error denied`); files named by commands are resolved and opened only
// inside the asset directories, symlinks and `..` included; `--user` drops root once everything is
// open and the daemon goes on serving.
import Foundation
import Testing

extension DaemonProcessTests {
    static let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]
    static var canSwitchUsers: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") }

    /// A directory the unprivileged client can reach (the test's own are root's).
    func sharedDirectory() throws -> String {
        let dir = try temporaryDirectory("security")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir)
        return dir
    }

    @Test(.enabled(if: DaemonProcessTests.canSwitchUsers, "needs root and setpriv"))
    func theSocketsGroupDrivesTheHUDButCannotEndItOrNameFiles() throws {
        let dir = try sharedDirectory()
        let d = try Running(extra: ["--socket-group", "nogroup"], dir: dir)
        defer { d.end() }
        let client = try SplashBinary.path()
        func asNobody(_ args: [String]) throws -> (Int32, String) {
            try SplashBinary.run("/usr/bin/setpriv", Self.nobody + [client] + args + ["--socket", d.socket])
        }
        #expect(try asNobody(["show", "From the group"]).0 == 0)
        let (quit, quitOut) = try asNobody(["quit"])
        #expect(quit == 77 && quitOut.contains("denied") && quitOut.contains("ending the daemon"), "\(quit) \(quitOut)")
        #expect(try asNobody(["send", "QUIT"]).0 == 77)
        let (image, imageOut) = try asNobody(["image", "/usr/share/fonts/whatever.png"])
        #expect(image == 77 && imageOut.contains("an image path"), "\(image) \(imageOut)")
        #expect(try asNobody(["set", "font", "/usr/share/fonts/x.ttf"]).0 == 77)
        let (keys, keysOut) = try asNobody(["subscribe", "--keys", "--count", "1"])
        #expect(keys == 77 && keysOut.contains("watching keys"), "\(keys) \(keysOut)")
        let (state, shown) = try d.client(["state"])
        #expect(state == 0 && shown.contains("status \"From the group\""), "the daemon goes on: \(shown)")
        // Root (the daemon's user) may end it.
        #expect(try d.client(["quit"]).0 == 0)
        d.process.waitUntilExit()
        #expect(d.process.terminationStatus == 0)
    }

    @Test func filesAreOpenedOnlyInsideTheAssetDirectories() throws {
        let dir = try temporaryDirectory("assets")
        let assets = "\(dir)/assets"
        try FileManager.default.createDirectory(atPath: assets, withIntermediateDirectories: true)
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AssetsTests/Fixtures/rgba8.png").path
        try FileManager.default.copyItem(atPath: fixture, toPath: "\(assets)/logo.png")
        try FileManager.default.copyItem(atPath: fixture, toPath: "\(dir)/outside.png")
        try FileManager.default.createSymbolicLink(atPath: "\(assets)/escape.png", withDestinationPath: "\(dir)/outside.png")
        let d = try Running(extra: ["--asset-dir", assets], dir: dir)
        defer { d.end() }
        #expect(try d.client(["image", "\(assets)/logo.png", "Inside"]).0 == 0)
        for path in ["\(dir)/outside.png", "\(assets)/escape.png", "\(assets)/../outside.png", "/etc/passwd", "\(assets)/missing.png"] {
            let (status, out) = try d.client(["image", path])
            #expect(status == 65 && out.contains("is not a file in the asset directories"), "\(path): \(status) \(out)")
        }
        let (font, fontOut) = try d.client(["set", "font", "/etc/shadow"])
        #expect(font == 65 && fontOut.contains("font /etc/shadow is not a file in the asset directories"), "\(fontOut)")
        #expect(!d.log.contains("cannot read"), "nothing outside was opened: \(d.log)")
    }

    @Test(.enabled(if: DaemonProcessTests.canSwitchUsers, "needs root"))
    func userDropsRootOnceEverythingIsOpen() throws {
        let dir = try sharedDirectory()
        let d = try Running(extra: ["--user", "nobody"], dir: dir)
        defer { d.end() }
        let status = try String(contentsOfFile: "/proc/\(d.process.processIdentifier)/status", encoding: .utf8)
        let uids = status.split(separator: "\n").first { $0.hasPrefix("Uid:") }?.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst()
        #expect(uids.map(Array.init) == ["65534", "65534", "65534", "65534"], "real, effective, saved, fs uid: \(status)")
        #expect(try d.client(["show", "Still here"]).0 == 0)
        let (s, shown) = try d.client(["state"])
        #expect(s == 0 && shown.contains("Still here"))
        #expect(d.log.contains("running as nobody (uid 65534"), "\(d.log)")
        #expect(try d.client(["quit"]).0 == 0, "root is still the socket's")
        d.process.waitUntilExit()
        #expect(d.process.terminationStatus == 0, "\(d.log)")
    }

    @Test func anUnknownUserIsAUsageError() throws {
        let (status, out) = try SplashBinary.run(try SplashBinary.path("splashhudd"),
                                                 ["--display", "memory", "--socket", "none", "--user", "no-such-user-here", "--duration", "1"])
        #expect(status == 64 && out.contains("no user called 'no-such-user-here'"), "\(status) \(out)")
    }
}
