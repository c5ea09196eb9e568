// SPDX-License-Identifier: MIT
// Running a host-built program in the QEMU guest through scripts/qemu/vmtest.py, and finding the
// guest program of the end-to-end display tests, and the files a busybox guest needs to run ours.
import Foundation
import Raster
import Testing

/// One `vmtest.py run`: its exit status, everything it printed, and the guest's INFO lines.
struct VMRun {
    let status: Int32
    let output: String
    /// What the guest sent as "INFO ..." (vmtest logs them as "vmtest: guest said: INFO ..."), without "INFO ".
    let info: [String]
    /// vmtest's own summary ("bochs: status 0, 7 shot(s), boot 7.1 s, total 12.0 s").
    let summary: String
    /// The boot lock, still held after the boot when `analysis` asked for it (`VMBootLock.hold`).
    let lock: VMBootLock.Held?

    /// `verbose` makes vmtest print the guest console (the program's stdout) even on success;
    /// `files` (`SRC[:DEST]`) and `modules` go into the initramfs; `timed` runs this boot with no
    /// other VM beside it (`VMBootLock`), for tests whose guest measures time; `analysis` keeps
    /// the boot's (shared) lock after it, in `lock`, until the test releases it: for host-side work
    /// on the boot's dumps that takes a core for seconds, which no timed boot may run beside.
    init(
        display: String, program: String, shotsDir: String, cmdline: String = "", timeout: Int = 120, verbose: Bool = false,
        files: [String] = [], modules: [String] = [], timed: Bool = false, input: Bool = false, analysis: Bool = false,
        args: [String]
    ) throws {
        var argv = [VMSelftestTests.repo.appendingPathComponent("scripts/qemu/vmtest.py").path, "run",
                    "--display", display, "--program", program, "--shots-dir", shotsDir, "--timeout", "\(timeout)"]
        if !cmdline.isEmpty { argv += ["--cmdline", cmdline] }
        if verbose { argv.append("--verbose") }
        if input { argv.append("--input") }
        for file in files { argv += ["--file", file] }
        if !modules.isEmpty { argv += ["--modules", modules.joined(separator: ",")] }
        let held = try VMBootLock.hold(exclusive: timed)
        (status, output) = try runProcess("python3", argv + ["--args"] + args)
        if analysis { lock = held } else { held.release(); lock = nil }
        let lines = output.split(whereSeparator: \.isNewline).map(String.init)
        let marker = "guest said: INFO "
        info = lines.compactMap { line in line.range(of: marker).map { String(line[$0.upperBound...]) } }
        summary = lines.last { $0.hasPrefix("vmtest: \(display): status") }.map { String($0.dropFirst("vmtest: ".count)) } ?? "no summary"
    }

    /// fbcon's cursor cell in scanout pixels, from "CONSOLE columns lines x y" (/dev/vcsa).
    func cursorCell(width: Int32, height: Int32) -> IntRect? {
        guard let line = info.first(where: { $0.hasPrefix("CONSOLE ") }) else { return nil }
        let v = line.split(separator: " ").dropFirst().compactMap { Int32($0) }
        guard v.count == 4, v[0] > 0, v[1] > 0 else { return nil }
        let cellWidth = width / v[0], cellHeight = height / v[1]
        return IntRect(x: v[2] * cellWidth, y: v[3] * cellHeight, width: cellWidth, height: cellHeight)
    }
}

/// The guest program, `splashhud-display-guest`, built beside this test binary (`swift build
/// --build-tests` builds every executable target); built on demand when it is missing.
enum GuestProgram {
    enum Failure: Error, CustomStringConvertible {
        case build(product: String, log: String)
        var description: String {
            switch self { case .build(let product, let log): return "building \(product) failed:\n\(log)" }
        }
    }

    /// The executable `product` beside this test binary (`swift build --build-tests` builds every
    /// product), built now with the same scratch path and configuration when it is missing. With
    /// `release`, the optimised build of it, always brought up to date, in a scratch path of its own
    /// (`swift test` holds the lock of its own while it runs): for tests that time what a shipped
    /// binary does.
    static func path(product: String = "splashhud-display-guest", release: Bool = false) throws -> String {
        if release { return try releasePath(product: product) }
        // This process is .build/<triple>/<configuration>/SplashHUDPackageTests.xctest.
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        let program = dir.appendingPathComponent(product).path
        if FileManager.default.isExecutableFile(atPath: program) { return program }
        let (status, log) = try runProcess("swift", ["build", "--product", product,
                                                     "--scratch-path", dir.deletingLastPathComponent().deletingLastPathComponent().path,
                                                     "-c", dir.lastPathComponent])
        guard status == 0, FileManager.default.isExecutableFile(atPath: program) else {
            throw Failure.build(product: product, log: log)
        }
        return program
    }

    private static func releasePath(product: String) throws -> String {
        let scratch = VMSelftestTests.repo.appendingPathComponent(".build-release").path
        let (status, log) = try runProcess("swift", ["build", "-c", "release", "--product", product, "--scratch-path", scratch,
                                                     "--package-path", VMSelftestTests.repo.path])
        let program = "\(scratch)/release/\(product)"
        guard status == 0, FileManager.default.isExecutableFile(atPath: program) else {
            throw Failure.build(product: product, log: log)
        }
        return program
    }
}

/// Runs `program` (a path, or a name looked up on PATH) with `args` from the package root and
/// returns its exit status and everything it printed (stdout and stderr together).
func runProcess(_ program: String, _ args: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    if program.hasPrefix("/") {
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = args
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + args
    }
    process.currentDirectoryURL = VMSelftestTests.repo
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
}

/// Host binaries for a busybox guest: each with every shared library `ldd` names, as `--file`
/// arguments (the guest has no libraries of its own).
func guestFiles(_ binaries: [String]) throws -> [String] {
    var libs: Set<String> = []
    for binary in binaries {
        let (status, ldd) = try runProcess("/usr/bin/ldd", [binary])
        try #require(status == 0, "ldd \(binary): \(ldd)")
        for line in ldd.split(whereSeparator: \.isNewline) {
            if let lib = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first(where: { $0.hasPrefix("/") }) { libs.insert(String(lib)) }
        }
    }
    return binaries + libs.sorted()
}
