// SPDX-License-Identifier: MIT
// The splash's command FIFO, psplash/fbsplash style: boot scripts write command lines
// (`show "…"`, `progress 0.4 "…"`, psplash's `MSG`/`PROGRESS`/`QUIT`, fbsplash's `NN`/`exit`) to a
// named pipe and the splash reads them between frames. The reader opens its FIFO non-blocking and
// also keeps a write end open itself (busybox fbsplash's trick): with a writer always present a
// read never returns end-of-file when a script's `echo` closes its end, so poll does not spin on
// a permanently readable descriptor and nothing has to reopen the pipe. The sending side
// (HUDClient's `CommandFIFOSender`, used by `splashhud send`) never blocks: with no reader it fails at once.
// Whoever can write the FIFO controls the splash, so the reader checks what it opened (fstat):
// a FIFO owned by someone else or writable by others is replaced, or refused.

import HUDProtocol
import SystemPackage

public final class CommandFIFO {
    public static let defaultPath = CommandFIFOFormat.defaultPath
    /// psplash's mode: only the owner (root) writes.
    public static let ownerOnly: UInt32 = 0o600
    /// Also writable by the FIFO's group (e.g. an update agent in the splash's group).
    public static let groupWritable: UInt32 = 0o620

    public let path: String
    /// The read end: watch it for readability (the frame loop's poll), then call `drain()`.
    public let descriptor: FileDescriptor
    /// Our own write end, held only so the read end never sees end-of-file.
    private let keepAlive: FileDescriptor
    /// Whether we made the FIFO (then `close` removes it).
    public let created: Bool
    /// What was at the path before we replaced it ("a FIFO owned by uid 1000 with mode 0666"),
    /// nil when nothing untrusted was (for the log).
    public let replacedUntrusted: String?
    private var lines: CommandFIFOLineBuffer
    private var closed = false
    /// Gets every complete line in order, or why one was dropped (too long, not UTF-8).
    public var onInput: (Result<String, CommandFIFOError>) -> Void

    /// Creates the FIFO at `path` with `mode` (kept as it is when a FIFO is already there) and
    /// opens it. Fails when something else is at the path or another process already reads it.
    /// Only a FIFO owned by our effective uid and not writable by others is read (group-writable
    /// is fine: psplash uses 0620); any other, e.g. a 0666 FIFO another user made in a shared
    /// directory so as to send a root splash commands, is removed and made anew, or refused
    /// (`CommandFIFOError.untrustedFIFO`) when it cannot be removed.
    public init(path: String = CommandFIFO.defaultPath, mode: UInt32 = CommandFIFO.ownerOnly,
                lineLimit: Int = CommandFIFOLineBuffer.defaultLimit,
                onInput: @escaping (Result<String, CommandFIFOError>) -> Void) throws(CommandFIFOError) {
        self.path = path
        self.onInput = onInput
        lines = CommandFIFOLineBuffer(limit: lineLimit)
        var replaced: String?
        var opened = try Self.openReader(path, mode: mode)
        if case .untrusted(let status) = opened {
            // Its writers keep their descriptors, but those reach the old FIFO, not the new one.
            if case .failure(let e) = RuntimeSyscalls.unlink(path) { throw Self.untrusted(path, status, removal: e) }
            replaced = "a FIFO owned by uid \(status.owner) with mode \(CommandFIFOError.octal(status.permissions))"
            opened = try Self.openReader(path, mode: mode)
        }
        let reader: FileDescriptor, made: Bool
        switch opened {
        case .trusted(let fd, let m): (reader, made) = (fd, m)
        // Somebody put another untrusted FIFO there at once: a race we do not keep playing.
        case .untrusted(let status): throw Self.untrusted(path, status, removal: nil)
        }
        created = made
        replacedUntrusted = replaced
        switch RuntimeSyscalls.openNonBlocking(path, write: true) {
        case .success(let fd): keepAlive = fd
        case .failure(let e):
            RuntimeSyscalls.close(reader)
            if made { _ = RuntimeSyscalls.unlink(path) }
            throw .syscall("open", e, path + " (our own write end)")
        }
        descriptor = reader
    }

    private enum Opened {
        /// The read end of a FIFO we may trust, and whether we made it.
        case trusted(FileDescriptor, made: Bool)
        /// A FIFO someone else could write to (not open, or closed again; one we made is removed).
        case untrusted(RuntimeSyscalls.FileStatus)
    }

