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

    /// Reads all of `path` (a regular file only, opened without blocking), refusing files larger
    /// than `maxBytes` before reading them.
    static func readAll(_ path: String, maxBytes: UInt64) throws -> [UInt8] {
        do { return try AssetFile.read(path, maxBytes: maxBytes) } catch {
            throw ImageError.unreadableFile(path: path, reason: error.reason)
        }
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
