// SPDX-License-Identifier: MIT
// The chunk limits, checked on the file's bytes before libpng decodes anything. libpng keeps every
// text chunk it reads, and its own per-chunk limit cannot be told from a damaged stream (both end
// in the same message) and would also refuse an APNG's large frames (fdAT). This walk measures
// what libpng will keep: each tEXt, zTXt and iTXt after inflation (counting stops at the limit,
// so a zlib bomb costs no more than the limit), one by one and in total. The other ancillary
// chunks are skipped unread by the decoder (PNGCodec.c). A chunk that declares more bytes than the
// data holds is refused as truncated here: libpng would allocate its declared length (up to 2 GiB)
// first. Anything else malformed is left to libpng.

import CPNGCodec

enum PNGTextLimits {
    /// Throws `chunkTooLarge` when a text chunk, or all of them together, exceed `limits`, and
    /// `truncated` when a chunk runs past the end of `png`.
    static func check(_ png: UnsafeRawBufferPointer, _ limits: PNGLimits) throws {
        let perChunk = UInt64(limits.maxChunkBytes)
        var total: UInt64 = 0
        var i = 8
        while png.count - i >= 8 {
            // Compared as UInt64 first: on 32-bit boards a length past 2^31 would not fit an Int.
            // libpng refuses a length past 2^31-1 before allocating; below that it allocates what
            // the chunk declares before reading it, so a chunk that runs past the data ends here.
            let declared = UInt64(png.bigEndianUInt32(at: i))
            guard declared <= 0x7FFF_FFFF else { return }
            guard declared + 4 <= UInt64(png.count - i - 8) else { throw ImageError.truncated }
            let length = Int(declared)
            let type = png.bigEndianUInt32(at: i + 4)
            let data = UnsafeRawBufferPointer(rebasing: png[(i + 8)..<(i + 8 + length)])
            if let kept = keptSize(type: type, data: data, cap: perChunk) {
                if kept > perChunk { throw ImageError.chunkTooLarge }
                total += kept
                if total > UInt64(limits.maxChunkCacheBytes) { throw ImageError.chunkTooLarge }
            }
            if type == iend { return }
            i += 12 + length
        }
    }

    private static let iend: UInt32 = 0x49454E44
    private static let text: UInt32 = 0x74455874, ztxt: UInt32 = 0x7A545874, itxt: UInt32 = 0x69545874

    /// What libpng keeps of a text chunk (its bytes, compressed text counted inflated, up to `cap + 1`);
    /// nil for other chunks and for text chunks too damaged to measure.
    private static func keptSize(type: UInt32, data: UnsafeRawBufferPointer, cap: UInt64) -> UInt64? {
        switch type {
        case text:
            return UInt64(data.count)
        case ztxt:
            // keyword NUL method compressed-text
            guard let nul = data.firstIndex(of: 0), nul + 2 <= data.count else { return nil }
            return inflated(data, from: nul + 2, cap: cap).map { UInt64(nul) + $0 }
        case itxt:
            // keyword NUL flag method language NUL translated-keyword NUL text
            guard let nul = data.firstIndex(of: 0), nul + 3 <= data.count else { return nil }
            guard data[nul + 1] == 1 else { return UInt64(data.count) }
            var fields = 0, start = nul + 3
            while fields < 2, start < data.count {
                if data[start] == 0 { fields += 1 }
                start += 1
            }
            guard fields == 2 else { return nil }
            return inflated(data, from: start, cap: cap).map { UInt64(start) + $0 }
        default:
            return nil
        }
    }

    private static func inflated(_ data: UnsafeRawBufferPointer, from start: Int, cap: UInt64) -> UInt64? {
        let stream = UnsafeRawBufferPointer(rebasing: data[start...])
        guard let base = stream.baseAddress else { return nil }
        let size = png_codec_inflated_size(base.assumingMemoryBound(to: UInt8.self), stream.count, cap)
        return size < 0 ? nil : UInt64(size)
    }
}
