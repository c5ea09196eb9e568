// SPDX-License-Identifier: MIT
// The licence as the repository states it: LICENSE is the MIT licence, and every source file and
// script git tracks (Swift, C, shell, Python, and the extensionless scripts with a shebang) names it
// in an SPDX line near its top, so a file added without one fails here rather than shipping
// unlabelled.
import Foundation
import Testing

@Suite struct LicenceHeaderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The files git tracks, from the repository's own index.
    static func trackedFiles() throws -> [String] {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", root.path, "ls-files", "-z"]
        let pipe = Pipe()
        git.standardOutput = pipe
        try git.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        git.waitUntilExit()
        try #require(git.terminationStatus == 0, "git ls-files failed")
        return String(decoding: data, as: UTF8.self).split(separator: "\0").map(String.init)
    }

    /// Whether `path` (with its first bytes `head`) is code that must carry the SPDX line.
    static func isSource(_ path: String, head: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if ["swift", "c", "h", "sh", "py"].contains(where: { name.hasSuffix(".\($0)") }) { return true }
        // Extensionless scripts (initramfs hooks, .ci/run); not the fuzz corpora's seeds.
        return !name.contains(".") && !path.hasPrefix("Fuzz/corpus/") && head.hasPrefix("#!")
    }

    @Test func licenceIsMIT() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("LICENSE"), encoding: .utf8)
        #expect(text.hasPrefix("MIT License"))
        #expect(text.contains("Permission is hereby granted, free of charge"))
    }

    @Test func everySourceFileNamesTheLicence() throws {
        var checked = 0
        var missing: [String] = []
        for path in try Self.trackedFiles() {
            guard let handle = FileHandle(forReadingAtPath: Self.root.appendingPathComponent(path).path) else { continue }
            let head = String(decoding: handle.readData(ofLength: 400), as: UTF8.self)
            try handle.close()
            guard Self.isSource(path, head: head) else { continue }
            checked += 1
            // The first three lines: after a shebang or Package.swift's tools-version line.
            let top = head.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false).prefix(3)
            if !top.contains(where: { $0.contains("SPDX-License-Identifier: MIT") }) { missing.append(path) }
        }
        #expect(checked > 500, "only \(checked) source files found")
        #expect(missing.isEmpty, "no SPDX-License-Identifier line: \(missing.joined(separator: ", "))")
    }
}
