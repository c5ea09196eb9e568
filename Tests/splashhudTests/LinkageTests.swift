// SPDX-License-Identifier: MIT
// The daemon and the client run in early boot, from an initramfs: neither may need Foundation,
// FoundationEssentials or ICU (81 MB of libraries with its data), and the client needs none of
// the display stack's libraries. ldd lists what the dynamic loader would really load.
import Foundation
import Testing

@Suite struct LinkageTests {
    func libraries(_ program: String) throws -> [String] {
        let (status, output) = try SplashBinary.run("/usr/bin/ldd", [try SplashBinary.path(program)])
        #expect(status == 0, "\(output)")
        return output.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test(arguments: ["splashhudd", "splashhud"])
    func noFoundationAtBoot(program: String) throws {
        let libs = try libraries(program)
        #expect(libs.contains { $0.hasPrefix("libswiftCore") }, "\(libs)")  // the list is real
        let foundation = libs.filter { $0.contains("Foundation") || $0.contains("icu") || $0.contains("ICU") }
        #expect(foundation.isEmpty, "\(program) loads \(foundation)")
    }

    @Test func theClientNeedsNoDisplayStack() throws {
        let libs = try libraries("splashhud")
        for heavy in ["libfreetype", "libpng", "libz."] {
            #expect(!libs.contains { $0.hasPrefix(heavy) }, "splashhud loads \(heavy): \(libs)")
        }
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
}
