// SPDX-License-Identifier: MIT
// Golden-image checks for every test target.
//
//   expectGolden(pixmap, "spinner-quarter", suite: "Spinner")     // or a PixmapView
//
// compares the view bit-exactly (or within `maxChannelDelta`) with the golden PNG kept in the
// SOURCE tree at `Tests/<TestTarget>/Golden/<suite>/<name>.png`, where <TestTarget> is the test
// directory of the calling file (found from `#filePath`). Goldens hold premultiplied pixels
// losslessly: see GoldenImage.swift for the format.
//
//  - `RECORD_GOLDENS=1 swift test …` (re)writes the goldens and passes, noting each write as a
//    warning; review and commit the PNGs.
//  - A missing golden fails, saying how to record it.
//  - A mismatch fails with the number of differing pixels and the largest channel difference, and
//    writes `<name>.actual.png` (golden format: copy it over the golden to accept it) and
//    `<name>.diff.png` (differences in red over a dimmed grey copy of the golden) into
//    `<package root>/.build/golden-failures/<suite>/`. A later match removes them.

import Assets
import Foundation
import Raster
import Testing

/// The result of one golden comparison.
public enum GoldenResult: Equatable, Sendable {
    case matched
    /// Record mode wrote (or confirmed) the golden at this path.
    case recorded(goldenPath: String)
    /// No golden exists and record mode is off.
    case missing(goldenPath: String)
    /// The golden exists but could not be read or decoded.
    case unreadable(goldenPath: String, reason: String)
    case mismatched(GoldenMismatch)
}

/// Why a view did not match its golden, and where the evidence was written.
public struct GoldenMismatch: Equatable, Sendable {
    public var goldenPath: String
    public var expectedSize: (width: Int32, height: Int32)
    public var actualSize: (width: Int32, height: Int32)
    /// Pixels whose largest channel difference exceeds the tolerance (all of them if sizes differ).
    public var differingPixels: Int
    /// Largest channel difference over the whole image (0 if sizes differ).
    public var maxChannelDelta: UInt8
    /// The files written for inspection (nil if writing failed or, for the diff, sizes differ).
    public var actualPath: String?
    public var diffPath: String?

    public static func == (l: GoldenMismatch, r: GoldenMismatch) -> Bool {
        l.goldenPath == r.goldenPath && l.expectedSize == r.expectedSize && l.actualSize == r.actualSize
            && l.differingPixels == r.differingPixels && l.maxChannelDelta == r.maxChannelDelta
            && l.actualPath == r.actualPath && l.diffPath == r.diffPath
    }
}

/// Where goldens and failure output go for a test file: `<root>/Tests/<Target>/Golden` and
/// `<root>/.build/golden-failures`, `<root>` being the nearest ancestor holding Package.swift.
public struct GoldenLocations: Sendable {
    public var goldenDirectory: String
    public var failureDirectory: String

    public init(goldenDirectory: String, failureDirectory: String) {
        self.goldenDirectory = goldenDirectory; self.failureDirectory = failureDirectory
    }

    public init(forTestFile filePath: String) {
        let file = URL(fileURLWithPath: filePath).standardizedFileURL
        var directory = file.deletingLastPathComponent()
        var root: URL?
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                root = directory
                break
            }
            directory = directory.deletingLastPathComponent()
        }
        guard let root else {
            // Not inside a package: keep everything beside the test file.
            let here = file.deletingLastPathComponent()
            self.init(goldenDirectory: here.appendingPathComponent("Golden").path,
                      failureDirectory: here.appendingPathComponent("golden-failures").path)
            return
        }
        // The test target is the first directory under <root>/Tests on the way to the file.
        let relative = Array(file.pathComponents.dropFirst(root.pathComponents.count))
        let target = relative.count >= 3 && relative[0] == "Tests" ? relative[1] : file.deletingLastPathComponent().lastPathComponent
        self.init(goldenDirectory: root.appendingPathComponent("Tests").appendingPathComponent(target).appendingPathComponent("Golden").path,
                  failureDirectory: root.appendingPathComponent(".build").appendingPathComponent("golden-failures").path)
    }
}

