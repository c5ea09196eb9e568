// SPDX-License-Identifier: MIT
// Debian's own `plymouth` client (a program nobody in this project wrote) against splashhudd
// --plymouth on the memory display: ping, show-splash, display-message, system-update, change-mode,
// a password request without a keyboard, and quit with and without --retain-splash; the screen compared with
// what the same commands give through our own client. Plymouth's socket name is fixed, so the
// tests run one at a time and are skipped when a plymouthd already answers on this machine.
import Foundation
import HUDProtocol
import Testing

@Suite("Debian's plymouth client against splashhudd", .serialized,
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/plymouth"), "the plymouth package is not installed"))
struct PlymouthClientTests {
    static let plymouth = "/usr/bin/plymouth"

    /// splashhudd --plymouth on the memory display, up once its control socket answers.
    func start(_ dir: String, extra: [String] = [], environment: [String: String] = [:]) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try SplashBinary.path("splashhudd"))
        if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        p.arguments = ["--display", "memory:320x200", "--plymouth", "--socket", "\(dir)/control", "--out", "\(dir)/out",
                       "--duration", "30", "--log-level", "info"] + extra
        _ = FileManager.default.createFile(atPath: "\(dir)/log", contents: nil)
        p.standardError = FileHandle(forWritingAtPath: "\(dir)/log")
        try p.run()
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if (try? SplashBinary.run(Self.plymouth, ["--ping"]).0) == 0 { return p }
            Thread.sleep(forTimeInterval: 0.05)
        }
        p.terminate()
        throw PlymouthTestError.notUp((try? String(contentsOfFile: "\(dir)/log", encoding: .utf8)) ?? "")
    }

    enum PlymouthTestError: Error { case notUp(String) }

    /// The daemon's state line; waiting up to 5 s (under ThreadSanitizer on a loaded machine the
    /// client's default 500 ms ran out).
    func state(_ dir: String) throws -> String {
        try SplashBinary.run(try SplashBinary.path(), ["state", "--socket", "\(dir)/control", "--timeout", "5000"]).1
    }

    /// The daemon's state once `condition` holds of it (recorded as an issue after `seconds`).
    @discardableResult
    func waitForState(_ dir: String, _ what: String, within seconds: Double = 20, _ condition: (String) -> Bool) throws -> String {
        let end = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < end {
            last = try state(dir)
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.02)
        }
        Issue.record("waiting for \(what): the state is \(last)")
        return last
    }

    @Test func theRealClientDrivesTheHUD() throws {
        let dir = try temporaryDirectory("plymouth")
        let daemon = try start(dir)
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        #expect(try SplashBinary.run(Self.plymouth, ["--ping"]).0 == 0)
        #expect(try SplashBinary.run(Self.plymouth, ["--show-splash"]).0 == 0)
        #expect(try SplashBinary.run(Self.plymouth, ["display-message", "--text=Hello there"]).0 == 0)
        #expect(try SplashBinary.run(Self.plymouth, ["system-update", "--progress=40"]).0 == 0)
        Thread.sleep(forTimeInterval: 0.6)
        let shown = try state(dir)
        #expect(shown.hasPrefix("visible yes mode ring progress 0.4 status \"Hello there\""), "\(shown)")
        // The screen equals what our own client makes of the same commands.
        #expect(try SplashBinary.run(try SplashBinary.path(), ["snapshot", "\(dir)/plymouth.png", "--socket", "\(dir)/control"]).0 == 0)
        // Without a terminal for keys (the memory display has no VT), a password request has no
        // answer at once (NO_ANSWER: exit 1), never a wait that cannot end.
        let start = ContinuousClock.now
        let (status, output) = try SplashBinary.run(Self.plymouth, ["ask-for-password", "--prompt=Disk"], timeout: 10)
        #expect(status == 1 && ContinuousClock.now - start < .seconds(5), "\(status) \(output)")
        #expect(try SplashBinary.run(Self.plymouth, ["change-mode", "--updates"]).0 == 0)
        Thread.sleep(forTimeInterval: 0.3)
        let updating = try state(dir)
        #expect(updating.contains("status \"Installing updates\""), "\(updating)")
        #expect(try SplashBinary.run(Self.plymouth, ["--update=systemd-udevd.service"]).0 == 0)
        #expect(try SplashBinary.run(Self.plymouth, ["quit"]).0 == 0)
        daemon.waitUntilExit()
        #expect(daemon.terminationReason == .exit && daemon.terminationStatus == 0)
        let log = try String(contentsOfFile: "\(dir)/log", encoding: .utf8)
        #expect(log.contains("no terminal to read keys from"), "\(log)")
        // The ending says what the splash cost: its wall time and its CPU (at notice, so a boot's
        // log keeps it).
        #expect(log.contains("ended: quit after ") && log.range(of: #"ms, [0-9]+\.[0-9] ms CPU \("#, options: .regularExpression) != nil, "\(log)")
        // Nobody answers any more.
        #expect(try SplashBinary.run(Self.plymouth, ["--ping"]).0 != 0)

        // The same commands through our own client on a fresh daemon: the same picture.
        let ours = try temporaryDirectory("plymouth")
        let reference = Process()
        reference.executableURL = URL(fileURLWithPath: try SplashBinary.path("splashhudd"))
        reference.arguments = ["--display", "memory:320x200", "--socket", "\(ours)/control", "--duration", "30", "--log-level", "error"]
        try reference.run()
        defer { reference.terminate(); reference.waitUntilExit() }
        let client = try SplashBinary.path()
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline, (try? SplashBinary.run(client, ["ping", "--socket", "\(ours)/control"]).0) != 0 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(try SplashBinary.run(client, ["send", "show", "status \"Hello there\"", "PROGRESS 40", "--socket", "\(ours)/control"]).0 == 0)
        Thread.sleep(forTimeInterval: 0.6)
        #expect(try SplashBinary.run(client, ["snapshot", "\(ours)/ours.png", "--socket", "\(ours)/control"]).0 == 0)
        let a = try #require(FileManager.default.contents(atPath: "\(dir)/plymouth.png"))
        let b = try #require(FileManager.default.contents(atPath: "\(ours)/ours.png"))
        #expect(a == b, "the screen Plymouth's client made differs from our client's")
    }

    @Test func quitRetainSplashKeepsTheFrame() throws {
        let dir = try temporaryDirectory("plymouth")
        let daemon = try start(dir)
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        #expect(try SplashBinary.run(Self.plymouth, ["--show-splash"]).0 == 0)
        Thread.sleep(forTimeInterval: 0.4)
        #expect(try SplashBinary.run(Self.plymouth, ["quit", "--retain-splash"]).0 == 0)
        daemon.waitUntilExit()
        let log = try String(contentsOfFile: "\(dir)/log", encoding: .utf8)
        #expect(log.contains("ended: quit --retain") && log.contains("retaining the last frame"), "\(log)")
    }

    /// `plymouth update-root-fs --new-root-dir=DIR`, as an initramfs sends it before switch_root:
    /// the daemon's own process moves into DIR (its root and working directory in /proc) and goes
    /// on answering and drawing. A directory that is not there is refused (the client fails), and
    /// the daemon stays where it was.
    @Test(.enabled(if: geteuid() == 0, "chroot needs root"))
    func updateRootFsMovesTheDaemonIntoTheNewRoot() throws {
        let dir = try temporaryDirectory("plymouth")
        // In the new root (an empty directory here) an AddressSanitizer build's leak check at
        // exit finds neither /proc nor its suppressions file, and fails the exit: not checked.
        let asan = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map { $0 + ":" } ?? ""
        let daemon = try start(dir, environment: ["ASAN_OPTIONS": asan + "detect_leaks=0"])
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        let proc = "/proc/\(daemon.processIdentifier)"
        let root = "\(dir)/newroot"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        #expect(try SplashBinary.run(Self.plymouth, ["--show-splash"]).0 == 0)
        let (refused, output) = try SplashBinary.run(Self.plymouth, ["update-root-fs", "--new-root-dir=\(dir)/missing"])
        #expect(refused != 0, "\(output)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "\(proc)/root") == "/")
        #expect(try SplashBinary.run(Self.plymouth, ["update-root-fs", "--new-root-dir=\(root)"]).0 == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "\(proc)/root") == root)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "\(proc)/cwd") == root)
        #expect(try SplashBinary.run(Self.plymouth, ["display-message", "--text=In the real root"]).0 == 0)
        try waitForState(dir, "the message in the new root") { $0.contains("status \"In the real root\"") }
        #expect(try SplashBinary.run(Self.plymouth, ["quit"]).0 == 0)
        daemon.waitUntilExit()
        #expect(daemon.terminationReason == .exit && daemon.terminationStatus == 0)
        let log = try String(contentsOfFile: "\(dir)/log", encoding: .utf8)
        #expect(log.contains("plymouth: cannot move into the new root: chdir \(dir)/missing failed"), "\(log)")
        #expect(log.contains("moved into the new root \(root)"), "\(log)")
    }

    /// Our own verb, as the initramfs's hand-over sends it: refused with the reason for a missing
    /// directory; then the daemon is in the new root, and its boot estimate, which found no record
    /// in the old one, reads last boot's there (as plymouthd does) and moves the HUD from the
    /// spinner to the ring; at the end it remembers this boot in the new root.
    @Test(.enabled(if: geteuid() == 0, "chroot needs root"))
    func newrootMovesTheDaemonAndTheBootEstimateReadsItsRecordThere() throws {
        let dir = try temporaryDirectory("plymouth")
        let stateDir = "/var/lib/splashhud-newroot-test-\(UInt32.random(in: 0...UInt32.max))"
        let root = "\(dir)/newroot"
        try FileManager.default.createDirectory(atPath: root + stateDir, withIntermediateDirectories: true)
        try "total 2\n".write(toFile: "\(root)\(stateDir)/boot-duration", atomically: true, encoding: .utf8)
        let asan = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map { $0 + ":" } ?? ""
        let daemon = try start(dir, extra: ["--boot-estimate", "--state-dir", stateDir], environment: ["ASAN_OPTIONS": asan + "detect_leaks=0"])
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        let client = try SplashBinary.path()
        #expect(try SplashBinary.run(client, ["show", "--socket", "\(dir)/control"]).0 == 0)
        Thread.sleep(forTimeInterval: 0.6)
        #expect(try state(dir).contains("mode spinner"), "no record before the move: no estimate")
        let (refused, why) = try SplashBinary.run(client, ["newroot", "\(dir)/missing", "--socket", "\(dir)/control"])
        #expect(refused != 0 && why.contains("cannot move into the new root: chdir \(dir)/missing failed"), "\(refused) \(why)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(daemon.processIdentifier)/root") == "/")
        #expect(try SplashBinary.run(client, ["newroot", root, "--socket", "\(dir)/control"]).0 == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(daemon.processIdentifier)/root") == root)
        // Plymouth's own init-bottom script names the same directory after ours: nothing moves
        // (taken in the new root, the path would be a directory inside it).
        try FileManager.default.createDirectory(atPath: root + root, withIntermediateDirectories: true)
        #expect(try SplashBinary.run(Self.plymouth, ["update-root-fs", "--new-root-dir=\(root)"]).0 == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(daemon.processIdentifier)/root") == root)
        try waitForState(dir, "the estimate from the new root's record") { $0.contains("mode ring progress 0.") }
        #expect(try SplashBinary.run(client, ["quit", "--socket", "\(dir)/control"]).0 == 0)
        daemon.waitUntilExit()
        #expect(daemon.terminationReason == .exit && daemon.terminationStatus == 0)
        let remembered = try String(contentsOfFile: "\(root)\(stateDir)/boot-duration", encoding: .utf8)
        #expect(remembered.hasPrefix("total ") && remembered != "total 2\n", "this boot remembered in the new root: \(remembered)")
        #expect(!FileManager.default.fileExists(atPath: stateDir), "nothing written outside the new root")
        let log = try String(contentsOfFile: "\(dir)/log", encoding: .utf8)
        #expect(log.contains("moved into the new root \(root)") && log.contains("already moved into the new root \(root): nothing to do"), "\(log)")
    }

    @Test func aSecondPlymouthListenerIsRefusedBeforeTheScreen() throws {
        let dir = try temporaryDirectory("plymouth")
        let daemon = try start(dir)
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        let (status, output) = try SplashBinary.run(try SplashBinary.path("splashhudd"),
            ["--display", "memory", "--plymouth", "--socket", "none", "--duration", "1", "--log-level", "critical"])
        #expect(status == 1 && output.contains("Plymouth's socket @/org/freedesktop/plymouthd is taken"), "\(output)")
    }
}

