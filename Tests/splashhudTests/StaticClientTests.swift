// SPDX-License-Identifier: MIT
// The client as `scripts/install.sh --static-stdlib` installs it: one fully static executable
// (-static-executable), where CEarlyStart's syscall() has no libc syscall() to hand over to and
// enters the kernel itself, for the Swift runtime's getrandom and futexes as for everything else.
// scripts/test.sh builds it and names it in SPLASHHUD_STATIC_CLIENT.
import Foundation
import Testing

@Suite("the fully static client", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["SPLASHHUD_STATIC_CLIENT"] != nil))
struct StaticClientTests {
    let client = ProcessInfo.processInfo.environment["SPLASHHUD_STATIC_CLIENT"] ?? ""

    @Test func noDynamicLoaderRunsForIt() throws {
        let (status, output) = try SplashBinary.run("/usr/bin/ldd", [client])
        #expect(status != 0 && output.contains("not a dynamic executable"), "\(output)")
    }

    @Test func itDrivesTheDaemonWithTheSameAnswersAndStatuses() throws {
        let d = try DaemonProcessTests.Running()
        defer { d.end() }
        func run(_ args: [String]) throws -> (Int32, String) {
            try SplashBinary.run(client, args + ["--socket", d.socket])
        }
        #expect(try run(["show", "Starting", "services"]).0 == 0)
        #expect(try run(["state", "--field", "status"]) == (0, "Starting services\n"))
        #expect(try run(["progress", "0.25", "Copying"]).0 == 0)
        #expect(try run(["state", "--field", "progress"]) == (0, "0.25\n"))
        let (refused, reason) = try run(["image", "/nonexistent.png", "x"])
        #expect(refused == 65 && reason.contains("is not a file in the asset directories"), "\(reason)")
        #expect(try run(["progress", "lots"]).0 == 64)
        let shot = "\(d.dir)/shot.png"
        #expect(try run(["snapshot", shot]) == (0, "\(shot): memory 200x120\n"))
        #expect(FileManager.default.contents(atPath: shot)?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        d.end()
        let (absent, output) = try run(["ping"])
        #expect(absent == 69 && output.contains("no splashhudd answers"), "\(output)")
    }
}