/// True when the environment asks to (re)record goldens: `RECORD_GOLDENS` set to anything but
/// empty, `0`, `false` or `no`.
public var isRecordingGoldens: Bool {
    guard let value = ProcessInfo.processInfo.environment["RECORD_GOLDENS"]?.lowercased() else { return false }
    return !["", "0", "false", "no"].contains(value)
}

/// Compares `view` with `<goldenDirectory>/<suite>/<name>.png` without reporting anything to the
/// test runner (`expectGolden` does that). With `record`, writes the golden instead.
/// Throws only when recording or writing cannot be done at all.
public func compareGolden(_ view: PixmapView, name: String, suite: String, locations: GoldenLocations,
                          maxChannelDelta: UInt8 = 0, record: Bool) throws -> GoldenResult {
    precondition(isSafeComponent(name) && isSafeComponent(suite), "golden name and suite must be plain file names: \(suite)/\(name)")
    let suiteDirectory = (locations.goldenDirectory as NSString).appendingPathComponent(suite)
    let goldenPath = (suiteDirectory as NSString).appendingPathComponent(name + ".png")
    let failures = (locations.failureDirectory as NSString).appendingPathComponent(suite)
    let actualPath = (failures as NSString).appendingPathComponent(name + ".actual.png")
    let diffPath = (failures as NSString).appendingPathComponent(name + ".diff.png")

    if record {
        let bytes = try GoldenImage.encode(view)
        try FileManager.default.createDirectory(atPath: suiteDirectory, withIntermediateDirectories: true)
        // Leave an identical file alone so recording does not touch unchanged goldens.
        if (try? PNGFile.read(goldenPath)) != bytes { try PNGFile.write(bytes, to: goldenPath) }
        removeStale(actualPath, diffPath)
        return .recorded(goldenPath: goldenPath)
    }

    guard FileManager.default.fileExists(atPath: goldenPath) else { return .missing(goldenPath: goldenPath) }
    let expected: Pixmap
    do {
        expected = try GoldenImage.decode(PNGFile.read(goldenPath))
    } catch {
        return .unreadable(goldenPath: goldenPath, reason: "\(error)")
    }

    return compare(expected.view, view, goldenPath: goldenPath, actualPath: actualPath, diffPath: diffPath,
                   failures: failures, maxChannelDelta: maxChannelDelta)
}

private func compare(_ expected: PixmapView, _ view: PixmapView, goldenPath: String, actualPath: String, diffPath: String,
                     failures: String, maxChannelDelta: UInt8) -> GoldenResult {
    var mismatch = GoldenMismatch(goldenPath: goldenPath, expectedSize: (expected.width, expected.height),
                                  actualSize: (view.width, view.height), differingPixels: Int(view.width) * Int(view.height),
                                  maxChannelDelta: 0, actualPath: nil, diffPath: nil)
    let sameSize = expected.width == view.width && expected.height == view.height
    if sameSize {
        let (count, delta) = GoldenImage.difference(expected, view, tolerance: maxChannelDelta)
        if count == 0 {
            removeStale(actualPath, diffPath)
            return .matched
        }
        mismatch.differingPixels = count
        mismatch.maxChannelDelta = delta
    }

    // Evidence for a human; failing to write it must not hide the mismatch itself.
    try? FileManager.default.createDirectory(atPath: failures, withIntermediateDirectories: true)
    if view.width > 0, view.height > 0, let bytes = try? GoldenImage.encode(view), (try? PNGFile.write(bytes, to: actualPath)) != nil {
        mismatch.actualPath = actualPath
    }
    if sameSize, let bytes = try? PNGEncoder.encode(GoldenImage.diffImage(expected, view, tolerance: maxChannelDelta)),
       (try? PNGFile.write(bytes, to: diffPath)) != nil {
        mismatch.diffPath = diffPath
    }
    return .mismatched(mismatch)
}