    /// Makes the FIFO when nothing is at `path`, opens its read end and checks what was opened.
    private static func openReader(_ path: String, mode: UInt32) throws(CommandFIFOError) -> Opened {
        var made = false
        switch RuntimeSyscalls.fileStatus(path) {
        case .failure(let e): throw .syscall("lstat", e, path)
        case .success(nil):
            if case .failure(let e) = RuntimeSyscalls.makeFIFO(path, mode: mode) { throw .syscall("mkfifo", e, path) }
            made = true
        case .success(let status?) where status.kind == .fifo:
            // Checked before the busy probe: whoever holds an untrusted FIFO open (even for
            // reading) must not keep the splash from replacing it.
            guard trusts(status) else { return .untrusted(status) }
            // A leftover FIFO is reused, unless a live splash still reads it: a write end opens
            // only when a reader exists.
            if case .success(let probe) = RuntimeSyscalls.openNonBlocking(path, write: true) {
                RuntimeSyscalls.close(probe)
                throw .syscall("open", .resourceBusy, path + " (another process is reading it)")
            }
        case .success(let status?):
            throw .notAFIFO(path: path, found: describe(status.kind))
        }
        let reader: FileDescriptor
        switch RuntimeSyscalls.openNonBlocking(path, write: false) {
        case .success(let fd): reader = fd
        case .failure(let e):
            if made { _ = RuntimeSyscalls.unlink(path) }
            throw .syscall("open", e, path)
        }
        func fail(_ error: CommandFIFOError) -> CommandFIFOError {
            RuntimeSyscalls.close(reader)
            if made { _ = RuntimeSyscalls.unlink(path) }
            return error
        }
        if made, case .failure(let e) = RuntimeSyscalls.setMode(reader, mode: mode) { throw fail(.syscall("fchmod", e, path)) }
        // What we opened, not what the path showed a moment ago: it may have been swapped since.
        let status: RuntimeSyscalls.FileStatus
        switch RuntimeSyscalls.status(reader) {
        case .success(let s): status = s
        case .failure(let e): throw fail(.syscall("fstat", e, path))
        }
        guard status.kind == .fifo else { throw fail(.notAFIFO(path: path, found: describe(status.kind))) }
        guard trusts(status) else {
            // Ours (a mode that lets others write was asked for) is removed by `fail`, so the
            // caller does not make it again.
            if made { throw fail(untrusted(path, status, removal: nil)) }
            RuntimeSyscalls.close(reader)
            return .untrusted(status)
        }
        return .trusted(reader, made: made)
    }

    /// Ours (effective uid) and not writable by others; the group may write (mode 0620).
    private static func trusts(_ status: RuntimeSyscalls.FileStatus) -> Bool {
        status.owner == RuntimeSyscalls.effectiveUserID() && status.permissions & 0o002 == 0
    }

    private static func untrusted(_ path: String, _ status: RuntimeSyscalls.FileStatus, removal: Errno?) -> CommandFIFOError {
        .untrustedFIFO(path: path, owner: status.owner, mode: status.permissions,
                       expectedOwner: RuntimeSyscalls.effectiveUserID(), removal: removal)
    }

    private static func describe(_ kind: RuntimeSyscalls.FileKind) -> String {
        switch kind {
        case .regular: return "a regular file"
        case .directory: return "a directory"
        case .fifo: return "a FIFO"
        case .symlink, .socket, .characterDevice, .blockDevice, .other: return "not a FIFO (a symlink, socket or device)"
        }
    }

    deinit { close() }

    /// Reads what writers have sent (at most `budget` bytes, so a flood cannot starve the frame
    /// loop; poll reports the rest at once) and hands each complete line to `onInput`. Returns the
    /// number of lines and rejections handed over.
    @discardableResult
    public func drain(budget: Int = 65536) throws(CommandFIFOError) -> Int {
        precondition(!closed, "drain after close")
        var handed = 0
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 4096)
        while total < budget {
            let result = chunk.withUnsafeMutableBytes { RuntimeSyscalls.read(descriptor, into: $0) }
            switch result {
            case .failure(let e): throw .syscall("read", e, path)
            case .success(nil), .success(0?): return handed
            case .success(let n?):
                total += n
                for input in lines.feed(chunk[0..<n]) {
                    onInput(input)
                    handed += 1
                }
            }
        }
        return handed
    }

    /// Closes both ends; removes the FIFO when we created it and `removing` (so a later `send`
    /// says plainly that no splash runs). A partial line still buffered is dropped.
    public func close(removing: Bool = true) {
        guard !closed else { return }
        closed = true
        if created && removing { _ = RuntimeSyscalls.unlink(path) }
        RuntimeSyscalls.close(keepAlive)
        RuntimeSyscalls.close(descriptor)
    }
}
