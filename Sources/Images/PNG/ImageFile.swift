// SPDX-License-Identifier: MIT
// Whole-file reads and writes for image files, with errors that carry the path and errno text.
// Writes go to a temporary file in the same directory and are renamed into place, so a reader
// (or a crashed test run) never sees half a PNG.

import LinuxSystem

enum ImageFile {
    /// Reads all of `path` (a regular file only, opened without blocking), refusing files larger
    /// than `maxBytes` before reading them.
    static func readAll(_ path: String, maxBytes: UInt64) throws -> [UInt8] {
        do { return try AssetFile.read(path, maxBytes: maxBytes) } catch {
            throw ImageError.unreadableFile(path: path, reason: error.reason)
        }
    }

    /// Writes `bytes` to `path` atomically (temporary file + rename).
    static func writeAll(_ bytes: [UInt8], to path: String) throws {
        do { try Files.writeAtomically(bytes, to: path) } catch {
            throw ImageError.unwritableFile(path: path, reason: "\(error.errno)")
        }
    }
}
