// SPDX-License-Identifier: MIT
import Foundation
import Testing

/// Runs the QEMU harness's self-test: Debian's kernel boots under QEMU (TCG) once per display
/// configuration (bochs, virtio-gpu, cirrus, vesafb at 32, 24 and 16 bpp), a small C program fills
/// /dev/fb0 with a known pattern through the real kernel driver, and the harness compares QEMU's
/// screendump with the pattern pixel for pixel. About 7 s per boot.
@Suite("QEMU display harness")
struct VMSelftestTests {
    /// The package root, from this file's path (Tests/QEMUTests/VMSelftestTests.swift).
    static let repo = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func onPath(_ tool: String) -> Bool {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return dirs.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }

    /// What every QEMU test needs on the host; a clear failure naming the missing one otherwise.
    static func requireQEMUTools() throws {
        for tool in ["qemu-system-x86_64", "busybox", "python3"] {
            try #require(onPath(tool), "\(tool) is not installed: run scripts/setup.sh (it installs qemu-system-x86, linux-image-amd64 and busybox-static)")
        }
    }

    @Test("fbfill's pattern reaches the screen through every display driver")
    func patternOnEveryDisplay() throws {
        try Self.requireQEMUTools()
        let (status, output) = try VMBootLock.holding(exclusive: false) {
            try runProcess("python3", [Self.repo.appendingPathComponent("scripts/qemu/vmtest.py").path, "selftest", "--timeout", "60"])
        }
        // One line per display ("bochs ok boot 6.8 s ..."); a failure carries the guest console.
        print(output)
        #expect(status == 0, "vmtest.py selftest failed:\n\(output)")
        #expect(output.contains("selftest: all passed"), "\(output)")
        for display in ["bochs", "virtio", "cirrus", "vesafb32", "vesafb24", "vesafb16"] {
            let line = output.split(whereSeparator: \.isNewline).first { $0.hasPrefix(display + " ") }
            #expect(line?.contains(" ok ") == true, "\(display): \(line ?? "no result line")")
        }
    }
}
