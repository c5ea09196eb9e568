// SPDX-License-Identifier: MIT
// Splits the FIFO's byte stream into command lines. Bytes arrive in arbitrary pieces (a writer's
// line may come in two reads), so a partial line waits for its terminator. Lines end in "\n" or
// NUL: psplash-write sends its argument with the trailing NUL and no newline. Lines longer than the
// limit and lines that are not UTF-8 are rejected whole, and the stream resynchronises at the next
// terminator, so one bad writer cannot wedge or corrupt the commands that follow.

import HUDProtocol

public struct CommandFIFOLineBuffer {
    /// The longest line accepted, in bytes without its terminator. 4095: a line and its newline fit
    /// in PIPE_BUF (4096), so every writer's line is written atomically and never interleaved.
    public static let defaultLimit = CommandFIFOFormat.lineLimit

    public let limit: Int
    private var pending: [UInt8] = []
    /// Bytes of an over-long line dropped so far; non-nil until its terminator arrives.
    private var discarding: Int?

    public init(limit: Int = CommandFIFOLineBuffer.defaultLimit) {
        precondition(limit > 0)
        self.limit = limit
    }

    /// Bytes held back waiting for a terminator.
    public var pendingCount: Int { pending.count }

    /// Feeds `bytes`; returns each line they complete (without terminator, a trailing "\r"
    /// dropped too) or the reason it was rejected, in order.
    public mutating func feed<C: Collection>(_ bytes: C) -> [Result<String, CommandFIFOError>] where C.Element == UInt8 {
        var out: [Result<String, CommandFIFOError>] = []
        for byte in bytes {
            if byte == 0x0A || byte == 0x00 {
                if let dropped = discarding {
                    out.append(.failure(.lineTooLong(bytes: dropped, limit: limit)))
                    discarding = nil
                } else {
                    out.append(Self.decode(pending))
                }
                pending.removeAll(keepingCapacity: true)
            } else if let dropped = discarding {
                discarding = dropped + 1
            } else if pending.count == limit {
                discarding = pending.count + 1
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.append(byte)
            }
        }
        return out
    }

    /// The line as a String, or the offset of its first byte that is not UTF-8.
    static func decode(_ line: [UInt8]) -> Result<String, CommandFIFOError> {
        var bytes = line[...]
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        var scalars = String.UnicodeScalarView()
        loop: while true {
            // Count bytes consumed per scalar to report where a bad sequence starts.
            let before = offset
            switch decoder.decode(&iterator) {
            case .scalarValue(let s):
                scalars.append(s)
                offset += UTF8.width(s)
            case .emptyInput:
                break loop
            case .error:
                return .failure(.invalidUTF8(byteOffset: before))
            }
        }
        return .success(String(scalars))
    }
}
