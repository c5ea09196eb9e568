// SPDX-License-Identifier: MIT
// Mender's state scripts (mender/splashhud-mender, installed by `scripts/install.sh --mender`)
// under Debian 12's real mender-client 3.4 in standalone mode (`mender install`, `mender commit`),
// installing module-image artifacts (the single-file update module) that mender-artifact writes
// with our Artifact scripts embedded, while a daemon on the memory display shows each phase: the
// success, a download refused (another device type), an update module that fails (the error icon
// with the phase, which stays past SV's display duration), Mender's error messages from a
// deployment log in its daemon's format, and updates that succeed with no daemon and no client.
// Mender runs the Download scripts from /etc/mender/scripts only: the test mounts its own
// installed tree over it in a private mount namespace (root), and gives Mender a data directory
// of its own (--data), so the machine's Mender is not touched.
import Foundation
import HUDClient
import HUDProtocol
import Testing

@Suite("Mender's state scripts with Debian's mender-client", .serialized)
struct MenderEndToEndTests {
    typealias Daemon = DaemonProcessTests.Running
    typealias StateRecorder = SWUpdateEndToEndTests.StateRecorder

    static let root = DocumentationTests.root.path
    static let script = "\(root)/mender/splashhud-mender"
    static let rootfsStates = ["Download_Enter", "Download_Error"]
    static let artifactStates = ["ArtifactInstall_Enter", "ArtifactInstall_Error", "ArtifactReboot_Enter", "ArtifactReboot_Error",
                                 "ArtifactCommit_Enter", "ArtifactCommit_Leave", "ArtifactCommit_Error", "ArtifactRollback_Enter",
                                 "ArtifactRollback_Error", "ArtifactRollbackReboot_Enter", "ArtifactRollbackReboot_Error",
                                 "ArtifactFailure_Leave"]

    static func requireTools() throws {
        for tool in ["/usr/bin/mender", "/usr/bin/mender-artifact", "/usr/bin/unshare"] {
            try #require(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is not installed: run scripts/setup.sh --tests")
        }
        try #require(FileManager.default.fileExists(atPath: "/etc/mender"), "/etc/mender is missing: mender-client is not installed")
        try #require(getuid() == 0, "Mender runs Download scripts from /etc/mender/scripts only: mounting the test's own over it needs root")
    }

