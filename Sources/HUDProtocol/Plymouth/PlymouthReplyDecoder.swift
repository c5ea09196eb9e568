// SPDX-License-Identifier: MIT
// The daemon's replies, read from a stream that may deliver them in pieces: feed what a read(2)
// returned, take replies out one at a time. The client must take them one by one, because it
// may send its next request only after acting on a reply (re-asking for a password).

/// One reply of plymouthd.
public enum PlymouthReply: Equatable, Sendable {
    case ack
    case nak
    case noAnswer
    /// ANSWER's bytes (a password, a question's answer, a key; `PlymouthWire.cancelled` for Ctrl-C).
    case answer([UInt8])
    /// MULTIPLE_ANSWERS: the cached passwords, oldest first.
    case multipleAnswers([[UInt8]])
    /// A byte that starts no reply; the 22.02 client fails the request and reads on.
    case unknown(UInt8)
}

public struct PlymouthReplyDecoder {
    /// The longest ANSWER or MULTIPLE_ANSWERS payload accepted. plymouthd sends passwords; a
    /// larger length is a corrupt stream, refused rather than buffered (the 22.02 client would
    /// try to allocate it).
    public static let maxPayload = 1 << 20

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case tooLong(UInt32)
        public var description: String {
            switch self {
            case .tooLong(let n): return "a Plymouth reply of \(n) bytes, over the \(PlymouthReplyDecoder.maxPayload) accepted"
            }
        }
    }

    private var pending: [UInt8] = []
    private var start = 0

    public init() {}

    /// Bytes received that no reply has taken yet.
    public var pendingCount: Int { pending.count - start }

    /// Adds bytes as they came off the socket.
    public mutating func feed<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if start > 4096 { pending.removeFirst(start); start = 0 }
        pending += bytes
    }

    /// The next complete reply, nil until its last byte has been fed.
    public mutating func next() throws(Failure) -> PlymouthReply? {
        guard pendingCount > 0 else { return nil }
        let kind = pending[start]
        switch kind {
        case PlymouthWire.ackByte: start += 1; return .ack
        case PlymouthWire.nakByte: start += 1; return .nak
        case PlymouthWire.noAnswerByte: start += 1; return .noAnswer
        case PlymouthWire.answerByte, PlymouthWire.multipleAnswersByte:
            guard pendingCount >= 5 else { return nil }
            let length = PlymouthWire.readLittleEndian(pending, at: start + 1)
            guard length <= Self.maxPayload else { throw .tooLong(length) }
            guard pendingCount >= 5 + Int(length) else { return nil }
            let payload = Array(pending[(start + 5)..<(start + 5 + Int(length))])
            start += 5 + Int(length)
            return kind == PlymouthWire.answerByte ? .answer(payload) : .multipleAnswers(Self.split(payload))
        default:
            start += 1
            return .unknown(kind)
        }
    }

    /// The NUL-terminated entries of a MULTIPLE_ANSWERS payload; bytes after the last NUL are
    /// no entry (the 22.02 client keeps an entry only when its NUL arrives).
    static func split(_ payload: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = [], from = 0
        for (i, b) in payload.enumerated() where b == 0 {
            out.append(Array(payload[from..<i]))
            from = i + 1
        }
        return out
    }
}
