// Whole-file reads and writes for image files, with errors that carry the path and errno text.
// Writes go to a temporary file in the same directory and are renamed into place, so a reader
// (or a crashed test run) never sees half a PNG.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum ImageFile {
    private static func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Reads all of `path`, refusing files larger than `maxBytes` before reading them.
    static func readAll(_ path: String, maxBytes: UInt64) throws -> [UInt8] {
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        if fd < 0 { throw ImageError.unreadableFile(path: path, reason: errnoText(errno)) }
        defer { close(fd) }

        var info = stat()
        if fstat(fd, &info) != 0 { throw ImageError.unreadableFile(path: path, reason: errnoText(errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw ImageError.unreadableFile(path: path, reason: errnoText(EISDIR))
        }
        let size = UInt64(max(0, Int64(info.st_size)))
        if size > maxBytes {
            throw ImageError.unreadableFile(path: path, reason: "file is \(size) bytes, over the \(maxBytes)-byte limit")
        }

        var bytes = [UInt8](repeating: 0, count: Int(size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ImageError.unreadableFile(path: path, reason: errnoText(errno))
            }
            if n == 0 { break }  // shrank while reading: decode what is there
            done += n
        }
        if done < bytes.count { bytes.removeSubrange(done...) }
        return bytes
    }

    /// Writes `bytes` to `path` atomically (temporary file + rename).
    static func writeAll(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".tmp-\(getpid())"
        var fd: Int32
        repeat { fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } while fd < 0 && errno == EINTR
        if fd < 0 { throw ImageError.unwritableFile(path: path, reason: errnoText(errno)) }

        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd); unlink(temporary)
                throw ImageError.unwritableFile(path: path, reason: errnoText(code))
            }
            done += n
        }
        if close(fd) != 0 {
            let code = errno
            unlink(temporary)
            throw ImageError.unwritableFile(path: path, reason: errnoText(code))
        }
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw ImageError.unwritableFile(path: path, reason: errnoText(code))
        }
    }
}
