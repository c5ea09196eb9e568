// SPDX-License-Identifier: MIT
// The console's pixels, kept from open to close(.restore) in little memory. The screen at open is
// almost always an emptied text console: one background colour and some text. A plain copy of the
// visible page (4 MB at 1024x768x32 on vesafb) made the daemon's peak RSS as large as Plymouth's;
// this copy costs what is on the screen instead (a blank page is a few bytes, a line of text a few
// kilobytes) and gives back the same bytes.
//
// The page is taken as a stream of pixels, groups of `bytesPerPixel` bytes counted from its first
// byte. Rows are nothing special: a run of background goes on across row ends, and a row length
// that is not a whole number of pixels only shifts where the groups fall (equal pixels are still
// equal groups). The stream is stored as tokens, then the last `byteCount % bytesPerPixel` bytes
// as they are:
//
//     run      varint(n << 1)       one pixel    n copies of that pixel
//     literal  varint(n << 1 | 1)   n pixels     the pixels as they are
//
// varint is LEB128 (7 bits a byte, low bits first); n < 2^31, so a header takes 1 to 5 bytes. A run
// is written only for `minimumRun` equal pixels or more, enough that a run token plus the header of
// the literal it may split is never larger than the pixels it replaces. So the tokens are never
// larger than the whole page as one literal: a noisy page (a photo) is stored as its raw bytes
// behind one header, at most `maximumOverhead` (5) bytes more than the page.
//
// Scanout memory is read once, in 16 KB pieces copied with memcpy into a scratch buffer: it is
// mapped uncached or write-combined, where every load is a bus transaction, so reading it a pixel at
// a time would be much slower than the one copy this replaces. Within a piece a run is followed 8
// bytes at a time (it goes on while each byte equals the byte one pixel earlier), so a blank page
// costs about what the plain copy did. Restore decodes into the same kind of piece and copies each
// out. Nothing is allocated per pixel or token: the output is reserved at its bound up front (pages
// of it never written are never resident) and copied to its size at the end when that is less
// than half.
//
// Rejected: row deduplication (blank rows are already one run across rows, and text rows differ in
// their glyphs); fixed 16-bit counts (a blank page then costs a token per 32767 pixels, and the
// worst case grows with the page instead of staying at one header); and comparing every pixel on
// its own, which made the daemon's fbdev open take 54-81 ms instead of 15-25 ms on vesafb under
// QEMU (1.0 against 0.3 ms for a 1024x768 console on the host, where the plain copy takes 0.1 ms).

/// `byteCount` bytes of scanout memory, run-length encoded by whole pixels (see above).
struct SavedPage {
    /// Bytes of the page (what `restore(into:)` writes).
    let byteCount: Int
    /// The size of the groups runs are made of (2, 3 or 4 for FBLayout's formats; 1 to 4).
    let bytesPerPixel: Int
    /// The tokens, then the bytes after the last whole pixel.
    private let encoded: [UInt8]

    /// The most the stored form exceeds `byteCount` by: one literal's header.
    static let maximumOverhead = 5
    /// The largest count in one token (`n << 1 | 1` must fit in a UInt32).
    static let maximumCount = UInt32(Int32.max)
    /// Scratch piece for reading and writing scanout memory.
    static let pieceBytes = 16 * 1024

    /// Bytes this copy keeps: at most `byteCount + maximumOverhead` (for pages below 2^31 pixels;
    /// a longer literal is split, and each piece costs another header).
    var storedByteCount: Int { encoded.count }

    /// The shortest run worth a token: `(run - 1) · bytesPerPixel` must pay for the run's header
    /// (1 byte below 64 pixels) and a literal header it may add after it (up to 5).
    static func minimumRun(bytesPerPixel: Int) -> UInt32 {
        UInt32(1 + (6 + bytesPerPixel - 1) / bytesPerPixel)
    }

