// SPDX-License-Identifier: MIT
// udev/splashhud-updates@.service: its command line, for the swupdate instance with and without
// the options /etc/default/splashhud may add, is one the adapter accepts; a configuration the
// socket proves wrong is not restarted; systemd-analyze verify finds nothing in it.
import Foundation
import Testing
@testable import UpdatesCommand

@Suite struct UpdatesUnitTests {
    @Test func theTemplateUnit() throws {
        let e = try ServiceUnitTests.entries("splashhud-updates@.service")
        func values(_ key: String) -> [String] { e.filter { $0.key == key }.flatMap { $0.value.split(separator: " ").map(String.init) } }
        #expect(values("After") == ["splashhud.service"] && values("WantedBy") == ["multi-user.target"])
        #expect(values("RestartPreventExitStatus") == ["64", "78"] && values("Restart") == ["on-failure"])
        #expect(values("EnvironmentFile") == ["-/etc/default/splashhud"])
        let argv = ServiceUnitTests.words(e.first { $0.key == "ExecStart" }?.value ?? "")
        #expect(argv.first == "/usr/bin/splashhud-updates" && argv.last == "$SPLASHHUD_UPDATES_OPTIONS")
        let words = argv.dropFirst().dropLast().map { $0 == "%i" ? "swupdate" : $0 }
        for extra in [[], ["--swupdate-version", "2025.12"]] {
            let c = try #require(try UpdatesOptions.parse(words + extra))
            #expect(c.socket == "/run/splashhud/control")
            guard case .swupdate(let s) = c.source else { Issue.record("not swupdate"); continue }
            #expect(s.release?.description == extra.last)
        }
        // The control socket: beside a progress socket given by path, unless given too; else by SWUpdate's rules.
        func sockets(_ words: [String]) throws -> (String?, String?) {
            guard case .swupdate(let s)? = try UpdatesOptions.parse(["swupdate"] + words)?.source else { return (nil, nil) }
            return (s.progressSocket, s.controlSocket)
        }
        #expect(try sockets(["--progress-socket", "/run/sw/swupdateprog"]) == ("/run/sw/swupdateprog", "/run/sw/sockinstctrl"))
        #expect(try sockets(["--progress-socket", "prog"]) == ("prog", "sockinstctrl"))
        #expect(try sockets(["--progress-socket", "/a/p", "--control-socket", "/b/c"]) == ("/a/p", "/b/c"))
        #expect(try sockets([]) == (nil, nil))
        // The rauc instance: the same command line; SWUpdate's options are a clear error there.
        let rauc = try #require(try UpdatesOptions.parse(argv.dropFirst().dropLast().map { $0 == "%i" ? "rauc" : $0 }))
        #expect(rauc.socket == "/run/splashhud/control")
        if case .rauc = rauc.source {} else { Issue.record("not rauc") }
        #expect(throws: (any Error).self) { try UpdatesOptions.parse(["rauc", "--progress-socket", "/tmp/p"]) }
        #expect(throws: (any Error).self) { try UpdatesOptions.parse(["rauc2"]) }
        #expect(throws: (any Error).self) { try UpdatesOptions.parse(["swupdate", "--swupdate-version", "12"]) }
    }

    @Test(.enabled(if: ServiceUnitTests.analyze != nil, "systemd-analyze is not installed"))
    func systemdAnalyzeVerifyIsSilent() throws {
        let dir = try temporaryDirectory("updates-unit")
        let text = try String(contentsOfFile: "\(ServiceUnitTests.udev)/splashhud-updates@.service", encoding: .utf8)
        try text.replacingOccurrences(of: "/usr/bin/splashhud-updates", with: try SplashBinary.path("splashhud-updates"))
            .write(toFile: "\(dir)/splashhud-updates@.service", atomically: true, encoding: .utf8)
        let (status, output) = try SplashBinary.run(try #require(ServiceUnitTests.analyze),
                                                    ["verify", "--man=no", "\(dir)/splashhud-updates@swupdate.service"])
        #expect(status == 0, "systemd-analyze verify: \(output)")
        let ours = output.split(separator: "\n").filter { $0.contains("splashhud") }
        #expect(ours.isEmpty, "systemd-analyze verify: \(ours.joined(separator: "\n"))")
    }
}
