// SPDX-License-Identifier: MIT
// Display's calls into the system layer: errors name the call, the errno and the device.

import Foundation
import SystemPackage
import Testing

@testable import Display

@Suite("Display syscalls")
struct SyscallsTests {
    @Test func openingAMissingPathNamesOpenAndENOENT() {
        let path = "/nonexistent/splashhud-fb9"
        do {
            _ = try Syscalls.open(path)
            Issue.record("opened \(path)")
        } catch {
            #expect(error == .syscall("open", .noSuchFileOrDirectory, path))
            #expect("\(error)" == "open /nonexistent/splashhud-fb9 failed: No such file or directory (errno 2) - no such device node")
        }
    }

    @Test func fbdevOnARegularFileFailsAtTheFirstIoctl() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-not-a-fb-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try Data(count: 4096).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            _ = try FBDevDisplay(path: url.path)
            Issue.record("a regular file opened as a framebuffer")
        } catch {
            #expect(error == .ioctl("FBIOGET_VSCREENINFO", .inappropriateIOCTLForDevice, url.path))
            #expect("\(error)".hasPrefix("ioctl FBIOGET_VSCREENINFO on \(url.path) failed: Inappropriate ioctl for device (errno 25)"))
        }
    }

    @Test func monotonicClockAdvances() {
        let a = Syscalls.monotonicNanoseconds()
        let b = Syscalls.monotonicNanoseconds()
        #expect(a > 0 && b >= a)
    }
}
