// SPDX-License-Identifier: MIT
// The PNG container format: an 8-byte signature, then chunks of
//   length (u32 BE) | type (4 ASCII bytes) | data (length bytes) | CRC-32 of type+data (u32 BE).
// Used to repack libpng's output into APNG chunks, and by tests to inspect what was written.

import CZlib

/// One PNG chunk.
public struct PNGChunk: Equatable, Sendable {
    /// Four ASCII letters such as "IHDR", "IDAT", "fcTL".
    public var type: String
    public var data: [UInt8]

    public init(type: String, data: [UInt8]) {
        precondition(type.utf8.count == 4, "a PNG chunk type is four bytes, not \"\(type)\"")
        self.type = type; self.data = data
    }

    /// The 8-byte signature every PNG starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// CRC-32 over type and data, as stored after the data (zlib's `crc32`).
    public var crc: UInt32 {
        var c = crc32(0, nil, 0)
        let typeBytes = Array(type.utf8)
        c = typeBytes.withUnsafeBufferPointer { crc32(c, $0.baseAddress, UInt32($0.count)) }
        c = data.withUnsafeBufferPointer { crc32(c, $0.baseAddress, UInt32($0.count)) }
        return UInt32(truncatingIfNeeded: c)
    }

    /// Length, type, data and CRC, ready to append to a PNG stream.
    public var serialized: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(data.count + 12)
        out.appendBigEndian(UInt32(data.count))
        out.append(contentsOf: type.utf8)
        out.append(contentsOf: data)
        out.appendBigEndian(crc)
        return out
    }

    /// Splits a PNG stream into its chunks, checking the signature, every length and every CRC
    /// Stops after IEND; anything after it is ignored.
    public static func parse(_ png: [UInt8]) throws -> [PNGChunk] {
        guard png.count >= 8, png.prefix(8).elementsEqual(signature) else { throw ImageError.notPNG }
        var chunks = [PNGChunk]()
        var i = 8
        while i < png.count {
            guard png.count - i >= 12 else { throw ImageError.truncated }
            // Checked as a UInt32: on 32-bit boards a length past 2^31 would not fit an Int.
            let declared = png.bigEndianUInt32(at: i)
            guard declared <= UInt32(Int32.max) else { throw ImageError.corrupt(reason: "chunk length \(declared) over 2^31-1") }
            let length = Int(declared)
            guard png.count - i - 12 >= length else { throw ImageError.truncated }
            let typeBytes = png[(i + 4)..<(i + 8)]
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw ImageError.corrupt(reason: "invalid chunk type at byte \(i + 4)")
            }
            let chunk = PNGChunk(type: String(decoding: typeBytes, as: UTF8.self),
                                 data: Array(png[(i + 8)..<(i + 8 + length)]))
            guard chunk.crc == png.bigEndianUInt32(at: i + 8 + length) else {
                throw ImageError.corrupt(reason: "CRC mismatch in \(chunk.type) chunk at byte \(i)")
            }
            chunks.append(chunk)
            i += 12 + length
            if chunk.type == "IEND" { break }
        }
        return chunks
    }

    /// Signature plus the serialized chunks.
    public static func stream(_ chunks: [PNGChunk]) -> [UInt8] {
        var out = signature
        for chunk in chunks { out.append(contentsOf: chunk.serialized) }
        return out
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` most significant byte first (PNG's byte order, whatever the host's).
    mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value >> 24)); append(UInt8(truncatingIfNeeded: value >> 16))
        append(UInt8(truncatingIfNeeded: value >> 8)); append(UInt8(truncatingIfNeeded: value))
    }
    mutating func appendBigEndian(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value >> 8)); append(UInt8(truncatingIfNeeded: value))
    }
}

// Reads for byte arrays and raw buffers alike (PNGChunk.parse, PNGTextLimits' walk).
extension RandomAccessCollection where Element == UInt8, Index == Int {
    /// The big-endian `UInt32` at byte `offset`, whatever the host's byte order.
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8 | UInt32(self[offset + 3])
    }
    /// The big-endian `UInt16` at byte `offset`.
    func bigEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }
}
