// SPDX-License-Identifier: MIT
// The bytes of Plymouth's boot protocol as plymouth 22.02 writes and reads them (ply-boot-client.c,
// ply-boot-server.c, ply-utils.c), for both ends: the client personality builds requests and
// decodes replies; the daemon encodes replies.
//
// Request: command byte, then NUL (no argument) or 0x02, a length byte L = argument bytes + 1,
// the argument and its NUL. Replies: ACK 0x06, NAK 0x15, NO_ANSWER 0x05, ANSWER 0x02 + length +
// bytes (no NUL), MULTIPLE_ANSWERS 0x09 + length + `pw\0pw\0…`. Lengths are 32-bit
// little-endian, written byte by byte (ply_write_uint32), whatever the host's order.
//
// Limits, stated here because the 22.02 client breaks past them: an argument over 254 bytes
// (255 makes L wrap to 0; more trips an assert), and a MULTIPLE_ANSWERS payload over 255 bytes
// or of 0 bytes (its parser walks the payload with an 8-bit index, and asserts size > 0).

public enum PlymouthWire {
    /// plymouthd's socket ("\0/org/freedesktop/plymouthd", the address trimmed after the name).
    public static let socketName = "@/org/freedesktop/plymouthd"
    /// The name before 0.9.x, padded with NULs to the whole sun_path; clients try it second.
    public static let oldPaddedSocketName = "/ply-boot-protocol"

    public static let ackByte: UInt8 = 0x06
    public static let nakByte: UInt8 = 0x15
    public static let answerByte: UInt8 = 0x02
    public static let multipleAnswersByte: UInt8 = 0x09
    public static let noAnswerByte: UInt8 = 0x05
    /// The answer a password or question gets when the user pressed Ctrl-C (or Ctrl-D).
    public static let cancelled: [UInt8] = [0x03]

    /// The longest argument a request can carry (its length byte counts the NUL).
    public static let maxArgumentBytes = 254
    /// The largest MULTIPLE_ANSWERS payload the 22.02 client reads correctly.
    public static let maxMultipleAnswersPayload = 255

    /// A request: `command`, then NUL, or 0x02, the length, `argument` and its NUL. `argument`
    /// must fit (`maxArgumentBytes`) and hold no NUL: callers check and say so first.
    public static func request(command: UInt8, argument: [UInt8]?) -> [UInt8] {
        guard let argument else { return [command, 0] }
        precondition(argument.count <= maxArgumentBytes && !argument.contains(0), "Plymouth request argument over \(maxArgumentBytes) bytes or with a NUL")
        return [command, 0x02, UInt8(argument.count + 1)] + argument + [0]
    }

    /// ANSWER: 0x02, the length (little-endian), the bytes without a NUL.
    public static func answer(_ bytes: [UInt8]) -> [UInt8] {
        [answerByte] + littleEndian(UInt32(bytes.count)) + bytes
    }

    /// MULTIPLE_ANSWERS: 0x09, the length, each answer with its NUL. nil when there is none
    /// (send NO_ANSWER), an answer holds a NUL, or the payload is over 255 bytes (send NO_ANSWER:
    /// the 22.02 client would loop for ever).
    public static func multipleAnswers(_ answers: [[UInt8]]) -> [UInt8]? {
        guard !answers.isEmpty, !answers.contains(where: { $0.contains(0) }) else { return nil }
        var payload: [UInt8] = []
        for a in answers { payload += a + [0] }
        guard payload.count <= maxMultipleAnswersPayload else { return nil }
        return [multipleAnswersByte] + littleEndian(UInt32(payload.count)) + payload
    }

    /// `value` least significant byte first (ply_write_uint32).
    public static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }

    /// The 32-bit little-endian value at `bytes[at..<at+4]` (ply_read_uint32).
    public static func readLittleEndian<C: RandomAccessCollection>(_ bytes: C, at i: C.Index) -> UInt32 where C.Element == UInt8 {
        var value: UInt32 = 0
        for k in 0..<4 { value |= UInt32(bytes[bytes.index(i, offsetBy: k)]) << (8 * k) }
        return value
    }
}
