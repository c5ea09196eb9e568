// SPDX-License-Identifier: MIT
// The sending side of the splash's command FIFOs (`splashhud send --fifo`): it never blocks. No
// FIFO or no reader fails at once; a FIFO that stays full fails after the timeout. Each line is
// one write of at most PIPE_BUF bytes, so lines from concurrent senders never interleave.
import HUDProtocol
import LinuxSystem
import SystemPackage

/// Writes command lines to one of the splash's FIFOs (`--fifo`, `--psplash-fifo`,
/// `--fbsplash-fifo`) without ever blocking: `splashhud send --fifo`.
///
/// No FIFO or no reader fails at once; a FIFO that stays full fails after the timeout. Each line is
/// one write of at most PIPE_BUF bytes, so lines from concurrent senders never interleave.
public enum CommandFIFOSender {
    /// Writes `lines` to the FIFO at `path`, each ended by "\n"; every line is checked before
    /// anything is written.
    public static func send(_ lines: [String], to path: String = CommandFIFOFormat.defaultPath,
                            timeoutMilliseconds: Int32 = 2000) throws(CommandFIFOError) {
        let limit = CommandFIFOFormat.lineLimit
        var messages: [[UInt8]] = []
        for line in lines {
            let bytes = Array(line.utf8)
            guard bytes.count <= limit else { throw .lineTooLong(bytes: bytes.count, limit: limit) }
            if let i = bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x00 }) {
                throw .splitLine(line: messages.count + 1, byteOffset: i)
            }
            messages.append(bytes + [0x0A])
        }
        let status: FileStatus?
        do { status = try Files.status(atPath: path) } catch { throw .syscall("lstat", error.errno, path) }
        switch status?.kind {
        case nil: throw .missing(path: path)
        case .fifo?: break
        case let kind?:
            throw .notAFIFO(path: path, found: kind == .regular ? "a regular file" : kind == .directory ? "a directory" : "not a FIFO")
        }
        Files.ignoreBrokenPipe()
        let fd: FileDescriptor
        do {
            fd = try Files.open(path, flags: OpenFlag.writeOnly | OpenFlag.nonBlocking | OpenFlag.noFollow | OpenFlag.noControllingTerminal)
        } catch {
            switch error.errno {
            case .noSuchAddressOrDevice: throw .noReader(path: path)
            case .noSuchFileOrDirectory: throw .missing(path: path)
            default: throw .syscall("open", error.errno, path)
            }
        }
        defer { Files.close(fd) }
        for message in messages {
            var rest = message[...]
            while !rest.isEmpty {
                let written: Int?
                let result = rest.withUnsafeBytes { b in Result { () throws(SystemError) in try Files.write(fd, b, subject: path) } }
                do { written = try result.get() } catch {
                    throw error.errno == .brokenPipe ? .readerGone(path: path) : .syscall("write", error.errno, path)
                }
                if let n = written { rest = rest.dropFirst(n); continue }
                // Full: wait for room, at most the timeout.
                let ready: Bool
                do { ready = try Poll.wait(fd, for: .write, timeoutMilliseconds: timeoutMilliseconds, subject: path) } catch {
                    throw .syscall("poll", error.errno, path)
                }
                guard ready else { throw .writeTimedOut(path: path, milliseconds: timeoutMilliseconds) }
            }
        }
    }
}