/// A board profile's [modes] names the text of Plymouth's modes (in the same serialized suite:
/// Plymouth's socket name is the same for every daemon).
extension PlymouthClientTests {
    @Test func theProfileNamesTheModesText() throws {
        let dir = try temporaryDirectory("plymouth")
        try "[modes]\nupdates = \"Updating the kiosk\"\nshutdown = \"\"\n".write(toFile: "\(dir)/p.conf", atomically: true, encoding: .utf8)
        let daemon = try PlymouthClientTests().start(dir, extra: ["--profile", "\(dir)/p.conf"])
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        #expect(try SplashBinary.run(PlymouthClientTests.plymouth, ["change-mode", "--updates"]).0 == 0)
        Thread.sleep(forTimeInterval: 0.3)
        let updating = try PlymouthClientTests().state(dir)
        #expect(updating.contains("mode ring progress 0 status \"Updating the kiosk\""), "\(updating)")
        #expect(try SplashBinary.run(PlymouthClientTests.plymouth, ["change-mode", "--shutdown"]).0 == 0)
        Thread.sleep(forTimeInterval: 0.3)
        let shutting = try PlymouthClientTests().state(dir)
        #expect(shutting.contains("mode spinner") && !shutting.contains("status"), "\(shutting)")
        #expect(try SplashBinary.run(PlymouthClientTests.plymouth, ["quit"]).0 == 0)
    }
}
