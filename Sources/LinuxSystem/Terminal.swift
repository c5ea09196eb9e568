// SPDX-License-Identifier: MIT
// A terminal read a byte at a time (a VT's tty, a serial console, a pty in tests): raw mode as
// plymouthd sets it for its prompts (no echo, no line editing, Ctrl-C a byte rather than a
// signal), put back as it was by `restore`. The kernel's keymap has already turned keys into
// bytes in the user's layout. On a VT, Num Lock is on while raw (KDSKBLED; put back too), so the
// keypad types digits, as a PIN pad should, rather than cursor sequences.
import SystemPackage

public final class Terminal {
    public let path: String
    public let descriptor: FileDescriptor
    private var saved: [UInt8]?
    private var savedLEDFlags: UInt8?
    /// <linux/kd.h>: KDGKBLED and KDSKBLED (plain numbers), and LED_NUM among the flags.
    static let getLEDFlags: UInt = 0x4B64, setLEDFlags: UInt = 0x4B65, numLock: UInt8 = 0x02, capsLockFlag: UInt8 = 0x04

    /// Whether the VT's Caps Lock is on (KDGKBLED's lock flags, not the lights); nil on a terminal
    /// that is not a VT.
    public var capsLock: Bool? {
        var flags: UInt8 = 0
        guard (try? IOControl.call(descriptor, Self.getLEDFlags, "KDGKBLED", subject: path, &flags)) != nil else { return nil }
        return flags & Self.capsLockFlag != 0
    }

    /// Opens `path` non-blocking, never as a controlling terminal.
    public init(path: String) throws(SystemError) {
        self.path = path
        descriptor = try Files.open(path, flags: OpenFlag.readOnly | OpenFlag.noControllingTerminal | OpenFlag.nonBlocking)
    }

    deinit {
        restore()
        Files.close(descriptor)
    }

    /// Raw mode, and input typed before now dropped (it was not meant for the prompt).
    public func enterRawMode() throws(SystemError) {
        if saved == nil {
            var settings: [UInt8] = []
            _ = try retrying { system_tcgetattr(descriptor.rawValue, &settings) }.get("tcgetattr", path)
            _ = try retrying { system_tcsetattr(descriptor.rawValue, settings, raw: true) }.get("tcsetattr", path)
            saved = settings
            var flags: UInt8 = 0
            // Not a VT (a serial line, a pty): ENOTTY or EINVAL, and nothing to do.
            if (try? IOControl.call(descriptor, Self.getLEDFlags, "KDGKBLED", subject: path, &flags)) != nil,
               (try? IOControl.call(descriptor, Self.setLEDFlags, "KDSKBLED", subject: path, value: CInt(flags | Self.numLock))) != nil {
                savedLEDFlags = flags
            }
        }
        _ = retrying { system_tcflushInput(descriptor.rawValue) }
    }

    /// Drops input typed but not read yet.
    public func discardInput() { _ = retrying { system_tcflushInput(descriptor.rawValue) } }

    /// The settings from before `enterRawMode`; nothing when it was not called.
    public func restore() {
        guard let settings = saved else { return }
        saved = nil
        if let flags = savedLEDFlags { _ = try? IOControl.call(descriptor, Self.setLEDFlags, "KDSKBLED", subject: path, value: CInt(flags)) }
        savedLEDFlags = nil
        _ = retrying { system_tcsetattr(descriptor.rawValue, settings, raw: false) }
    }

    /// Reads what is waiting into `buffer` (a secret's pages: keys may be a passphrase); 0 when
    /// nothing is (EAGAIN). A hung-up terminal is an error.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        switch retrying({ system_read(descriptor.rawValue, buffer.baseAddress, buffer.count) }) {
        case .success(0): throw SystemError("read", .ioError, path + " (hung up)")
        case .success(let n): return n
        case .failure(let e) where e == .resourceTemporarilyUnavailable: return 0
        case .failure(let e): throw SystemError("read", e, path)
        }
    }
}
