// SPDX-License-Identifier: MIT
// The relink kit (scripts/relink, LGPL 2.1 section 6): the static daemon and client made from
// their link records into relocatable objects without glibc, FriBidi, libthai, libdatrie or
// libqrencode, linked again by the kit's relink.sh against Debian's archives (and the kit's own
// libqrencode.a, which Debian does not ship), and run: the relinked daemon draws the
// frames the original draws, and the archives a user names are the ones linked.
import Foundation
import Testing

@Suite("the relink kit", .serialized, .enabled(if: LinkRecords.available))
struct RelinkKitTests {
    /// The kit of both programs, made once: its directory, or why there is none.
    static let kit: Result<String, LinkRecords.RecordError> = {
        do {
            let records = try LinkRecords.directory.get()
            let dir = "\(records)/kit"
            let (status, output) = try LinkRecords.python("scripts/relink/make-kit.py",
                                                          ["--out", dir, "\(records)/splashhudd.json", "\(records)/splashhud.json"])
            return status == 0 ? .success(dir) : .failure(LinkRecords.RecordError(text: "make-kit.py: \(status) \(output)"))
        } catch {
            return .failure(LinkRecords.RecordError(text: "\(error)"))
        }
    }()

    /// relink.sh [-L DIR] PROGRAM into a new file: its path, exit status and output.
    func relink(_ program: String, libraries: String? = nil) throws -> (String, Int32, String) {
        let kit = try Self.kit.get()
        let out = "\(try temporaryDirectory("relinked"))/\(program)"
        let (status, output) = try SplashBinary.run("\(kit)/relink.sh", (libraries.map { ["-L", $0] } ?? []) + [program, out])
        return (out, status, output)
    }

    @Test func theKitHoldsNoneOfTheLGPLCode() throws {
        let object = "\(try temporaryDirectory("kit-object"))/splashhudd.o"
        #expect(try SplashBinary.run("/bin/sh", ["-c", "xz -dc \"$0\" > \"$1\"", "\(try Self.kit.get())/splashhudd.o.xz", object]).0 == 0)
        let (status, symbols) = try SplashBinary.run("/usr/bin/nm", [object])
        #expect(status == 0)
        let defined = symbols.split(separator: "\n").filter { !$0.contains(" U ") && !$0.contains(" w ") && !$0.contains(" v ") }
            .compactMap { $0.split(separator: " ").last.map(String.init) }
        let undefined = Set(symbols.split(separator: "\n").filter { $0.contains(" U ") }.compactMap { $0.split(separator: " ").last.map(String.init) })
        // The list is real: our code and the libraries kept inside are there, and call the LGPL ones.
        #expect(defined.contains("splashhudd_main") && defined.contains("FT_Init_FreeType") && defined.contains("swift_retain"))
        #expect(undefined.isSuperset(of: ["fribidi_get_par_embedding_levels_ex", "th_brk_new", "QRcode_encodeString", "malloc", "pthread_create"]))
        let lgpl = defined.filter {
            $0.hasPrefix("fribidi_") || $0.hasPrefix("th_") || $0.hasPrefix("trie_") || $0.hasPrefix("QRcode_") || $0 == "malloc"
                || $0 == "__libc_start_main"
        }
        #expect(lgpl.isEmpty, "the kit defines \(lgpl.prefix(10))")
    }

    @Test func theRelinkedDaemonDrawsWhatTheOriginalDraws() throws {
        let (relinked, status, output) = try relink("splashhudd")
        #expect(status == 0, "\(output)")
        #expect(try SplashBinary.run(relinked, ["--version"]) == SplashBinary.run(LinkRecords.daemon, ["--version"]))
        #expect(try frame(of: relinked) == frame(of: LinkRecords.daemon), "the relinked daemon drew another frame")
    }

    @Test func theRelinkedClientDrivesTheDaemon() throws {
        let (relinked, status, output) = try relink("splashhud")
        #expect(status == 0, "\(output)")
        #expect(try SplashBinary.run(relinked, ["--version"]) == SplashBinary.run(LinkRecords.client, ["--version"]))
        let d = try DaemonProcessTests.Running(executable: LinkRecords.daemon)
        defer { d.end() }
        #expect(try SplashBinary.run(relinked, ["show", "Relinked", "--socket", d.socket]).0 == 0)
        #expect(try SplashBinary.run(relinked, ["state", "--field", "status", "--socket", d.socket]) == (0, "Relinked\n"))
    }

    /// A directory given with -L comes first: a libfribidi.a without FriBidi in it leaves the
    /// daemon's calls to it unresolved (the kit brings none of its own), and a libqrencode.a
    /// without libqrencode wins over the kit's own.
    @Test(arguments: [("libfribidi.a", "fribidi_"), ("libqrencode.a", "QRcode_")])
    func theArchivesGivenAreTheOnesLinked(archive: String, prefix: String) throws {
        let dir = try temporaryDirectory("not-\(archive)")
        try "int splashhud_not_the_library;\n".write(toFile: "\(dir)/not.c", atomically: true, encoding: .utf8)
        #expect(try SplashBinary.run("/usr/bin/env", ["cc", "-c", "\(dir)/not.c", "-o", "\(dir)/not.o"]).0 == 0)
        #expect(try SplashBinary.run("/usr/bin/env", ["ar", "rc", "\(dir)/\(archive)", "\(dir)/not.o"]).0 == 0)
        let (_, status, output) = try relink("splashhudd", libraries: dir)
        #expect(status != 0 && output.contains("undefined reference to `\(prefix)"), "\(status): \(output.suffix(600))")
    }

    /// The daemon's frame on the memory display once it is still: an image with a status (no
    /// spinner), snapshots taken until two in a row are equal.
    func frame(of daemon: String) throws -> Data? {
        let dir = try temporaryDirectory("relink-frame")
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../AssetsTests/Fixtures").standardized.path
        try FileManager.default.copyItem(atPath: "\(fixtures)/rgba8.png", toPath: "\(dir)/rgba8.png")
        let d = try DaemonProcessTests.Running(extra: ["--asset-dir", dir], dir: dir, executable: daemon)
        defer { d.end() }
        #expect(try d.client(["image", "\(dir)/rgba8.png", "Relinked"]).0 == 0)
        var last: Data?
        for n in 0..<40 {
            Thread.sleep(forTimeInterval: 0.25)
            #expect(try d.client(["snapshot", "\(dir)/\(n).png"]).0 == 0)
            let shot = FileManager.default.contents(atPath: "\(dir)/\(n).png")
            if shot != nil && shot == last { return shot }
            last = shot
        }
        Issue.record("\(daemon)'s frame never settled")
        return nil
    }
}
