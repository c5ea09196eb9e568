// PNG decoding through libspng, into premultiplied ARGB `Pixmap`s.
//
// Every PNG colour type and bit depth is accepted (gray 1/2/4/8/16, gray+alpha 8/16, RGB 8/16,
// RGBA 8/16, palette 1/2/4/8 with or without tRNS, Adam7 interlaced or not); libspng converts all
// of them to straight-alpha RGBA8 (`SPNG_FMT_RGBA8`, tRNS applied with `SPNG_DECODE_TRNS`):
//  - low bit depths are scaled to the full 0...255 range (1-bit 1 → 255, 4-bit 0xA → 0xAA);
//  - 16-bit samples keep their high byte (0xABCD → 0xAB).
// Colour management is deliberately not applied: gAMA, cHRM, iCCP and sBIT are ignored and the
// stored values are taken as sRGB, which is what every image this project draws is authored in.
//
// Safety: the header is read and checked against `PNGLimits` before anything proportional to the
// image size is allocated, and libspng's chunk limits bound what text / ICC chunks may inflate to.

import CSPNG
import Raster

/// A decoded PNG before premultiplication: straight-alpha RGBA8, rows packed top to bottom.
public struct PNGRawImage: Equatable, Sendable {
    public let width: UInt32
    public let height: UInt32
    /// `width * height * 4` bytes: R, G, B, A per pixel.
    public let rgba: [UInt8]
    /// tEXt / zTXt / iTXt chunks in file order (keyword, text).
    public let text: [PNGTextChunk]

    public init(width: UInt32, height: UInt32, rgba: [UInt8], text: [PNGTextChunk] = []) {
        precondition(rgba.count == Int(width) * Int(height) * 4, "rgba holds \(rgba.count) bytes, not \(width)x\(height)x4")
        self.width = width; self.height = height; self.rgba = rgba; self.text = text
    }

    /// The value of the first text chunk named `keyword`, if any.
    public func text(forKeyword keyword: String) -> String? {
        text.first { $0.keyword == keyword }?.text
    }

    /// The image as premultiplied ARGB (each colour channel `mul255(c, a)`, exactly rounded).
    public func premultiplied() -> Pixmap {
        let pixmap = Pixmap(width: Int32(width), height: Int32(height))
        rgba.withUnsafeBufferPointer { src in
            var i = 0
            for y in 0..<Int32(height) {
                let row = pixmap.view.row(y)
                for x in 0..<Int(width) {
                    let a = src[i + 3]
                    row[x] = PremultipliedColor(a: a, r: mul255(src[i], a), g: mul255(src[i + 1], a), b: mul255(src[i + 2], a)).argb
                    i += 4
                }
            }
        }
        return pixmap
    }
}

/// A PNG text chunk: a Latin-1 keyword (1–79 bytes) and its text.
public struct PNGTextChunk: Equatable, Sendable {
    public var keyword: String
    public var text: String
    public init(keyword: String, text: String) { self.keyword = keyword; self.text = text }
}

/// Decodes PNG files and buffers (the first frame of an APNG) with libspng.
public enum PNGDecoder {
    /// Decodes `bytes` into a premultiplied ARGB pixmap. libspng writes RGBA8 straight into the
    /// pixmap's memory, which is then premultiplied in place: peak memory is one image.
    public static func decode(_ bytes: [UInt8], limits: PNGLimits = .default) throws -> Pixmap {
        try decodeRGBA8(bytes, limits: limits) { width, height, decodeInto in
            let pixmap = Pixmap(width: Int32(width), height: Int32(height))
            let view = pixmap.view
            precondition(view.rowBytes == Int(width) * 4, "Pixmap rows are expected to be packed")
            try decodeInto(UnsafeMutableRawBufferPointer(start: view.base, count: view.rowBytes * Int(height)))
            premultiplyInPlace(view)
            return pixmap
        }.image
    }

    /// Reads and decodes the PNG file at `path`.
    public static func decode(contentsOf path: String, limits: PNGLimits = .default) throws -> Pixmap {
        try decode(ImageFile.readAll(path, maxBytes: limits.maxFileBytes), limits: limits)
    }

    /// Reads and decodes the PNG file at `path` without premultiplying.
    public static func decodeRaw(contentsOf path: String, limits: PNGLimits = .default) throws -> PNGRawImage {
        try decodeRaw(ImageFile.readAll(path, maxBytes: limits.maxFileBytes), limits: limits)
    }

    /// Decodes `bytes` to straight-alpha RGBA8 plus the text chunks, without premultiplying.
    public static func decodeRaw(_ bytes: [UInt8], limits: PNGLimits = .default) throws -> PNGRawImage {
        let (image, text) = try decodeRGBA8(bytes, limits: limits) { width, height, decodeInto in
            var rgba = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
            try rgba.withUnsafeMutableBytes { try decodeInto($0) }
            return PNGRawImage(width: width, height: height, rgba: rgba)
        }
        return PNGRawImage(width: image.width, height: image.height, rgba: image.rgba, text: text)
    }

