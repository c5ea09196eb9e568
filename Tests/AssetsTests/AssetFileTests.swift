// SPDX-License-Identifier: MIT
// Image and font files are read only when they are regular files under a size limit, opened
// without blocking: a FIFO named as an image or a font must be refused at once, not hang the
// splash until somebody writes to it.
#if canImport(Glibc)
import Glibc
#endif
import Assets
import Dispatch
import Foundation
import Testing

@Suite struct AssetFileTests {
    /// Runs `body` on another thread and fails (instead of hanging the run) when it has not
    /// returned within 10 s: a hang detector, not a timing assertion.
    func returnsPromptly(_ what: String, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { body(); done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success, "\(what) blocked")
    }

    @Test func aFIFONamedAsAnImageOrAFontIsRefusedAtOnce() throws {
        let path = TestFonts.temporaryPath("not-a-file.png")
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        returnsPromptly("PNGDecoder on a FIFO") {
            #expect(throws: ImageError.unreadableFile(path: path, reason: "not a regular file (a FIFO)")) {
                try PNGDecoder.decode(contentsOf: path)
            }
        }
        returnsPromptly("FontFace on a FIFO") {
            #expect(throws: FontError.unreadable(path: path, reason: "not a regular file (a FIFO)")) {
                try FontFace(path: path)
            }
        }
    }

    @Test func anOversizedFileIsRefusedBeforeItIsRead() throws {
        let path = TestFonts.temporaryPath("huge.png")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { unlink(path) }
        #expect(truncate(path, off_t(FontFace.maxFileBytes) + 1) == 0)  // sparse: nothing is written
        #expect(throws: FontError.unreadable(path: path, reason: "file is \(FontFace.maxFileBytes + 1) bytes, over the \(FontFace.maxFileBytes)-byte limit")) {
            try FontFace(path: path)
        }
        let limits = PNGLimits(maxFileBytes: 1 << 20)
        #expect(throws: ImageError.unreadableFile(path: path, reason: "file is \(FontFace.maxFileBytes + 1) bytes, over the \(1 << 20)-byte limit")) {
            try PNGDecoder.decode(contentsOf: path, limits: limits)
        }
    }

    @Test func aDeviceIsNotAnImage() {
        #expect(throws: ImageError.unreadableFile(path: "/dev/zero", reason: "not a regular file (a device)")) {
            try PNGDecoder.decode(contentsOf: "/dev/zero")
        }
    }

    /// sysfs says 4096 bytes for every attribute (the firmware logo's BGRT values among them): the
    /// read ends at what the file holds, not padded with zeros to its stated size.
    @Test func aFileShorterThanItsStatedSizeIsReadAsItIs() throws {
        let path = "/sys/devices/system/cpu/online"
        let stated = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let bytes = try AssetFile.read(path, maxBytes: 4096)
        #expect(stated == 4096 && !bytes.isEmpty && bytes.count < stated && !bytes.contains(0) && bytes.last == 0x0A)
    }
}
