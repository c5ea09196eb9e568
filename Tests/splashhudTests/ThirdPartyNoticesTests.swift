// SPDX-License-Identifier: MIT
// THIRD-PARTY-NOTICES from what the binaries really link (scripts/third-party-notices.py): every
// file the static daemon's and client's links took, and every shared library the tools load, has
// its library's entry and copyright text; a file without an entry fails the generator, so a
// library linked in later without its notice fails this suite.
import Foundation
import Testing

@Suite("third-party notices", .serialized, .enabled(if: LinkRecords.available))
struct ThirdPartyNoticesTests {
    /// Runs the generator on the static daemon and client (with their records) and `more` binaries.
    func notices(records: [String]? = nil, more: [String] = []) throws -> (Int32, String, String) {
        let dir = try LinkRecords.directory.get()
        let out = "\(dir)/notices-\(UInt32.random(in: 0...UInt32.max))"
        let records = records ?? ["\(dir)/splashhudd.json", "\(dir)/splashhud.json"]
        let (status, log) = try LinkRecords.python("scripts/third-party-notices.py",
            records.flatMap { ["--record", $0] } + ["-o", out, LinkRecords.daemon, LinkRecords.client] + more)
        return (status, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "", log)
    }

    /// The section listing what `program` contains or loads.
    func section(_ text: String, _ program: String) -> String {
        guard let start = text.range(of: "\n\(program):\n") else { return "" }
        let rest = text[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n\n")?.lowerBound ?? rest.endIndex)])
    }

    @Test func theRecordsAreOfTheseVeryBinaries() throws {
        for product in ["splashhudd", "splashhud"] {
            let record = try LinkRecords.record(product)
            // The repeated link gave the tested binary's bytes: the record lists what is in it.
            #expect(record["identical"] as? Bool == true, "\(product): the repeated link differs")
            #expect(record["static_executable"] as? Bool == true)
        }
        let inputs = try LinkRecords.record("splashhudd")["inputs"] as? [[String: String]] ?? []
        let archives = Set(inputs.compactMap { $0["member"] != nil ? URL(fileURLWithPath: $0["file"]!).lastPathComponent : nil })
        for archive in ["libc.a", "libfribidi.a", "libthai.a", "libdatrie.a", "libqrencode.a", "libfreetype.a", "libharfbuzz.a",
                        "libswiftCore.a"] {
            #expect(archives.contains(archive), "the daemon's link took nothing from \(archive): \(archives.sorted())")
        }
    }

    @Test func everyLibraryTheProgramsLinkHasItsNotice() throws {
        let tools = try SplashBinary.path("splashhud-tools"), bridge = try SplashBinary.path("splashhud-mqtt")
        let updates = try SplashBinary.path("splashhud-updates")
        let (status, text, log) = try notices(more: [tools, bridge, updates])
        #expect(status == 0, "\(log)")
        let daemon = section(text, "splashhudd")
        for library in ["GNU C Library (glibc)", "GNU FriBidi", "libthai", "libdatrie", "FreeType", "HarfBuzz", "libpng",
                        "zlib", "libdrm", "Brotli", "libunibreak", "libqrencode", "Swift runtime", "GCC runtime libraries", "Swift System"] {
            #expect(daemon.contains("- \(library)"), "splashhudd's list lacks \(library):\n\(daemon)")
        }
        // The client draws nothing: no text or image library.
        let client = section(text, "splashhud")
        #expect(client.contains("- GNU C Library (glibc)") && !client.contains("FreeType") && !client.contains("FriBidi")
                && !client.contains("libqrencode"), "\(client)")
        #expect(section(text, "splashhud-mqtt").contains("- Mosquitto client library"))
        let adapter = section(text, "splashhud-updates")
        #expect(adapter.contains("- Swift runtime") && adapter.contains("- libsystemd (sd-bus)") && !adapter.contains("FreeType") && !adapter.contains("Mosquitto"), "\(adapter)")
        // The texts themselves: Debian's copyright files and the licences they only name.
        for text_ in ["The FreeType Project LICENSE", "GNU LESSER GENERAL PUBLIC LICENSE", "Upstream-Name: FriBidi",
                      "Runtime Library Exception", "GCC RUNTIME LIBRARY EXCEPTION"] {
            #expect(text.contains(text_), "no '\(text_)' in the notices: \(text.prefix(3000))")
        }
        #expect(text.replacingOccurrences(of: "\n", with: " ").contains("relink script in /usr/lib/splashhud/relink"),
                "\(text.prefix(3000))")
    }

    @Test func aFileNoEntryClaimsIsAnError() throws {
        let dir = try LinkRecords.directory.get()
        var record = try LinkRecords.record("splashhudd")
        var inputs = record["inputs"] as? [[String: String]] ?? []
        inputs.append(["file": "/usr/lib/x86_64-linux-gnu/libsplashhud-unheard-of.a", "member": "new.o"])
        record["inputs"] = inputs
        let changed = "\(dir)/unknown-library.json"
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: changed))
        let (status, _, log) = try notices(records: [changed, "\(dir)/splashhud.json"])
        #expect(status == 1 && log.contains("no notice entry for /usr/lib/x86_64-linux-gnu/libsplashhud-unheard-of.a"), "\(status): \(log)")
    }

    @Test func aStaticProgramWithoutItsRecordIsAnError() throws {
        let (status, _, log) = try notices(records: ["\(try LinkRecords.directory.get())/splashhud.json"])
        #expect(status == 1 && log.contains("splashhudd loads no shared library and has no link record"), "\(status): \(log)")
    }
}
