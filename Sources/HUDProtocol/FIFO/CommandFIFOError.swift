// SPDX-License-Identifier: MIT
// What can go wrong with the command FIFO, on the splash's side (create, read) and the sender's
// (`splashhud send`): each case names the path so the message alone says what to fix.

import SystemPackage

public enum CommandFIFOError: Error, Equatable, CustomStringConvertible {
    /// Something other than a FIFO is at the path (a leftover file, a directory): we neither use
    /// nor delete it.
    case notAFIFO(path: String, found: String)
    /// The FIFO at the path is not ours to trust: owned by another user than `expectedOwner` (our
    /// effective uid) or writable by others, so someone else could send the splash commands. It
    /// could not be replaced (`removal` is why, nil when it was ours to remove and we did).
    case untrustedFIFO(path: String, owner: UInt32, mode: UInt32, expectedOwner: UInt32, removal: Errno?)
    /// Nothing is at the path: no splash has created its FIFO (or it exited and removed it).
    case missing(path: String)
    /// The FIFO exists but no process has it open for reading (ENXIO): no splash is running.
    case noReader(path: String)
    /// The reader closed the FIFO while we were writing (EPIPE).
    case readerGone(path: String)
    /// The FIFO stayed full for `milliseconds`: the splash is alive but not reading.
    case writeTimedOut(path: String, milliseconds: Int32)
    /// A line longer than `limit` bytes (without its terminator); it is dropped whole.
    case lineTooLong(bytes: Int, limit: Int)
    /// A line to send holds a newline or NUL at `byteOffset`: it would arrive as two commands.
    case splitLine(line: Int, byteOffset: Int)
    /// A line that is not UTF-8; it is dropped whole.
    case invalidUTF8(byteOffset: Int)
    /// A system call failed: the call, its errno and the path.
    case syscall(String, Errno, String)

    public var description: String {
        switch self {
        case .notAFIFO(let path, let found):
            return "\(path) is \(found), not a FIFO - remove it or choose another --fifo path"
        case .untrustedFIFO(let path, let owner, let mode, let expected, let removal):
            let removed = removal.map { ", and removing it failed: \($0) (errno \($0.rawValue))" } ?? ""
            return "\(path) is a FIFO owned by uid \(owner) with mode \(Self.octal(mode)): the splash reads only a FIFO owned by "
                + "uid \(expected) that others cannot write\(removed) - remove it or choose another --fifo path"
        case .missing(let path):
            return "no FIFO at \(path): is the splash running (splashhudd --fifo \(path))?"
        case .noReader(let path):
            return "nobody reads \(path) (ENXIO): the splash is not running"
        case .readerGone(let path):
            return "the splash closed \(path) while we were writing (EPIPE)"
        case .writeTimedOut(let path, let ms):
            return "\(path) stayed full for \(ms) ms: the splash is not reading its commands"
        case .lineTooLong(let bytes, let limit):
            return "command line of \(bytes)+ bytes is longer than \(limit) bytes; dropped"
        case .splitLine(let line, let offset):
            return "line \(line): a newline or NUL at byte \(offset) would split it into two commands"
        case .invalidUTF8(let offset):
            return "command line is not UTF-8 (bad byte at offset \(offset)); dropped"
        case .syscall(let call, let errno, let path):
            var hint = ""
            if errno == .permissionDenied { hint = " - run as root or as the splash's user/group (mode 0600/0620)" }
            return "\(call) \(path) failed: \(errno) (errno \(errno.rawValue))\(hint)"
        }
    }

    /// Permission bits as ls and chmod write them: 0666, 0620, 04755.
    public static func octal(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return "0" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }
}
