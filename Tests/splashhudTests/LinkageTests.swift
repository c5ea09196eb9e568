// SPDX-License-Identifier: MIT
// Each binary links what it calls: the client neither libdrm nor FreeType, libpng or the text
// stack (HarfBuzz, FriBidi, libunibreak, libthai); the MQTT bridge neither libdrm nor FreeType or
// the text stack; the daemon not libmosquitto (it runs before any network); none of the three
// Foundation or ICU (they run at boot or stay resident: architecture.md). Read from the dynamic build's binaries (readelf -d,
// their DT_NEEDED entries) and from the static builds' link records (every archive member the
// linker took, scripts/relink/record-link.py). The Swift HUDClient library is held to the client's
// rule through the client: ClientCommand's dependencies include all of HUDClient's.
import Foundation
import Testing

@Suite("what each binary links")
struct LinkageTests {
    static let text = ["libfreetype", "libharfbuzz", "libfribidi", "libunibreak", "libthai"]
    static let foundation = ["libFoundation", "libFoundationEssentials", "libFoundationInternationalization", "lib_FoundationICU"]

    /// The libraries `binary` names in its dynamic section, without their versions ("libdrm").
    static func needed(_ binary: String) throws -> Set<String> {
        let (status, output) = try SplashBinary.run("/usr/bin/readelf", ["-d", "-W", binary])
        try #require(status == 0, "readelf -d \(binary): \(output)")
        return Set(output.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close].prefix { $0 != "." })
        })
    }

    /// `forbidden` absent from what `libraries` names, and `expected` present (the reading works).
    static func check(_ name: String, _ libraries: Set<String>, forbidden: [String], expected: [String]) {
        let found = forbidden.filter(libraries.contains)
        #expect(found.isEmpty, "\(name) links \(found.joined(separator: ", ")): \(libraries.sorted())")
        for library in expected { #expect(libraries.contains(library), "\(name) should link \(library): \(libraries.sorted())") }
    }

    @Test func theDynamicBinariesNeedOnlyTheirOwnLibraries() throws {
        Self.check("splashhud", try Self.needed(try SplashBinary.path("splashhud")),
                   forbidden: ["libdrm", "libpng16", "libz", "libmosquitto"] + Self.text + Self.foundation, expected: ["libc"])
        Self.check("splashhud-mqtt", try Self.needed(try SplashBinary.path("splashhud-mqtt")),
                   forbidden: ["libdrm"] + Self.text + Self.foundation, expected: ["libmosquitto", "libpng16"])
        Self.check("splashhudd", try Self.needed(try SplashBinary.path("splashhudd")),
                   forbidden: ["libmosquitto"] + Self.foundation, expected: ["libdrm", "libpng16"] + Self.text)
        // splashhud-tools may use Foundation (never at boot): the reading tells it apart.
        Self.check("splashhud-tools", try Self.needed(try SplashBinary.path("splashhud-tools")),
                   forbidden: ["libmosquitto"], expected: ["libFoundation"])
    }

    /// The archives (libdrm.a: "libdrm") the static link of `product` took members from.
    static func archives(_ product: String) throws -> Set<String> {
        let inputs = try LinkRecords.record(product)["inputs"] as? [[String: String]] ?? []
        return Set(inputs.compactMap { input -> String? in
            guard input["member"] != nil, let file = input["file"] else { return nil }
            return String(URL(fileURLWithPath: file).lastPathComponent.prefix { $0 != "." })
        })
    }

    @Test(.enabled(if: LinkRecords.available, "needs the static builds (scripts/test.sh)"))
    func theStaticLinksTakeNothingFromWhatTheyDoNotCall() throws {
        Self.check("static splashhud", try Self.archives("splashhud"),
                   forbidden: ["libdrm", "libpng16", "libz", "libmosquitto"] + Self.text, expected: ["libc"])
        Self.check("static splashhudd", try Self.archives("splashhudd"),
                   forbidden: ["libmosquitto"], expected: ["libdrm", "libpng16"] + Self.text)
    }
}