    /// Reads `byteCount` bytes at `source` once and keeps them encoded.
    init(capturing source: UnsafeRawPointer, byteCount: Int, bytesPerPixel: Int) {
        precondition(byteCount >= 0 && (1...4).contains(bytesPerPixel), "SavedPage of \(byteCount) bytes, \(bytesPerPixel) per pixel")
        self.byteCount = byteCount
        self.bytesPerPixel = bytesPerPixel
        let capacity = byteCount + 2 * Self.maximumOverhead  // the bound, plus an open literal's reserve
        let pixelBytes = byteCount - byteCount % bytesPerPixel
        let piece = Self.pieceBytes - Self.pieceBytes % bytesPerPixel
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: piece, alignment: 16)
        defer { scratch.deallocate() }
        let reserved = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var encoder = Encoder(out: UnsafeMutableRawPointer(buffer.baseAddress!), capacity: capacity, bytesPerPixel: bytesPerPixel)
            var offset = 0
            while offset < pixelBytes {
                let n = min(piece, pixelBytes - offset)
                scratch.copyMemory(from: source + offset, byteCount: n)
                encoder.add(pixels: scratch, byteCount: n)
                offset += n
            }
            encoder.finish()
            encoder.append(source + pixelBytes, byteCount: byteCount - pixelBytes)
            initialized = encoder.count
        }
        // Most pages are a few kilobytes in a buffer reserved for megabytes: keep only what was used.
        if reserved.count <= capacity / 2 {
            encoded = [UInt8](unsafeUninitializedCapacity: reserved.count) { buffer, initialized in
                reserved.withUnsafeBytes { UnsafeMutableRawBufferPointer(buffer).copyMemory(from: $0) }
                initialized = reserved.count
            }
        } else {
            encoded = reserved
        }
    }

    /// Writes the saved bytes, exactly `byteCount` of them, at `destination`.
    func restore(into destination: UnsafeMutableRawPointer) {
        let tail = byteCount % bytesPerPixel
        let piece = Self.pieceBytes - Self.pieceBytes % bytesPerPixel
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: piece, alignment: 16)
        defer { scratch.deallocate() }
        encoded.withUnsafeBytes { bytes in
            let src = bytes.baseAddress!
            let tokensEnd = bytes.count - tail
            var writer = PieceWriter(destination: destination, limit: byteCount - tail, scratch: scratch, scratchBytes: piece)
            var at = 0
            while at < tokensEnd {
                let value = Self.readVarint(src, at: &at)
                let n = Int(value >> 1)
                if value & 1 == 1 {
                    writer.append(src + at, byteCount: n * bytesPerPixel)
                    at += n * bytesPerPixel
                } else {
                    writer.repeatPixel(src + at, bytesPerPixel: bytesPerPixel, times: n)
                    at += bytesPerPixel
                }
            }
            writer.flush()
            precondition(at == tokensEnd && writer.written == byteCount - tail, "SavedPage tokens end at \(at) of \(tokensEnd)")
            (destination + writer.written).copyMemory(from: src + tokensEnd, byteCount: tail)
        }
    }

    /// The LEB128 value at `at`, which moves past it.
    private static func readVarint(_ src: UnsafeRawPointer, at: inout Int) -> UInt32 {
        var value: UInt32 = 0
        var shift: UInt32 = 0
        while true {
            let byte = src.load(fromByteOffset: at, as: UInt8.self)
            at += 1
            value |= UInt32(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }
}

/// One pass of encoding: pixels come in pieces; the current run and the open literal carry over.
private struct Encoder {
    let out: UnsafeMutableRawPointer
    let capacity: Int
    let bytesPerPixel: Int
    let minimumRun: UInt32
    /// Bytes written to `out`.
    private(set) var count = 0
    /// The pixel of the current run (its bytes, first byte lowest) and how many of it so far.
    private var pixel: UInt32 = 0
    private var run: UInt32 = 0
    /// Where the open literal's header is reserved (`maximumOverhead` bytes), and its pixels.
    private var literalStart: Int?
    private var literalCount: UInt32 = 0

    init(out: UnsafeMutableRawPointer, capacity: Int, bytesPerPixel: Int) {
        self.out = out; self.capacity = capacity; self.bytesPerPixel = bytesPerPixel
        minimumRun = SavedPage.minimumRun(bytesPerPixel: bytesPerPixel)
    }

    mutating func add(pixels: UnsafeRawPointer, byteCount: Int) {
        var at = 0
        while at < byteCount {
            // The pixel's bytes as a number, byte k at bits 8k: no byte order assumed.
            var p = UInt32(pixels.load(fromByteOffset: at, as: UInt8.self))
            for k in 1..<bytesPerPixel { p |= UInt32(pixels.load(fromByteOffset: at + k, as: UInt8.self)) << (8 * k) }
            at += bytesPerPixel
            if p == pixel && run != 0 && run < SavedPage.maximumCount {
                run += 1
                // Most of a console is long runs: skip the rest of this one a word at a time.
                let more = min(Self.repeats(pixels, from: at, to: byteCount, bytesPerPixel: bytesPerPixel), Int(SavedPage.maximumCount - run))
                run += UInt32(more)
                at += more * bytesPerPixel
            } else {
                endRun()
                pixel = p
                run = 1
            }
        }
    }

    /// The whole pixels from `start` on that repeat the pixel before `start`: while each byte
    /// equals the byte a pixel earlier. Words are only compared for equality (no byte order).
    private static func repeats(_ bytes: UnsafeRawPointer, from start: Int, to end: Int, bytesPerPixel: Int) -> Int {
        var j = start
        while j + 8 <= end
            && bytes.loadUnaligned(fromByteOffset: j, as: UInt64.self) == bytes.loadUnaligned(fromByteOffset: j - bytesPerPixel, as: UInt64.self)
        {
            j += 8
        }
        while j < end && bytes.load(fromByteOffset: j, as: UInt8.self) == bytes.load(fromByteOffset: j - bytesPerPixel, as: UInt8.self) { j += 1 }
        return (j - start) / bytesPerPixel
    }

    /// Writes what is pending: the last run and the open literal.
    mutating func finish() {
        endRun()
        closeLiteral()
    }

    /// Appends bytes as they are (the tail after the last whole pixel).
    mutating func append(_ bytes: UnsafeRawPointer, byteCount: Int) {
        precondition(count + byteCount <= capacity, "SavedPage encoding past its bound")
        (out + count).copyMemory(from: bytes, byteCount: byteCount)
        count += byteCount
    }

    /// The current run becomes a run token, or joins the open literal when it is too short.
    private mutating func endRun() {
        guard run != 0 else { return }
        if run >= minimumRun {
            closeLiteral()
            writeVarint(run << 1)
            writePixel(times: 1)
        } else {
            if literalStart == nil || literalCount > SavedPage.maximumCount - run {
                closeLiteral()
                precondition(count + SavedPage.maximumOverhead <= capacity, "SavedPage encoding past its bound")
                literalStart = count
                count += SavedPage.maximumOverhead
            }
            writePixel(times: run)
            literalCount += run
        }
        run = 0
    }

    /// Writes the open literal's header and moves its pixels down onto the reserve it did not use.
    private mutating func closeLiteral() {
        guard let start = literalStart else { return }
        let pixelsStart = start + SavedPage.maximumOverhead
        let pixelBytes = count - pixelsStart
        count = start
        let value = literalCount << 1 | 1
        let headerBytes = Self.varintLength(value)
        (out + start + headerBytes).copyMemory(from: out + pixelsStart, byteCount: pixelBytes)  // memmove
        writeVarint(value)
        count += pixelBytes
        literalStart = nil
        literalCount = 0
    }

    private mutating func writePixel(times n: UInt32) {
        precondition(count + Int(n) * bytesPerPixel <= capacity, "SavedPage encoding past its bound")
        for _ in 0..<n {
            for k in 0..<bytesPerPixel { out.storeBytes(of: UInt8(truncatingIfNeeded: pixel >> (8 * k)), toByteOffset: count + k, as: UInt8.self) }
            count += bytesPerPixel
        }
    }

    private mutating func writeVarint(_ value: UInt32) {
        precondition(count + Self.varintLength(value) <= capacity, "SavedPage encoding past its bound")
        var v = value
        while v >= 0x80 {
            out.storeBytes(of: UInt8(truncatingIfNeeded: v) | 0x80, toByteOffset: count, as: UInt8.self)
            count += 1
            v >>= 7
        }
        out.storeBytes(of: UInt8(v), toByteOffset: count, as: UInt8.self)
        count += 1
    }

    private static func varintLength(_ value: UInt32) -> Int {
        var n = 1
        var v = value
        while v >= 0x80 { v >>= 7; n += 1 }
        return n
    }
}

/// Decoded bytes on their way to scanout memory: gathered in a scratch piece and copied out whole.
private struct PieceWriter {
    let destination: UnsafeMutableRawPointer
    /// Bytes the tokens may write in all.
    let limit: Int
    let scratch: UnsafeMutableRawPointer
    let scratchBytes: Int
    /// Bytes copied to `destination`, and bytes waiting in `scratch`.
    private(set) var written = 0
    private var used = 0

    init(destination: UnsafeMutableRawPointer, limit: Int, scratch: UnsafeMutableRawPointer, scratchBytes: Int) {
        self.destination = destination; self.limit = limit; self.scratch = scratch; self.scratchBytes = scratchBytes
    }

    mutating func append(_ bytes: UnsafeRawPointer, byteCount n: Int) {
        precondition(written + used + n <= limit, "SavedPage tokens past the page")
        if used + n > scratchBytes { flush() }
        if n >= scratchBytes {
            (destination + written).copyMemory(from: bytes, byteCount: n)
            written += n
        } else {
            (scratch + used).copyMemory(from: bytes, byteCount: n)
            used += n
        }
    }

    /// `times` copies of the pixel at `pixel`: one written, then doubled within the piece.
    mutating func repeatPixel(_ pixel: UnsafeRawPointer, bytesPerPixel: Int, times: Int) {
        precondition(written + used + times * bytesPerPixel <= limit, "SavedPage tokens past the page")
        var left = times
        while left > 0 {
            if used + bytesPerPixel > scratchBytes { flush() }
            let total = min(left, (scratchBytes - used) / bytesPerPixel) * bytesPerPixel
            let start = scratch + used
            start.copyMemory(from: pixel, byteCount: bytesPerPixel)
            var filled = bytesPerPixel
            while filled < total {
                let n = min(filled, total - filled)
                (start + filled).copyMemory(from: start, byteCount: n)
                filled += n
            }
            used += total
            left -= total / bytesPerPixel
        }
    }

    mutating func flush() {
        (destination + written).copyMemory(from: scratch, byteCount: used)
        written += used
        used = 0
    }
}
