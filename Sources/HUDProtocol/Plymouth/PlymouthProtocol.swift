// Plymouth's boot protocol (ply-boot-protocol.h, as Debian's plymouth 22.02 client writes it), so
// `plymouth`, distribution scripts and systemd itself drive SplashHUD unchanged. A request is a
// command byte, then either NUL (no argument) or 0x02, one length byte and that many bytes of
// argument (NUL-terminated; the length counts the NUL). Replies: ACK 0x06, NAK 0x15, ANSWER 0x02 +
// a 32-bit little-endian length + the answer, MULTIPLE_ANSWERS 0x09 + the same length + each cached
// password with its NUL, or NO_ANSWER 0x05.

public enum PlymouthProtocol {
    /// plymouthd's abstract socket name ("\0/org/freedesktop/plymouthd").
    public static let socketName = "@/org/freedesktop/plymouthd"
    public static let ack: UInt8 = 0x06
    public static let nak: UInt8 = 0x15
    public static let noAnswer: UInt8 = 0x05
    /// What plymouthd answers for a prompt the user cancelled with Ctrl-C or Ctrl-D.
    public static let cancelled: [UInt8] = [0x03]
    /// The most MULTIPLE_ANSWERS may carry: the 22.02 client walks the payload with an 8-bit index.
    public static let maxCachedPayload = 255

    /// An answer: 0x02, the length as a 32-bit little-endian integer (ply_write_uint32 writes it
    /// byte by byte, low first; systemd reads it with le32toh), then the bytes without a NUL.
    public static func answer<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        [0x02] + littleEndian(UInt32(truncatingIfNeeded: bytes.count)) + bytes
    }

    public static func answer(_ text: String) -> [UInt8] { answer(Array(text.utf8)) }

    /// The cached passwords as MULTIPLE_ANSWERS (0x09, length, each with its NUL); nil when there
    /// are none or they exceed `maxCachedPayload` (the caller then sends NO_ANSWER).
    public static func multipleAnswers(_ entries: [[UInt8]]) -> [UInt8]? {
        let length = entries.reduce(0) { $0 + $1.count + 1 }
        guard !entries.isEmpty, length <= maxCachedPayload else { return nil }
        var out: [UInt8] = [0x09] + littleEndian(UInt32(length))
        out.reserveCapacity(5 + length)
        for e in entries { out += e; out.append(0) }
        return out
    }

    public static func littleEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 24)]
    }
}

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
