// SPDX-License-Identifier: MIT
// Finding the built `splashhud` executable beside the test bundle, running programs, and a fresh
// directory for a test's files.
import Foundation

enum SplashBinary {
    /// The `splashhud` (or `name`) executable of this build (the test target depends on it, so it is built).
    static func path(_ name: String = "splashhud") throws -> String {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        for b in Bundle.allBundles {
            let candidate = b.bundleURL.deletingLastPathComponent().appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(name) executable near \(CommandLine.arguments[0])"])
    }

    /// Runs `program` with `arguments` (standard input empty); returns its exit status and standard
    /// output + error. One still running after `timeout` seconds is killed (status -9).
    static func run(_ program: String, _ arguments: [String], timeout: Double = 120) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        p.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try p.run()
        let pid = p.processIdentifier
        let killer = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        killer.cancel()
        return (p.terminationReason == .uncaughtSignal ? -p.terminationStatus : p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// A new, empty directory under the temporary directory, named `splashhud-TAG-<random>`.
func temporaryDirectory(_ tag: String) throws -> String {
    let dir = NSTemporaryDirectory() + "splashhud-\(tag)-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}
