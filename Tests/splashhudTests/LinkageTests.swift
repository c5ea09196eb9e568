// SPDX-License-Identifier: MIT
// Each binary links what it calls. The daemon and the client run in early boot, from an initramfs:
// neither may need Foundation, FoundationEssentials or ICU (81 MB of libraries with its data), nor
// call into _StringProcessing. The client needs none of the display stack's libraries (libdrm,
// FreeType, libpng, zlib, the text stack: HarfBuzz, FriBidi, libunibreak, libthai), and so neither
// does a program using the Swift HUDClient library (ClientCommand's dependencies include all of
// HUDClient's); the MQTT bridge (resident on every kiosk) needs neither libdrm nor FreeType, the
// text stack or Foundation; the update frameworks' adapter (resident too) none of the display or
// text stack, libmosquitto or Foundation (libsystemd's sd-bus it needs, for RAUC); the daemon not
// libmosquitto or libsystemd (it runs before any network). libqrencode (the support QR code of a
// failed update) is the daemon's alone: not the client's, the bridge's or the adapter's. Checked on
// what the dynamic loader would really load (ldd: each binary's dynamic section, then its
// libraries' in turn) and on the static builds' link records (every archive member the linker
// took, scripts/relink/record-link.py).
import Foundation
import Testing

@Suite struct LinkageTests {
    static let text = ["libfreetype", "libharfbuzz", "libfribidi", "libunibreak", "libthai"]

    /// What ldd says `program` loads, each by its file name ("libdrm.so.2").
    func libraries(_ program: String) throws -> [String] {
        let (status, output) = try SplashBinary.run("/usr/bin/ldd", [try SplashBinary.path(program)])
        #expect(status == 0, "\(output)")
        return output.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Whether a library file or archive name ("libpng16.so.16", "libpng16.a") is `library`'s:
    /// the name, then a version number if any, then a dot ("libpng" is libpng16's, "libz" is not
    /// libzstd's).
    static func names(_ file: String, _ library: String) -> Bool {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        guard base.hasPrefix(library) else { return false }
        let rest = base.dropFirst(library.count)
        return rest.drop { $0.isNumber }.first == "."
    }

    /// `forbidden` absent from `files`, and `expected` present (the list is real).
    static func check(_ name: String, _ files: [String], forbidden: [String], expected: [String]) {
        let found = forbidden.filter { library in files.contains { names($0, library) } }
        #expect(found.isEmpty, "\(name) links \(found.joined(separator: ", ")): \(files)")
        for library in expected { #expect(files.contains { names($0, library) }, "\(name) should link \(library): \(files)") }
    }

    @Test(arguments: ["splashhudd", "splashhud", "splashhud-mqtt", "splashhud-updates"])
    func noFoundationAtBootOrOnEveryKiosk(program: String) throws {
        let libs = try libraries(program)
        #expect(libs.contains { $0.hasPrefix("libswiftCore") }, "\(libs)")  // the list is real
        let foundation = libs.filter { $0.contains("Foundation") || $0.contains("icu") || $0.contains("ICU") }
        #expect(foundation.isEmpty, "\(program) loads \(foundation)")
    }

    @Test func eachDynamicBinaryLoadsOnlyWhatItCalls() throws {
        Self.check("splashhud", try libraries("splashhud"),
                   forbidden: ["libdrm", "libpng", "libz", "libmosquitto", "libqrencode"] + Self.text, expected: ["libc"])
        Self.check("splashhud-mqtt", try libraries("splashhud-mqtt"),
                   forbidden: ["libdrm", "libqrencode"] + Self.text, expected: ["libmosquitto", "libpng"])
        Self.check("splashhud-updates", try libraries("splashhud-updates"),
                   forbidden: ["libdrm", "libpng", "libz", "libmosquitto", "libqrencode"] + Self.text, expected: ["libc", "libsystemd"])
        Self.check("splashhudd", try libraries("splashhudd"),
                   forbidden: ["libmosquitto", "libsystemd"], expected: ["libdrm", "libpng", "libqrencode"] + Self.text)
    }

    /// Neither calls into _StringProcessing (Regex and the string algorithms built on it:
    /// `contains(_:)` with a string, `firstRange(of:)`, `replacing(_:with:)`): linked statically,
    /// it brings the regex parser and the Unicode name tables, 1.3 MB of each binary and of the
    /// initramfs. Its imports are the dynamic symbols these debug builds leave undefined.
    @Test(arguments: ["splashhudd", "splashhud"])
    func noStringProcessing(program: String) throws {
        let (status, output) = try SplashBinary.run("/usr/bin/nm", ["-u", try SplashBinary.path(program)])
        #expect(status == 0 && output.contains("swift_retain"), "\(output.prefix(300))")  // the list is real
        let uses = output.split(separator: "\n").filter { $0.contains("17_StringProcessing") || $0.contains("12_RegexParser") }
        #expect(uses.isEmpty, "\(program) calls \(uses.prefix(5))")
    }

    /// The tools that never run at boot keep ArgumentParser (and so FoundationEssentials).
    @Test func theToolsAreWhereFoundationStays() throws {
        #expect(try libraries("splashhud-tools").contains { $0.contains("Foundation") })
    }

    /// The archives the static link of `product` took members from ("…/libdrm.a").
    static func archives(_ product: String) throws -> [String] {
        let inputs = try LinkRecords.record(product)["inputs"] as? [[String: String]] ?? []
        return inputs.compactMap { $0["member"] != nil ? $0["file"] : nil }
    }

    @Test(.enabled(if: LinkRecords.available, "needs the static builds (scripts/test.sh)"))
    func theStaticLinksTakeNothingFromWhatTheyDoNotCall() throws {
        Self.check("static splashhud", try Self.archives("splashhud"),
                   forbidden: ["libdrm", "libpng", "libz", "libmosquitto", "libqrencode"] + Self.text, expected: ["libc"])
        Self.check("static splashhudd", try Self.archives("splashhudd"),
                   forbidden: ["libmosquitto", "libsystemd"], expected: ["libdrm", "libpng", "libqrencode"] + Self.text)
    }
}
