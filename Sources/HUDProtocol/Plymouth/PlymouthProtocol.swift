// SPDX-License-Identifier: MIT
// Plymouth's requests as the daemon reads them (ply-boot-protocol.h, as Debian's plymouth 22.02
// client writes them), so `plymouth`, distribution scripts and systemd itself drive SplashHUD
// unchanged. The bytes of requests and replies, both ends, are PlymouthWire's.

/// One request, by its command byte.
public enum PlymouthRequest: Equatable, Sendable {
    case ping
    /// `--update=STATUS` (systemd writes unit names here).
    case update(String)
    case systemInitialized
    case deactivate
    case reactivate
    /// `quit [--retain-splash]`.
    case quit(retainSplash: Bool)
    case showSplash
    case hideSplash
    case displayMessage(String)
    case hideMessage(String)
    /// `system-update --progress=N` (percent).
    case systemUpdate(Int)
    /// `change-mode --boot-up|--shutdown|--reboot|--updates|--system-upgrade|--firmware-upgrade`.
    case changeMode(String)
    case pauseProgress
    case unpauseProgress
    /// `update-root-fs --new-root-dir=DIR` (`--newroot=DIR`): the daemon moves into DIR, the
    /// real root the initramfs is about to switch to.
    case newRoot(String)
    case hasActiveVT
    /// `watch-keystroke [--keys=KEYS]`: answered with the text of the next key pressed that is in
    /// KEYS (any key when empty).
    case watchKeystroke(keys: String)
    /// `ignore-keystroke --keys=KEYS`: the watch for KEYS ends without an answer.
    case ignoreKeystroke(keys: String)
    case error
    /// `ask-for-password [--prompt=PROMPT]`: answered when the user is done typing.
    case askPassword(prompt: String)
    /// The passwords typed so far (`ask-for-password --command`, systemd's AcceptCached=1).
    case cachedPassword
    /// `ask-question [--prompt=PROMPT]`: like a password, but the text shows as typed.
    case askQuestion(prompt: String)
    /// A command byte plymouthd does not know either.
    case unknown(UInt8)

    /// The request for `command` with `argument` (nil: none).
    public init(command: UInt8, argument: String?) {
        let a = argument ?? ""
        switch command {
        case UInt8(ascii: "P"): self = .ping
        case UInt8(ascii: "U"): self = .update(a)
        case UInt8(ascii: "S"): self = .systemInitialized
        case UInt8(ascii: "D"): self = .deactivate
        case UInt8(ascii: "r"): self = .reactivate
        case UInt8(ascii: "Q"): self = .quit(retainSplash: (argument?.utf8.first ?? 0) != 0)
        case UInt8(ascii: "$"): self = .showSplash
        case UInt8(ascii: "H"): self = .hideSplash
        case UInt8(ascii: "M"): self = .displayMessage(a)
        case UInt8(ascii: "m"): self = .hideMessage(a)
        case UInt8(ascii: "u"): self = Int(a).map { .systemUpdate(min(max($0, 0), 100)) } ?? .unknown(command)
        case UInt8(ascii: "C"): self = .changeMode(a)
        case UInt8(ascii: "A"): self = .pauseProgress
        case UInt8(ascii: "a"): self = .unpauseProgress
        case UInt8(ascii: "R"): self = .newRoot(a)
        case UInt8(ascii: "V"): self = .hasActiveVT
        case UInt8(ascii: "!"): self = .error
        case UInt8(ascii: "*"): self = .askPassword(prompt: a)
        case UInt8(ascii: "c"): self = .cachedPassword
        case UInt8(ascii: "W"): self = .askQuestion(prompt: a)
        case UInt8(ascii: "K"): self = .watchKeystroke(keys: a)
        case UInt8(ascii: "L"): self = .ignoreKeystroke(keys: a)
        default: self = .unknown(command)
        }
    }
}

/// Splits a connection's bytes into requests. A request may arrive in pieces; what is held back is
/// at most one request (2 + 1 + 255 bytes). A second byte other than NUL or 0x02 is malformed: the
/// stream cannot be resynchronised, so the caller closes the connection.
public struct PlymouthDecoder {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case malformed(command: UInt8, second: UInt8)
        public var description: String {
            switch self {
            case .malformed(let command, let second):
                return "malformed Plymouth request: command 0x\(String(command, radix: 16)) followed by 0x\(String(second, radix: 16)), not NUL or 0x02"
            }
        }
    }

    private var pending: [UInt8] = []

    public init() {}

    /// Bytes held back waiting for the rest of a request.
    public var pendingCount: Int { pending.count }

    /// Feeds `bytes`; returns every request they complete, in order (a malformed one last).
    public mutating func feed<C: Collection>(_ bytes: C) -> [Result<PlymouthRequest, Failure>] where C.Element == UInt8 {
        pending += bytes
        var out: [Result<PlymouthRequest, Failure>] = []
        var i = 0
        while pending.count - i >= 2 {
            let command = pending[i], second = pending[i + 1]
            if second == 0 {
                out.append(.success(PlymouthRequest(command: command, argument: nil)))
                i += 2
            } else if second == 0x02 {
                guard pending.count - i >= 3 else { break }
                let length = Int(pending[i + 2])
                guard pending.count - i >= 3 + length else { break }
                var argument = Array(pending[(i + 3)..<(i + 3 + length)])
                if argument.last == 0 { argument.removeLast() }
                // Quit's argument is a byte (the retain flag), not text: keep it as a scalar.
                let text = String(decoding: argument, as: UTF8.self)
                out.append(.success(PlymouthRequest(command: command, argument: command == UInt8(ascii: "Q") ? String(UnicodeScalar(argument.first ?? 0)) : text)))
                i += 3 + length
            } else {
                out.append(.failure(.malformed(command: command, second: second)))
                pending = []
                return out
            }
        }
        pending.removeFirst(i)
        return out
    }
}
