// SPDX-License-Identifier: MIT
// The link records of the fully static daemon and client scripts/test.sh builds
// (SPLASHHUD_STATIC_DAEMON, SPLASHHUD_STATIC_CLIENT), made once per test process by
// scripts/relink/record-link.py, which repeats each link from SwiftPM's manifest with --trace.
import Foundation

enum LinkRecords {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized.path
    static let daemon = ProcessInfo.processInfo.environment["SPLASHHUD_STATIC_DAEMON"] ?? ""
    static let client = ProcessInfo.processInfo.environment["SPLASHHUD_STATIC_CLIENT"] ?? ""
    static var available: Bool { !daemon.isEmpty && !client.isEmpty }

    /// A directory holding splashhudd.json and splashhud.json, or why there is none.
    static let directory: Result<String, RecordError> = {
        do {
            let dir = try temporaryDirectory("link-records")
            for binary in [daemon, client] {
                // BIN_PATH is SCRATCH/TRIPLE/CONFIGURATION/PRODUCT.
                let url = URL(fileURLWithPath: binary).resolvingSymlinksInPath()
                let configuration = url.deletingLastPathComponent().lastPathComponent
                let scratch = url.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
                let product = url.lastPathComponent
                let (status, output) = try SplashBinary.run("/usr/bin/env", [
                    "python3", "\(repository)/scripts/relink/record-link.py", "--scratch-path", scratch,
                    "-c", configuration, "--product", product, "-o", "\(dir)/\(product).json"])
                guard status == 0 else { return .failure(RecordError(text: "record-link.py \(product): \(status) \(output)")) }
            }
            return .success(dir)
        } catch {
            return .failure(RecordError(text: "\(error)"))
        }
    }()

    struct RecordError: Error, CustomStringConvertible { let text: String; var description: String { text } }

    static func record(_ product: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(try directory.get())/\(product).json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// `python3 SCRIPT ARGS` from the repository: exit status and output.
    static func python(_ script: String, _ arguments: [String]) throws -> (Int32, String) {
        try SplashBinary.run("/usr/bin/env", ["python3", "\(repository)/\(script)"] + arguments, timeout: 300)
    }
}
