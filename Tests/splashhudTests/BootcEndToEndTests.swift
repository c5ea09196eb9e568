// SPDX-License-Identifier: MIT
// `splashhud-updates bootc -- COMMAND…` running a command that speaks bootc's progress protocol,
// a daemon on the memory display showing it. bootc itself is not in Debian 12: the command here is
// a shell script that checks it was given `--progress-fd 3`, writes the lines of
// Tests/UpdateSourcesTests/Fixtures/bootc-upgrade.jsonl (bootc's serializer's shape, not a
// recording: see BootcProgressTests) to that descriptor 50 ms apart, and ends as bootc would. The
// adapter exits with the command's status; its standard error reaches the adapter's and its last
// words are the failure's reason; a line that is not bootc's is skipped with one log line; with no
// daemon the command runs just the same.
import Foundation
import HUDProtocol
import Testing

@Suite("splashhud-updates running a bootc command", .serialized)
struct BootcEndToEndTests {
    typealias Daemon = DaemonProcessTests.Running
    typealias Program = SWUpdateEndToEndTests.Program

    static let fixture = DocumentationTests.root.appendingPathComponent("Tests/UpdateSourcesTests/Fixtures/bootc-upgrade.jsonl").path

    /// A stand-in for bootc that replays `lines` lines of the fixture (all: nil), then exits `status`
    /// after writing `words` to its standard error.
    static func fakeBootc(in dir: String, _ name: String, lines: Int?, status: Int32, words: String) throws -> String {
        let path = "\(dir)/\(name)"
        let script = """
            #!/bin/sh
            [ "$1" = upgrade ] && [ "$2" = --progress-fd ] && [ "$3" = 3 ] || { echo "error: arguments: $*" >&2; exit 2; }
            echo 'not json' >&3
            \(lines.map { "head -n \($0)" } ?? "cat") '\(fixture)' | while IFS= read -r line; do printf '%s\\n' "$line" >&3; sleep 0.05; done
            printf '%s' '\(words)' >&2
            exit \(status)
            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    @Test("an upgrade and a failed one on the HUD, the command's status kept; no daemon changes nothing")
    func upgrades() throws {
        let dir = try temporaryDirectory("bootc")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let daemon = try Daemon(extra: ["--display", "memory:320x240", "--duration", "300"], dir: dir)
        defer { daemon.end() }
        let recorder = SWUpdateEndToEndTests.StateRecorder(socket: daemon.socket)
        defer { recorder.end() }
        let updates = try SplashBinary.path("splashhud-updates")

        let good = try Self.fakeBootc(in: dir, "good-bootc", lines: nil, status: 0, words: "Queued for next boot: quay.io/example/kiosk:latest\n")
        var (status, output) = try SplashBinary.run(updates, ["bootc", "--socket", daemon.socket, "--", good, "upgrade"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("following \(good)'s progress (format 0.1.0)") && output.contains("Queued for next boot"), "\(output)")
        #expect(output.components(separatedBy: "such lines are skipped").count == 2, "one line for the line that is not JSON: \(output)")
        #expect(SWUpdateEndToEndTests.eventually { recorder.recorded.last?.status == "Update installed" }, "\(recorder.recorded)")
        let bar = recorder.recorded.compactMap { $0.mode == "ring" ? $0.progress : nil }
        #expect(bar.count >= 5 && bar.contains { $0 > 0.5 && $0 < 0.81 } && bar.allSatisfy { $0 < 1 }, "\(bar)")
        #expect(zip(bar, bar.dropFirst()).allSatisfy { $0 <= $1 }, "the bar went back: \(bar)")
        let texts = Set(recorder.recorded.compactMap(\.status))
        #expect(texts.contains { $0.hasPrefix("Downloading update (") } && texts.contains { $0.hasPrefix("Staging update") }, "\(texts)")

        // Failing half way: bootc's own words, the error icon kept, its status returned.
        recorder.clear()
        let bad = try Self.fakeBootc(in: dir, "bad-bootc", lines: 7, status: 1,
                                     words: "error: Upgrading: Pulling: Importing: Fetching blob sha256:aa02: connection reset by peer\n")
        (status, output) = try SplashBinary.run(updates, ["bootc", "--socket", daemon.socket, "--", bad, "upgrade"])
        #expect(status == 1, "\(output)")
        #expect(SWUpdateEndToEndTests.eventually { recorder.recorded.last?.mode == "image" && recorder.recorded.last?.status != "Update installed" },
                "\(recorder.recorded)")
        #expect(recorder.recorded.last?.status == "error: Upgrading: Pulling: Importing: Fetching blob sha256:aa02: connection reset by peer")
        #expect(output.contains("connection reset by peer"), "bootc's standard error is passed through: \(output)")

        // No daemon: the command runs and its status comes back, within the 2 s the last view waits.
        let started = Date()
        (status, output) = try SplashBinary.run(updates, ["bootc", "--socket", "\(dir)/no-daemon", "--", good, "upgrade"])
        #expect(status == 0 && Date().timeIntervalSince(started) < 6, "\(output)")
        // A command that cannot run: 127, said.
        (status, output) = try SplashBinary.run(updates, ["bootc", "--socket", daemon.socket, "--", "\(dir)/missing", "upgrade"])
        #expect(status == 127 && output.contains("cannot run \(dir)/missing"), "\(output)")
    }
}