/// Expects `view` to match the golden `Tests/<TestTarget>/Golden/<suite>/<name>.png` (see the
/// file header). `goldenDirectory` / `failureDirectory` override the locations derived from
/// `filePath`; `record` overrides `RECORD_GOLDENS`.
public func expectGolden(_ view: PixmapView, _ name: String, suite: String, maxChannelDelta: UInt8 = 0,
                         goldenDirectory: String? = nil, failureDirectory: String? = nil, record: Bool? = nil,
                         filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) {
    var locations = GoldenLocations(forTestFile: filePath)
    if let goldenDirectory { locations.goldenDirectory = goldenDirectory }
    if let failureDirectory { locations.failureDirectory = failureDirectory }
    let result: GoldenResult
    do {
        result = try compareGolden(view, name: name, suite: suite, locations: locations,
                                   maxChannelDelta: maxChannelDelta, record: record ?? isRecordingGoldens)
    } catch {
        Issue.record("golden \(suite)/\(name): cannot record: \(error)", sourceLocation: sourceLocation)
        return
    }
    if let message = describe(result, name: name, suite: suite, tolerance: maxChannelDelta) {
        if case .recorded = result {
            Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: sourceLocation)
        } else {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }
}

/// `expectGolden` for a whole pixmap.
public func expectGolden(_ pixmap: Pixmap, _ name: String, suite: String, maxChannelDelta: UInt8 = 0,
                         goldenDirectory: String? = nil, failureDirectory: String? = nil, record: Bool? = nil,
                         filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) {
    expectGolden(pixmap.view, name, suite: suite, maxChannelDelta: maxChannelDelta, goldenDirectory: goldenDirectory,
                 failureDirectory: failureDirectory, record: record, filePath: filePath, sourceLocation: sourceLocation)
}

/// `compareGolden` for a whole pixmap.
public func compareGolden(_ pixmap: Pixmap, name: String, suite: String, locations: GoldenLocations,
                          maxChannelDelta: UInt8 = 0, record: Bool) throws -> GoldenResult {
    try compareGolden(pixmap.view, name: name, suite: suite, locations: locations, maxChannelDelta: maxChannelDelta, record: record)
}

/// The failure (or record-mode note) text for a result; nil for a match.
public func describe(_ result: GoldenResult, name: String, suite: String, tolerance: UInt8 = 0) -> String? {
    switch result {
    case .matched:
        return nil
    case let .recorded(path):
        return "recorded golden \(suite)/\(name) at \(path) (record mode): review and commit it"
    case let .missing(path):
        return "golden \(suite)/\(name) does not exist at \(path); record it with `RECORD_GOLDENS=1 swift test --filter <this test>`, check the PNG, then commit it"
    case let .unreadable(path, reason):
        return "golden \(suite)/\(name) at \(path) cannot be decoded: \(reason); re-record it with RECORD_GOLDENS=1"
    case let .mismatched(m):
        var text: String
        if m.expectedSize != m.actualSize {
            text = "golden \(suite)/\(name): size differs: golden \(m.expectedSize.width)x\(m.expectedSize.height), actual \(m.actualSize.width)x\(m.actualSize.height)"
        } else {
            text = "golden \(suite)/\(name): \(m.differingPixels) of \(Int(m.actualSize.width) * Int(m.actualSize.height)) pixels differ"
                + " (max channel difference \(m.maxChannelDelta), tolerance \(tolerance))"
        }
        text += "\n  golden: \(m.goldenPath)"
        if let p = m.actualPath { text += "\n  actual: \(p)" }
        if let p = m.diffPath { text += "\n  diff:   \(p)" }
        if let p = m.actualPath ?? m.diffPath { text += "\n  failure output in \((p as NSString).deletingLastPathComponent)/" }
        text += "\n  if the change is intended, re-record with RECORD_GOLDENS=1"
        return text
    }
}

private func isSafeComponent(_ s: String) -> Bool {
    !s.isEmpty && s != "." && s != ".." && !s.contains("/") && !s.contains("\0")
}

private func removeStale(_ paths: String...) {
    for path in paths where FileManager.default.fileExists(atPath: path) { try? FileManager.default.removeItem(atPath: path) }
}

/// Whole-file bytes through Foundation (writes are atomic: temporary file + rename).
private enum PNGFile {
    static func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
