// SPDX-License-Identifier: MIT
// What the initramfs hook and the dracut module put in for text (initramfs/splashhud-fonts, over
// `splashhud-tools faces`): DejaVu Sans, a face a status in another script needs (whole when small),
// and a CJK face cut by hb-subset to the status's characters, each at the installed face's path so
// the chain is the same in the image and in the real root.
import Assets
import Foundation
import Testing

@Suite("initramfs fonts")
struct InitramfsFontsTests {
    static let script = "\(InitramfsScriptsTests.dir)/splashhud-fonts"
    static let arabic = "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf"
    static let cjk = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    static let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// splashhud-fonts with `status`, the tools of this build as PREFIX/bin/splashhud-tools: its
    /// "SOURCE TARGET" lines and the work directory holding the subsets.
    func fonts(status: String) throws -> (lines: [(source: String, target: String)], output: String, work: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-fonts-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: "\(root)/prefix/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(root)/work", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(root)/prefix/bin/splashhud-tools", withDestinationPath: try SplashBinary.path("splashhud-tools"))
        let (status, output) = try SplashBinary.run("/usr/bin/env", ["SPLASHHUD_STATUS=\(status)", "SPLASHHUD_FONTS=", "SPLASHHUD_PROFILE=",
                                                                     "/bin/sh", Self.script, "\(root)/prefix", "\(root)/work"])
        try #require(status == 0, "splashhud-fonts: \(output)")
        let lines = output.split(whereSeparator: \.isNewline).compactMap { line -> (String, String)? in
            let words = line.split(separator: " ")
            return words.count == 2 && words[0].hasPrefix("/") ? (String(words[0]), String(words[1])) : nil
        }
        return (lines, output, "\(root)/work")
    }

    @Test("an Arabic and Japanese status: DejaVu, Noto Sans Arabic whole, Noto Sans CJK cut to the status's characters")
    func arabicAndCJK() throws {
        for face in [Self.arabic, Self.cjk, Self.dejavu] {
            try #require(FileManager.default.fileExists(atPath: face), "\(face) missing: run scripts/setup.sh --tests")
        }
        let (lines, output, work) = try fonts(status: "تحديث 更新中 50%")
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: work).deletingLastPathComponent().path) }
        #expect(lines.contains { $0 == (Self.dejavu, Self.dejavu) }, "\(output)")
        #expect(lines.contains { $0 == (Self.arabic, Self.arabic) }, "the Arabic face is small: whole\n\(output)")
        let cut = try #require(lines.first { $0.target == Self.cjk }, "no CJK face:\n\(output)")
        #expect(cut.source.hasPrefix(work), "the CJK face must be a subset:\n\(output)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: cut.source)[.size] as? Int)
        #expect(size < 64 << 10, "the subset is \(size) bytes")
        // The subset has the status's ideographs and digits, and not one it never showed.
        let face = try FontFace(path: cut.source)
        for scalar in "更新中50%".unicodeScalars { #expect(face.glyphIndex(for: scalar) != 0, "U+\(String(scalar.value, radix: 16)) missing") }
        #expect(face.glyphIndex(for: "語") == 0)
        #expect(lines.count == 3, "\(output)")
    }

    @Test("a Latin status needs only DejaVu Sans")
    func latinOnly() throws {
        let (lines, output, work) = try fonts(status: "Updating 50%")
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: work).deletingLastPathComponent().path) }
        #expect(lines.map(\.target) == [Self.dejavu], "\(output)")
    }
}