    /// `scripts/install.sh --destdir DESTDIR --mender` with this build's daemon and client, as a
    /// target without Swift runs it (no build, no notices).
    static func install(into destdir: String, in dir: String) throws -> String {
        let bin = "\(dir)/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for program in ["splashhudd", "splashhud"] {
            try FileManager.default.createSymbolicLink(atPath: "\(bin)/\(program)", withDestinationPath: try SplashBinary.path(program))
        }
        let (status, output) = try SplashBinary.run("/usr/bin/env", ["PATH=/usr/sbin:/usr/bin:/sbin:/bin", "bash", "\(root)/scripts/install.sh",
                                                                     "--destdir", destdir, "--bin-dir", bin, "--mender"])
        try #require(status == 0, "install.sh --mender: \(output)")
        return output
    }

    @Test("the script parses as sh, shellcheck finds nothing, it is executable")
    func lint() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.script))
        let (status, output) = try SplashBinary.run("/bin/sh", ["-n", Self.script])
        #expect(status == 0, "\(output)")
        if let shellcheck = InitramfsScriptsTests.shellcheck {
            let (checkStatus, report) = try SplashBinary.run(shellcheck, ["-s", "sh", Self.script])
            #expect(checkStatus == 0 && report.isEmpty, "shellcheck:\n\(report)")
        }
    }

    @Test("install.sh --mender: the Download scripts where Mender runs them, the Artifact ones to embed; --uninstall takes them back")
    func installAndUninstall() throws {
        let dir = try temporaryDirectory("mender-install")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let destdir = "\(dir)/root"
        _ = try Self.install(into: destdir, in: dir)
        let fm = FileManager.default
        let script = try Data(contentsOf: URL(fileURLWithPath: Self.script))
        let etc = "\(destdir)/etc/mender/scripts", share = "\(destdir)/usr/share/splashhud/mender"
        for (folder, states) in [(etc, Self.rootfsStates), (share, Self.artifactStates)] {
            let expected = Set(states.map { "\($0)_50_splashhud" })
            let found = Set(try fm.contentsOfDirectory(atPath: folder)).subtracting(["version"])
            #expect(found == expected, "\(folder): \(found.sorted())")
            for name in expected {
                #expect(fm.isExecutableFile(atPath: "\(folder)/\(name)"), "\(name) is not executable")
                #expect(fm.contents(atPath: "\(folder)/\(name)") == script, "\(name) is not mender/splashhud-mender")
            }
        }
        #expect(try String(contentsOfFile: "\(etc)/version", encoding: .utf8) == "3\n")
        #expect(!fm.fileExists(atPath: "\(share)/version"), "mender-artifact would embed a version file")

        // An administrator's own version file is kept on a second install.
        try "2\n".write(toFile: "\(etc)/version", atomically: true, encoding: .utf8)
        _ = try Self.install(into: destdir, in: "\(dir)/again")
        #expect(try String(contentsOfFile: "\(etc)/version", encoding: .utf8) == "2\n")

        // Uninstalled: ours gone, with the version file when nothing else is left; another script kept.
        func uninstall() throws {
            let (status, output) = try SplashBinary.run("/usr/bin/env", ["PATH=/usr/sbin:/usr/bin:/sbin:/bin", "bash", "\(Self.root)/scripts/install.sh",
                                                                         "--uninstall", "--destdir", destdir])
            #expect(status == 0, "\(output)")
        }
        try uninstall()
        #expect(!fm.fileExists(atPath: etc) && !fm.fileExists(atPath: share), "\((try? fm.contentsOfDirectory(atPath: etc)) ?? [])")
        _ = try Self.install(into: destdir, in: "\(dir)/third")
        #expect(fm.createFile(atPath: "\(etc)/Sync_Enter_10_theirs", contents: Data("#!/bin/sh\n".utf8)))
        try uninstall()
        #expect(Set(try fm.contentsOfDirectory(atPath: etc)) == ["Sync_Enter_10_theirs", "version"])
    }

    @Test("mender install and commit: each phase on the HUD, success, a refused download, a failing update module with its reason")
    func updates() throws {
        try Self.requireTools()
        let dir = try temporaryDirectory("mender")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fm = FileManager.default
        let destdir = "\(dir)/root"
        _ = try Self.install(into: destdir, in: dir)
        // What standalone `mender install` needs besides (checked with Debian's 3.4): a
        // configuration, the running artifact's name, the device type in the data directory.
        try "{}\n".write(toFile: "\(destdir)/etc/mender/mender.conf", atomically: true, encoding: .utf8)
        try "artifact_name=release-1\n".write(toFile: "\(destdir)/etc/mender/artifact_info", atomically: true, encoding: .utf8)
        let data = "\(dir)/data"
        try fm.createDirectory(atPath: data, withIntermediateDirectories: true)
        try "device_type=hud-test\n".write(toFile: "\(data)/device_type", atomically: true, encoding: .utf8)

        // Artifacts for the single-file module (dest_dir, filename and the file), our Artifact
        // scripts embedded as docs/updates.md says.
        let embedded = try fm.contentsOfDirectory(atPath: "\(destdir)/usr/share/splashhud/mender").sorted()
            .flatMap { ["-s", "\(destdir)/usr/share/splashhud/mender/\($0)"] }
        func artifact(_ name: String, destination: String, deviceType: String = "hud-test") throws -> String {
            let payload = "\(dir)/\(name)"
            try fm.createDirectory(atPath: payload, withIntermediateDirectories: true)
            try "\(destination)\n".write(toFile: "\(payload)/dest_dir", atomically: true, encoding: .utf8)
            try "app.txt\n".write(toFile: "\(payload)/filename", atomically: true, encoding: .utf8)
            try "\(name)\n".write(toFile: "\(payload)/app.txt", atomically: true, encoding: .utf8)
            let (status, output) = try SplashBinary.run("/usr/bin/mender-artifact", [
                "write", "module-image", "-T", "single-file", "-n", name, "-t", deviceType, "-f", "\(payload)/dest_dir",
                "-f", "\(payload)/filename", "-f", "\(payload)/app.txt", "-o", "\(payload).mender"] + embedded)
            try #require(status == 0, "mender-artifact: \(output)")
            return "\(payload).mender"
        }
        let good = try artifact("release-2", destination: "\(dir)/installed")
        let otherBoard = try artifact("release-3", destination: "\(dir)/installed", deviceType: "other-board")
        // The module's mkdir -p fails under a regular file: "Update module terminated abnormally".
        #expect(fm.createFile(atPath: "\(dir)/blocker", contents: nil))
        let broken = try artifact("release-4", destination: "\(dir)/blocker/app")

        /// `mender ARGS` in a mount namespace of its own, our installed /etc/mender over the
        /// machine's, its scripts finding the client on PATH and the daemon at `socket`.
        func mender(_ arguments: [String], socket: String, path: String = "\(destdir)/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin") throws -> (Int32, String) {
            try SplashBinary.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c",
                                                      "mount --bind \"$1\" /etc/mender && shift && exec /usr/bin/env \"$@\"", "sh",
                                                      "\(destdir)/etc/mender", "PATH=\(path)", "SPLASHHUD_SOCKET=\(socket)",
                                                      "/usr/bin/mender", "--data", data] + arguments, timeout: 60)
        }

        for d in ["hud", "reference"] { try fm.createDirectory(atPath: "\(dir)/\(d)", withIntermediateDirectories: true) }
        let daemon = try Daemon(extra: ["--display", "memory:320x240", "--duration", "300"], dir: "\(dir)/hud")
        defer { daemon.end() }
        let recorder = StateRecorder(socket: daemon.socket)
        defer { recorder.end() }
        /// The texts the HUD took since the `from`-th, in order, as the daemon announces them at
        /// the end of each turn (a status of several lines goes on over the log's next lines).
        func shown(from: Int = 0) -> [String] {
            var texts: [String] = []
            var current: String?
            for line in daemon.log.split(separator: "\n") {
                if line.range(of: #"^\d{4}-\d\d-\d\dT"#, options: .regularExpression) == nil {
                    current? += "\n" + line
                    continue
                }
                if let c = current, c != "hidden" { texts.append(c) }
                current = line.range(of: "] HUD: ").map { String(line[$0.upperBound...]) }
            }
            if let c = current, c != "hidden" { texts.append(c) }
            return Array(texts.dropFirst(from))
        }

        // The update: downloading, installing, finishing, the success icon.
        var (status, output) = try mender(["install", good], socket: daemon.socket)
        #expect(status == 0, "\(output)")
        (status, output) = try mender(["commit"], socket: daemon.socket)
        #expect(status == 0, "\(output)")
        #expect(SWUpdateEndToEndTests.eventually(seconds: 10) { recorder.recorded.last?.status == "Update installed" }, "\(recorder.recorded)")
        #expect(SWUpdateEndToEndTests.eventually(seconds: 5) { shown() == ["Downloading update", "Installing update", "Finishing update", "Update installed"] },
                "\(shown())\n\(output)")
        #expect(recorder.recorded.last?.mode == "image")
        for state in recorder.recorded where ["Downloading update", "Installing update", "Finishing update"].contains(state.status ?? "") {
            #expect(state.mode == "spinner" && state.visible, "\(state)")
        }
        #expect(try String(contentsOfFile: "\(dir)/installed/app.txt", encoding: .utf8) == "release-2\n")

        // Another board's artifact: refused while its headers are read, Download_Error.
        var mark = shown().count
        (status, output) = try mender(["install", otherBoard], socket: daemon.socket)
        #expect(status != 0 && output.contains("not compatible with device hud-test"), "\(output)")
        #expect(SWUpdateEndToEndTests.eventually(seconds: 5) { shown(from: mark) == ["Downloading update", "Downloading the update failed"] }, "\(shown())")
        // The recorder reads the daemon's state as fast as it answers: after the script, not with it.
        #expect(SWUpdateEndToEndTests.eventually {
            recorder.recorded.last?.mode == "image" && recorder.recorded.last?.status == "Downloading the update failed"
        }, "\(recorder.recorded.suffix(3))")

        // The update module fails. `mender install` keeps no deployment log (only Mender's daemon
        // does, app/deployment_logger.go); one in its format (JSON lines, Go's escapes), fresh,
        // as a deployment from a server leaves it, gives the reason's lines: the last two errors,
        // each cut to 160 bytes at a character.
        let long = "Installation failed: " + String(repeating: "é", count: 100)
        let log = [#"{"level":"info","message":"Running Mender client version: 3.4.0","timestamp":"2026-01-01T00:00:00Z"}"#,
                   #"{"level":"error","message":"an older error","timestamp":"2026-01-01T00:00:00Z"}"#,
                   #"{"level":"error","message":"Update module \"single-file\" \u003cexit 1\u003e \u0026 more","timestamp":"2026-01-01T00:00:01Z"}"#,
                   #"{"level":"info","message":"not an error","timestamp":"2026-01-01T00:00:01Z"}"#,
                   #"{"level":"error","message":"\#(long)","timestamp":"2026-01-01T00:00:02Z"}"#].joined(separator: "\n") + "\n"
        try log.write(toFile: "\(data)/deployments.0001.0f3c5b2e-1a1d-4e4b-9a33-0c1d2e3f4a5b.log", atomically: true, encoding: .utf8)
        mark = shown().count
        (status, output) = try mender(["install", broken], socket: daemon.socket)
        #expect(status != 0 && output.contains("Update module terminated abnormally"), "\(output)")
        let cut = "Installation failed: " + String(repeating: "é", count: 68) + "…"
        #expect(cut.utf8.count == 160)
        let reason = "Installing the update failed\nUpdate module \"single-file\" <exit 1> & more\n\(cut)"
        // ArtifactInstall_Error, the rollback (the module supports it), ArtifactFailure_Leave.
        #expect(SWUpdateEndToEndTests.eventually(seconds: 5) {
            shown(from: mark) == ["Downloading update", "Installing update", reason, "Restoring the previous version", reason]
        }, "\(shown(from: mark))")
        #expect(SWUpdateEndToEndTests.eventually { recorder.recorded.last?.status == reason },
                "\(recorder.recorded.last.map { "\($0)" } ?? "")")

        // Without the log: the phase alone. It is the error icon (the same picture as `error` with
        // that text, not `success`'s), and it stays past SV's display duration (5 s for it).
        try fm.removeItem(atPath: "\(data)/deployments.0001.0f3c5b2e-1a1d-4e4b-9a33-0c1d2e3f4a5b.log")
        mark = shown().count
        (status, output) = try mender(["install", broken], socket: daemon.socket)
        #expect(status != 0, "\(output)")
        let failedAt = Date()
        #expect(SWUpdateEndToEndTests.eventually(seconds: 5) { shown(from: mark).last == "Installing the update failed" }, "\(shown(from: mark))")
        let reference = try Daemon(extra: ["--display", "memory:320x240", "--duration", "60"], dir: "\(dir)/reference")
        defer { reference.end() }
        func snapshot(_ d: Daemon, _ name: String) throws -> Data {
            Thread.sleep(forTimeInterval: 0.6)  // past the fade-in
            let (s, o) = try d.client(["snapshot", "\(dir)/\(name).png"])
            try #require(s == 0, "\(o)")
            return try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name).png"))
        }
        let onScreen = try snapshot(daemon, "failed")
        #expect(try reference.client(["error", "--stay", "--support", "Installing the update failed"]).0 == 0)
        #expect(try snapshot(reference, "error") == onScreen, "the failure is not the error icon (\(dir)/failed.png)")
        #expect(try reference.client(["success", "Installing the update failed"]).0 == 0)
        #expect(try snapshot(reference, "success") != onScreen)
        Thread.sleep(forTimeInterval: max(0, 6.5 - Date().timeIntervalSince(failedAt)))
        let last = recorder.recorded.last
        #expect(last?.visible == true && last?.mode == "image" && last?.status == "Installing the update failed", "\(recorder.recorded.suffix(3))")
        #expect(try snapshot(daemon, "failed-later") == onScreen)

        // No daemon, then no client: the scripts say nothing and the update goes through, at once.
        let started = Date()
        (status, output) = try mender(["install", good], socket: "\(dir)/no-daemon")
        #expect(status == 0, "\(output)")
        (status, output) = try mender(["commit"], socket: "\(dir)/no-daemon", path: "/usr/sbin:/usr/bin:/sbin:/bin")
        #expect(status == 0, "\(output)")
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(!output.contains("Collected output"), "a script wrote to Mender: \(output)")
    }
}
