// SPDX-License-Identifier: MIT
// One version everywhere: each binary's --version prints SplashHUDVersion.current; CHANGELOG.md's
// newest release is that version, with the control protocol's version stated beside it as in
// docs/protocol.md, so a release cannot forget one of them; `splashhud version` prints the
// client's version and a real daemon's, and tells a daemon of another protocol by its exit status.
import Foundation
import HUDClient
import HUDProtocol
import LinuxSystem
import SystemPackage
import Testing

@Suite struct VersionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test(arguments: ["splashhud", "splashhudd", "splashhud-tools", "splashhud-mqtt", "splashhud-updates"])
    func everyBinaryPrintsTheOneVersion(_ program: String) throws {
        let (status, output) = try SplashBinary.run(try SplashBinary.path(program), ["--version"])
        #expect(status == 0)
        #expect(output == SplashHUDVersion.current + "\n", "\(program) --version printed '\(output)'")
    }

    /// The man pages' footer names the version (the .TH line's fourth field).
    @Test(arguments: [("splashhud", "SPLASHHUD 1"), ("splashhudd", "SPLASHHUDD 8")])
    func theManPagesNameTheVersion(_ program: String, _ title: String) throws {
        let (status, page) = try SplashBinary.run(try SplashBinary.path(program), ["--generate-manual"])
        #expect(status == 0)
        let th = page.components(separatedBy: "\n").first ?? ""
        #expect(th.hasPrefix(".TH \(title) ") && th.contains("\"SplashHUD \(SplashHUDVersion.current)\""), "\(th)")
    }

    // MARK: CHANGELOG.md

    /// One `## ` section of the changelog: `[Unreleased]` or `[VERSION] - DATE`, and its lines.
    struct Section {
        var heading: String
        var lines: [String] = []
        var version: String? { heading.hasPrefix("[") ? String(heading.dropFirst().prefix { $0 != "]" }) : nil }
        var date: String? { heading.components(separatedBy: "] - ").dropFirst().first }
        /// The number of the `Control protocol: N …` line; nil for none or "none yet".
        var controlProtocol: Int? {
            lines.last { $0.hasPrefix("Control protocol: ") }.flatMap { Int($0.dropFirst(18).prefix { $0.isNumber }) }
        }
    }

    static func changelog() throws -> [Section] {
        var sections: [Section] = []
        for line in try read("CHANGELOG.md").components(separatedBy: "\n") {
            if line.hasPrefix("## ") { sections.append(Section(heading: String(line.dropFirst(3)))) } else if !sections.isEmpty { sections[sections.count - 1].lines.append(line) }
        }
        return sections
    }

    static func semver(_ v: String) -> [Int]? {
        let parts = v.split(separator: ".").compactMap { Int($0) }
        return parts.count == 3 && v.split(separator: ".").count == 3 ? parts : nil
    }

    @Test func theNewestReleaseIsThisVersionWithThisProtocol() throws {
        let sections = try Self.changelog()
        #expect(sections.first?.heading == "[Unreleased]", "the first section is Unreleased (Keep a Changelog)")
        let releases = sections.filter { $0.version != "Unreleased" }
        let newest = try #require(releases.first)
        #expect(newest.version == SplashHUDVersion.current,
                "CHANGELOG.md's newest release is \(newest.heading), the binaries say \(SplashHUDVersion.current): change both")
        #expect(newest.controlProtocol == ControlProtocol.version, "\(newest.heading) states no control protocol \(ControlProtocol.version)")
        #expect(sections.first?.controlProtocol == ControlProtocol.version, "Unreleased states no control protocol \(ControlProtocol.version)")
        // The protocol section of docs/protocol.md says the same number.
        #expect(try Self.read("docs/protocol.md").contains("This is version \(ControlProtocol.version) of the control protocol"))
    }

    @Test func releasesAreNewestFirstAndKeepAChangelogShaped() throws {
        let releases = try Self.changelog().filter { $0.version != "Unreleased" }
        #expect(releases.count >= 5, "\(releases.map(\.heading))")
        let kinds: Set<String> = ["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"]
        var previous: (version: [Int], date: String, protocolVersion: Int)?
        for release in releases {
            let version = try #require(release.version.flatMap(Self.semver), "\(release.heading): not [MAJOR.MINOR.PATCH] - YYYY-MM-DD")
            let date = try #require(release.date, "\(release.heading): no date")
            #expect(date.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil, "\(release.heading): the date is YYYY-MM-DD")
            let subheadings = release.lines.filter { $0.hasPrefix("### ") }.map { String($0.dropFirst(4)) }
            #expect(!subheadings.isEmpty && subheadings.allSatisfy(kinds.contains), "\(release.heading): \(subheadings)")
            let protocolVersion = release.controlProtocol ?? 0
            if let previous {
                #expect(version.lexicographicallyPrecedes(previous.version), "\(release.heading) is listed after a newer one")
                #expect(date <= previous.date, "\(release.heading) is dated after a newer release")
                #expect(protocolVersion <= previous.protocolVersion, "\(release.heading): the control protocol went backwards")
            }
            previous = (version, date, protocolVersion)
        }
        #expect(previous?.version == [0, 1, 0], "the first release is 0.1.0")
    }

    /// For users: what they get, not how it was made (no commit hashes, no issue numbers).
    @Test func theChangelogNamesNoCommitsOrIssues() throws {
        for (number, line) in try Self.read("CHANGELOG.md").components(separatedBy: "\n").enumerated() {
            #expect(line.firstMatch(of: /(?i)\bissue\s+\d+|#\d+\b/) == nil, "CHANGELOG.md:\(number + 1): an issue number: \(line)")
            let hashes = line.matches(of: /\b[0-9a-f]{7,40}\b/).map { String($0.output) }.filter { $0.contains { $0.isLetter } && $0.contains { $0.isNumber } }
            #expect(hashes.isEmpty, "CHANGELOG.md:\(number + 1): a commit hash: \(hashes)")
        }
    }

    // MARK: splashhud version

    @Test func theClientPrintsItsVersionAndTheDaemons() throws {
        let d = try DaemonProcessTests.Running()
        defer { d.end() }
        let line = "\(SplashHUDVersion.current) protocol \(ControlProtocol.version)"
        #expect(try d.client(["version"]) == (0, "client \(line)\ndaemon \(line)\n"))
        // The Swift API asks the same.
        let reply = try RemoteHUD(socket: d.socket, timeoutMilliseconds: 5000).version()
        #expect(reply == VersionReply.current && reply.speaksThisProtocol)
    }

    @Test func withoutADaemonOnlyTheClientsLineAndExit69() throws {
        let dir = try temporaryDirectory("version")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, output) = try SplashBinary.run(try SplashBinary.path(), ["version", "--socket", "\(dir)/control"])
        #expect(status == 69)
        #expect(output.hasPrefix("client \(SplashHUDVersion.current) protocol \(ControlProtocol.version)\n"), "\(output)")
        #expect(output.contains("no splashhudd answers at \(dir)/control"), "\(output)")
    }

    /// A daemon of a later protocol cannot be built from this tree, so a peer on a socket answers
    /// `version` as one would; the client must print both lines and exit 76.
    @Test func aDaemonOfAnotherProtocolExits76() throws {
        let dir = try temporaryDirectory("version")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let listener = try UnixSocket.listen(at: "\(dir)/control")
        let later = VersionReply(protocolVersion: ControlProtocol.version + 1, software: "9.0.0")
        let request = Received()
        let peer = Thread { Self.answerOneClient(listener, with: "ok \(later.line)\n", request: request) }
        peer.start()
        let (status, output) = try SplashBinary.run(try SplashBinary.path(), ["version", "--socket", "\(dir)/control", "--timeout", "5000"], timeout: 20)
        Files.close(listener)
        #expect(request.text == "version\n", "the client sent \(request.text)")
        #expect(status == 76, "\(output)")
        #expect(output.hasPrefix("client \(SplashHUDVersion.current) protocol \(ControlProtocol.version)\ndaemon 9.0.0 protocol \(later.protocolVersion)\n"), "\(output)")
        #expect(output.contains("the daemon speaks control protocol \(later.protocolVersion), this client \(ControlProtocol.version)"), "\(output)")
    }

    /// What the peer read, set before it answers (so it is there once the client has its reply).
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
        func set(_ b: [UInt8]) { lock.withLock { bytes = b } }
    }

    /// Accepts one connection on `listener` and answers its first request line with `reply`; gives
    /// up after 15 s.
    static func answerOneClient(_ listener: FileDescriptor, with reply: String, request: Received) {
        let deadline = ContinuousClock.now + .seconds(15)
        var connection: FileDescriptor?
        while connection == nil, ContinuousClock.now < deadline {
            guard (try? Poll.wait(listener, for: .read, timeoutMilliseconds: 50, subject: "peer")) == true else { continue }
            connection = try? UnixSocket.accept(listener, subject: "peer")
        }
        guard let c = connection else { return }
        defer { Files.close(c) }
        var received: [UInt8] = []
        while !received.contains(UInt8(ascii: "\n")), ContinuousClock.now < deadline {
            guard (try? Poll.wait(c, for: .read, timeoutMilliseconds: 50, subject: "peer")) == true else { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            guard let n = try? buffer.withUnsafeMutableBytes({ try Files.read(c, into: $0, subject: "peer") }) else { continue }
            if n == 0 { return }
            received += buffer[..<n]
        }
        request.set(received)
        try? Files.writeAll(c, Array(reply.utf8), subject: "peer")
    }
}
