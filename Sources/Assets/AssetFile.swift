// Reading a whole image or font file, safely for a splash that must never hang: the file is opened
// non-blocking (a FIFO or a device named as an image would otherwise block open(2) until a writer
// appears), only a regular file is read (checked with fstat on what was opened), and its size is
// checked against a limit before anything is read or allocated.

#if canImport(Glibc)
import Glibc
#endif

/// Why `AssetFile.read` refused or failed: errno's text, or the rule the file broke.
struct AssetFileError: Error, Equatable {
    var missing: Bool
    var reason: String
}

enum AssetFile {
    /// Fails unless `path` is a regular file of at most `maxBytes`, opened without blocking.
    static func check(_ path: String, maxBytes: UInt64) throws(AssetFileError) {
        let (fd, _) = try open(path, maxBytes: maxBytes)
        close(fd)
    }

    /// All of `path`, at most `maxBytes` (a larger file is refused before it is read).
    static func read(_ path: String, maxBytes: UInt64) throws(AssetFileError) -> [UInt8] {
        let (fd, size) = try open(path, maxBytes: maxBytes)
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw AssetFileError(missing: false, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }  // shrank while reading: use what is there
            done += n
        }
        if done < bytes.count { bytes.removeSubrange(done...) }
        return bytes
    }

    /// The open descriptor (the caller closes it) and size of a regular file of at most `maxBytes`.
    private static func open(_ path: String, maxBytes: UInt64) throws(AssetFileError) -> (Int32, UInt64) {
        var fd: Int32
        repeat { fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) } while fd < 0 && errno == EINTR
        if fd < 0 {
            let e = errno
            throw AssetFileError(missing: e == ENOENT || e == ENOTDIR, reason: String(cString: strerror(e)))
        }
        var info = stat()
        if fstat(fd, &info) != 0 {
            let e = errno
            close(fd)
            throw AssetFileError(missing: false, reason: String(cString: strerror(e)))
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            switch kind {
            case S_IFDIR: throw AssetFileError(missing: false, reason: String(cString: strerror(EISDIR)))
            case S_IFIFO: throw AssetFileError(missing: false, reason: "not a regular file (a FIFO)")
            case S_IFCHR, S_IFBLK: throw AssetFileError(missing: false, reason: "not a regular file (a device)")
            default: throw AssetFileError(missing: false, reason: "not a regular file")
            }
        }
        let size = UInt64(max(0, Int64(info.st_size)))
        if size > maxBytes {
            close(fd)
            throw AssetFileError(missing: false, reason: "file is \(size) bytes, over the \(maxBytes)-byte limit")
        }
        return (fd, size)
    }
}