    /// The decoding sequence shared by both outputs. Wraps `spng_set_png_buffer`, `spng_get_ihdr`,
    /// `spng_decoded_image_size`, `spng_decode_image(…, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS)` and
    /// `spng_decode_chunks`. `body` gets the checked size and allocates the output, then calls
    /// `decodeInto` with exactly `width * height * 4` bytes to fill.
    private static func decodeRGBA8<Image>(
        _ bytes: [UInt8], limits: PNGLimits,
        _ body: (_ width: UInt32, _ height: UInt32, _ decodeInto: (UnsafeMutableRawBufferPointer) throws -> Void) throws -> Image
    ) throws -> (image: Image, text: [PNGTextChunk]) {
        try checkSignature(bytes)
        let spng = try SPNGContext(encoder: false)
        let ctx = spng.ctx
        // libspng rejects a chunk limit above the cache limit; keep the caller's intent (the smaller).
        let cache = limits.maxChunkCacheBytes
        let chunk = min(limits.maxChunkBytes, cache)
        _ = spng_set_image_limits(ctx, min(limits.maxWidth, UInt32(Int32.max)), min(limits.maxHeight, UInt32(Int32.max)))
        _ = spng_set_chunk_limits(ctx, Int(chunk), Int(cache))
        // A bad CRC is an error in every chunk: silently dropping a damaged tRNS would turn
        // transparent pixels opaque (libspng's default discards damaged ancillary chunks).
        _ = spng_set_crc_action(ctx, Int32(SPNG_CRC_ERROR.rawValue), Int32(SPNG_CRC_ERROR.rawValue))

        return try bytes.withUnsafeBytes { buffer in
            // The buffer must stay valid while libspng reads it: everything happens in this closure.
            let header = { headerSize(bytes) }
            try SPNGContext.checkDecode(spng_set_png_buffer(ctx, buffer.baseAddress, buffer.count), header: header)

            var ihdr = spng_ihdr()
            try SPNGContext.checkDecode(spng_get_ihdr(ctx, &ihdr), header: header)
            let pixels = UInt64(ihdr.width) * UInt64(ihdr.height)
            // Checked before anything is allocated. Pixmap traps above 2^28 pixels: refuse those too.
            if ihdr.width > limits.maxWidth || ihdr.height > limits.maxHeight
                || pixels * 4 > limits.maxDecodedBytes || pixels > 1 << 28 {
                throw ImageError.tooLarge(width: ihdr.width, height: ihdr.height)
            }

            let format = Int32(SPNG_FMT_RGBA8.rawValue)
            var size = 0
            try SPNGContext.checkDecode(spng_decoded_image_size(ctx, format, &size), header: header)
            guard UInt64(size) == pixels * 4 else {
                throw ImageError.corrupt(code: Int32(SPNG_EINTERNAL.rawValue), reason: "unexpected decoded size \(size)")
            }
            let image = try body(ihdr.width, ihdr.height) { out in
                precondition(out.count == size, "decode buffer of \(out.count) bytes, need \(size)")
                let status = spng_decode_image(ctx, out.baseAddress, out.count, format, Int32(SPNG_DECODE_TRNS.rawValue))
                try SPNGContext.checkDecode(status, header: header)
                // libspng stops reading once the last row is inflated; read on to IEND so that the
                // final IDAT's CRC, a cut-off end and any text after the image are checked too.
                try SPNGContext.checkDecode(spng_decode_chunks(ctx), header: header)
            }
            return (image, textChunks(ctx))
        }
    }

    /// Turns RGBA8 bytes into premultiplied native-endian ARGB32 words, pixel by pixel in place.
    private static func premultiplyInPlace(_ view: PixmapView) {
        for y in 0..<view.height {
            let row = UnsafeMutableRawPointer(view.row(y))
            for x in 0..<Int(view.width) {
                let p = row + x * 4
                let r = p.load(as: UInt8.self), g = p.load(fromByteOffset: 1, as: UInt8.self)
                let b = p.load(fromByteOffset: 2, as: UInt8.self), a = p.load(fromByteOffset: 3, as: UInt8.self)
                p.storeBytes(of: PremultipliedColor(a: a, r: mul255(r, a), g: mul255(g, a), b: mul255(b, a)).argb, as: UInt32.self)
            }
        }
    }

    /// Tells "not a PNG at all" from "a PNG cut short inside its signature".
    private static func checkSignature(_ bytes: [UInt8]) throws {
        let n = min(bytes.count, 8)
        if n == 0 || !bytes.prefix(n).elementsEqual(PNGChunk.signature.prefix(n)) { throw ImageError.notPNG }
        if n < 8 { throw ImageError.truncated }
    }

    /// Width and height as the IHDR declares them (for `tooLarge` when libspng refused the header).
    private static func headerSize(_ bytes: [UInt8]) -> (UInt32, UInt32) {
        guard bytes.count >= 24 else { return (0, 0) }
        func u32(_ i: Int) -> UInt32 {
            UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
        }
        return (u32(16), u32(20))
    }

    /// Copies the text chunks out of the context (`spng_get_text`) before it is freed.
    private static func textChunks(_ ctx: OpaquePointer) -> [PNGTextChunk] {
        var count: UInt32 = 0
        guard spng_get_text(ctx, nil, &count) == 0, count > 0 else { return [] }
        var chunks = [spng_text](repeating: spng_text(), count: Int(count))
        guard spng_get_text(ctx, &chunks, &count) == 0 else { return [] }
        return chunks.prefix(Int(count)).map { chunk in
            var keywordTuple = chunk.keyword
            let keyword = withUnsafeBytes(of: &keywordTuple) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            // Stop at a NUL: libspng counts the terminator in the length of inflated (zTXt) text.
            let text = chunk.text.map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: chunk.length).prefix { $0 != 0 }, as: UTF8.self)
            } ?? ""
            return PNGTextChunk(keyword: keyword, text: text)
        }
    }
}

/// The same decoder under the name `PNGImage.decode(_:limits:)`.
public typealias PNGImage = PNGDecoder
