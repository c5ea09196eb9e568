// SPDX-License-Identifier: MIT
// One evdev record as read(2) returns it from /dev/input/event*: `struct input_event`, a timestamp
// of two `__kernel_ulong_t` words (seconds, microseconds; one machine word each, 8 bytes on arm64
// and x86_64, 4 on armhf even with a 64-bit time_t) and then type (u16), code (u16), value (s32),
// all in the machine's byte order. Decoding takes the word size and byte order as parameters so the
// recorded streams in the tests replay as a 32-bit or big-endian board would read them.

/// One `struct input_event`.
public struct InputEvent: Equatable, Sendable {
    public var seconds: UInt64
    public var microseconds: UInt64
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(seconds: UInt64 = 0, microseconds: UInt64 = 0, type: UInt16, code: UInt16, value: Int32) {
        self.seconds = seconds; self.microseconds = microseconds; self.type = type; self.code = code; self.value = value
    }

    /// The record's layout: its word size (4 or 8) and byte order.
    public struct Layout: Equatable, Sendable {
        public var wordSize: Int
        public var bigEndian: Bool
        public init(wordSize: Int, bigEndian: Bool) { self.wordSize = wordSize; self.bigEndian = bigEndian }
        /// This machine's: `__kernel_ulong_t` is `unsigned long`, as wide as `UInt`.
        public static let native = Layout(wordSize: MemoryLayout<UInt>.size, bigEndian: 1.bigEndian == 1)
        /// Bytes per record: 16 on 32-bit machines, 24 on 64-bit ones.
        public var size: Int { 2 * wordSize + 8 }
    }

    /// The whole records in `bytes` (a read never returns a partial one; trailing bytes short of a
    /// record are ignored).
    public static func decode(_ bytes: UnsafeRawBufferPointer, layout: Layout = .native) -> [InputEvent] {
        let n = bytes.count / layout.size
        var out: [InputEvent] = []
        out.reserveCapacity(n)
        for i in 0..<n {
            var reader = Reader(bytes: bytes, offset: i * layout.size, bigEndian: layout.bigEndian)
            let s = reader.unsigned(layout.wordSize), us = reader.unsigned(layout.wordSize)
            let type = UInt16(truncatingIfNeeded: reader.unsigned(2)), code = UInt16(truncatingIfNeeded: reader.unsigned(2))
            let value = Int32(bitPattern: UInt32(truncatingIfNeeded: reader.unsigned(4)))
            out.append(InputEvent(seconds: s, microseconds: us, type: type, code: code, value: value))
        }
        return out
    }

    /// The record as the kernel would write it (recorded streams, tests).
    public func encoded(layout: Layout = .native) -> [UInt8] {
        var out: [UInt8] = []
        func put(_ v: UInt64, _ width: Int) {
            let bytes = (0..<width).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) }
            out += layout.bigEndian ? bytes.reversed() : bytes
        }
        put(seconds, layout.wordSize); put(microseconds, layout.wordSize)
        put(UInt64(type), 2); put(UInt64(code), 2); put(UInt64(UInt32(bitPattern: value)), 4)
        return out
    }
}

private struct Reader {
    let bytes: UnsafeRawBufferPointer
    var offset: Int
    let bigEndian: Bool

    mutating func unsigned(_ width: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<width {
            let b = UInt64(bytes[offset + (bigEndian ? i : width - 1 - i)])
            v = v << 8 | b
        }
        offset += width
        return v
    }
}
