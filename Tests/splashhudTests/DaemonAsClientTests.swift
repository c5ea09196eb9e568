// SPDX-License-Identifier: MIT
// The daemon's binary called through a link named splashhud is the client (what the initramfs
// holds: one binary instead of two, each with its own copy of the Swift runtime): the same
// answers, statuses and help as the client's own binary, and the daemon as before otherwise.
import Foundation
import HUDProtocol
import Testing

@Suite("the daemon's binary as the client", .serialized)
struct DaemonAsClientTests {
    /// A link named splashhud to the daemon's binary, in a fresh directory.
    static func link() throws -> String {
        let dir = try temporaryDirectory("multicall")
        let link = "\(dir)/splashhud"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: try SplashBinary.path("splashhudd"))
        return link
    }

    @Test func itAnswersAsTheClientDoes() throws {
        let linked = try Self.link()
        let d = try DaemonProcessTests.Running()
        defer { d.end() }
        func both(_ args: [String]) throws -> [(Int32, String)] {
            [try SplashBinary.run(linked, args + ["--socket", d.socket]), try SplashBinary.run(try SplashBinary.path(), args + ["--socket", d.socket])]
        }
        #expect(try SplashBinary.run(linked, ["show", "Starting", "--socket", d.socket]).0 == 0)
        for args in [["state", "--field", "status"], ["progress", "lots"], ["image", "/nonexistent.png", "x"], ["ping", "--bogus"]] {
            let answers = try both(args)
            #expect(answers[0] == answers[1], "\(args)")
        }
        #expect(try SplashBinary.run(linked, ["state", "--field", "status", "--socket", d.socket]) == (0, "Starting\n"))
        #expect(try SplashBinary.run(linked, ["progress", "lots", "--socket", d.socket]).0 == 64)
        d.end()
        let (absent, output) = try SplashBinary.run(linked, ["ping", "--socket", d.socket])
        #expect(absent == 69 && output.contains("no splashhudd answers"), "\(output)")
    }

    @Test func itsHelpIsTheClients() throws {
        let (status, help) = try SplashBinary.run(try Self.link(), ["--help"])
        let own = try SplashBinary.run(try SplashBinary.path(), ["--help"]).1
        #expect(status == 0 && help == own)
        #expect(help.contains("splashhud") && !help.contains("--display"), "\(help.prefix(400))")
    }

    @Test func underItsOwnNameItIsTheDaemon() throws {
        let (status, help) = try SplashBinary.run(try SplashBinary.path("splashhudd"), ["--help"])
        #expect(status == 0 && help.contains("--display"), "\(help.prefix(400))")
    }
}
