// SPDX-License-Identifier: MIT
// Opening fonts that are missing, broken or not files: clear errors, never a crash.

import Assets
import Foundation
import Raster
import Testing

@Suite struct FontErrorTests {
    @Test func missingFileNamesThePath() {
        let path = "/nonexistent/fonts/Nope.ttf"
        #expect(throws: FontError.fileNotFound(path: path)) { try FontFace(path: path) }
        #expect(FontError.fileNotFound(path: path).description == "font file not found: /nonexistent/fonts/Nope.ttf")
    }

    /// Found by the font fuzz target: a face whose units per em and ascender make every scaled
    /// metric overflow 16.16 pixels (the layout trapped). It is refused when opened.
    @Test func implausibleMetricsAreRefused() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/font/crash-implausible-metrics").path
        do {
            _ = try FontFace(path: path)
            Issue.record("the fuzzer's font opened")
        } catch let error as FontError {
            guard case .implausibleMetrics(let p, let reason) = error else { Issue.record("unexpected \(error)"); return }
            #expect(p == path)
            #expect(reason.contains("units per em") || reason.contains("beyond 4 em"), "\(reason)")
            #expect(error.description.hasPrefix("not a usable font: \(path): "))
        }
    }

    @Test func corruptFileIsNotAFont() throws {
        let path = TestFonts.temporaryPath("garbage.ttf")
        try Data([0x00, 0x01, 0x00, 0x00, 0xDE, 0xAD, 0xBE, 0xEF, 0x13, 0x37]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try FontFace(path: path)
            Issue.record("garbage opened as a font")
        } catch let error as FontError {
            guard case let .notAFont(p, code, reason) = error else { Issue.record("unexpected \(error)"); return }
            #expect(p == path)
            #expect(code != 0)
            #expect(!reason.isEmpty && reason != "unknown FreeType error")
            #expect(error.description.hasPrefix("not a usable font: \(path): "))
            #expect(error.description.contains("FreeType error 0x"))
        }
    }

    @Test func textFileIsUnknownFormat() throws {
        let path = TestFonts.temporaryPath("notes.ttf")
        try Data("this is not a font\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: FontError.notAFont(path: path, code: 0x02, reason: "unknown file format")) {
            try FontFace(path: path)
        }
    }

    @Test func emptyFileAndDirectory() throws {
        let path = TestFonts.temporaryPath("empty.ttf")
        try Data().write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: FontError.self) { try FontFace(path: path) }
        #expect(throws: FontError.unreadable(path: "/tmp", reason: "Is a directory")) { try FontFace(path: "/tmp") }
    }

    @Test func searchWithNothingUsableNamesEveryPath() throws {
        let garbage = TestFonts.temporaryPath("broken.ttf")
        try Data("nope".utf8).write(to: URL(fileURLWithPath: garbage))
        defer { try? FileManager.default.removeItem(atPath: garbage) }
        let paths = ["/nonexistent/a.ttf", garbage, "/nonexistent/b.otf"]
        do {
            _ = try FontChain(paths: paths)
            Issue.record("a chain loaded from nothing")
        } catch let error as FontError {
            guard case let .noUsableFont(searched, reasons) = error else { Issue.record("unexpected \(error)"); return }
            #expect(searched == paths)
            #expect(reasons.count == 3)
            #expect(error.description.hasPrefix("no usable font: searched /nonexistent/a.ttf, \(garbage), /nonexistent/b.otf ("))
            #expect(error.description.contains("font file not found: /nonexistent/a.ttf"))
            #expect(error.description.contains("unknown file format"))
        }
        #expect(throws: FontError.noUsableFont(searched: [], reasons: [])) { try FontChain(paths: []) }
        #expect(FontError.noUsableFont(searched: [], reasons: []).description == "no usable font: searched no paths")
    }

    @Test func chainSkipsMissingFiles() throws {
        let chain = try FontChain(paths: ["/nonexistent/a.ttf", TestFonts.dejaVu, "/nonexistent/b.ttf"])
        #expect(chain.faces.count == 1)
        #expect(chain.primary.familyName == "DejaVu Sans")
        #expect(chain.skipped == [.fileNotFound(path: "/nonexistent/a.ttf"), .fileNotFound(path: "/nonexistent/b.ttf")])
    }
}
