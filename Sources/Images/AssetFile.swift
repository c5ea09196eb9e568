// SPDX-License-Identifier: MIT
// Reading a whole image or font file (fonts through the Assets module, which checks each first), safely for a splash that must never hang: the file is opened
// non-blocking (a FIFO or a device named as an image would otherwise block open(2) until a writer
// appears), only a regular file is read (checked with fstat on what was opened), and its size is
// checked against a limit before anything is read or allocated.
import LinuxSystem
import SystemPackage

/// Why `AssetFile` refused or failed: the errno's text, or the rule the file broke.
package struct AssetFileError: Error, Equatable {
    package var missing: Bool
    package var reason: String
}

package enum AssetFile {
    /// Fails unless `path` is a regular file of at most `maxBytes`, opened without blocking.
    package static func check(_ path: String, maxBytes: UInt64) throws(AssetFileError) {
        let (fd, _) = try open(path, maxBytes: maxBytes)
        Files.close(fd)
    }

    /// All of `path`, at most `maxBytes` (a larger file is refused before it is read).
    package static func read(_ path: String, maxBytes: UInt64) throws(AssetFileError) -> [UInt8] {
        let (fd, size) = try open(path, maxBytes: maxBytes)
        defer { Files.close(fd) }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        var done = 0
        reading: while done < bytes.count {
            let r = bytes.withUnsafeMutableBytes { b in
                Result { () throws(SystemError) in try Files.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: b[done...]), subject: path) }
            }
            switch r {
            case .success(let n?) where n > 0: done += n
            // Shorter than its size: shrank while reading, or a sysfs attribute (4096 by fstat).
            case .success: break reading
            case .failure(let e): throw AssetFileError(missing: false, reason: "\(e.errno)")
            }
        }
        if done < bytes.count { bytes.removeSubrange(done...) }
        return bytes
    }

    /// The open descriptor (the caller closes it) and size of a regular file of at most `maxBytes`.
    private static func open(_ path: String, maxBytes: UInt64) throws(AssetFileError) -> (FileDescriptor, UInt64) {
        let fd: FileDescriptor
        do { fd = try Files.open(path, flags: OpenFlag.readOnly | OpenFlag.nonBlocking | OpenFlag.noControllingTerminal) } catch {
            throw AssetFileError(missing: error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory, reason: "\(error.errno)")
        }
        let status: FileStatus
        do { status = try Files.status(fd, subject: path) } catch {
            Files.close(fd)
            throw AssetFileError(missing: false, reason: "\(error.errno)")
        }
        guard status.kind == .regular else {
            Files.close(fd)
            switch status.kind {
            case .directory: throw AssetFileError(missing: false, reason: "\(Errno.isDirectory)")
            case .fifo: throw AssetFileError(missing: false, reason: "not a regular file (a FIFO)")
            case .characterDevice, .blockDevice: throw AssetFileError(missing: false, reason: "not a regular file (a device)")
            default: throw AssetFileError(missing: false, reason: "not a regular file")
            }
        }
        let size = UInt64(max(0, status.size))
        if size > maxBytes {
            Files.close(fd)
            throw AssetFileError(missing: false, reason: "file is \(size) bytes, over the \(maxBytes)-byte limit")
        }
        return (fd, size)
    }
}
