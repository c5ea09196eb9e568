// PNG encoding through libspng's encoder (`SPNG_CTX_ENCODER`, `SPNG_ENCODE_TO_BUFFER`).
//
// A premultiplied view is written as straight-alpha RGBA8, or RGB8 when every pixel is opaque
// (smaller, and what viewers expect of a screenshot). Un-premultiplying rounds, so a translucent
// pixel may not come back bit-identical after decode + premultiply; goldens that must round-trip
// exactly store premultiplied values instead (see GoldenSupport).
//
// Output is deterministic: same pixels and text → same bytes. libspng writes no time stamp, and
// its filter choice and zlib settings depend only on the data.

import CSPNG
import Raster

import LinuxSystem

/// Encodes premultiplied pixmaps and raw RGBA8 buffers as PNG.
public enum PNGEncoder {
    /// PNG colour types this encoder writes.
    public enum ColorType: UInt8, Sendable {
        /// 3 bytes a pixel: R, G, B (PNG colour type 2).
        case rgb = 2
        /// 4 bytes a pixel: R, G, B, A straight alpha (PNG colour type 6).
        case rgba = 6
        var bytesPerPixel: Int { self == .rgb ? 3 : 4 }
    }

    /// Encodes `view`: RGB8 when every pixel is opaque, otherwise un-premultiplied RGBA8.
    public static func encode(_ view: PixmapView, text: [PNGTextChunk] = []) throws -> [UInt8] {
        let (samples, colorType) = try straightSamples(view)
        return try encode(samples: samples, width: UInt32(view.width), height: UInt32(view.height),
                          colorType: colorType, text: text)
    }

    /// Encodes `pixmap`'s view.
    public static func encode(_ pixmap: Pixmap, text: [PNGTextChunk] = []) throws -> [UInt8] {
        try encode(pixmap.view, text: text)
    }

    /// Encodes `pixmap`'s view and writes it to `path` (atomically).
    public static func write(_ pixmap: Pixmap, to path: String, text: [PNGTextChunk] = []) throws {
        try write(pixmap.view, to: path, text: text)
    }

    /// Encodes `view` and writes it to `path` (atomically: temporary file, then rename).
    public static func write(_ view: PixmapView, to path: String, text: [PNGTextChunk] = []) throws {
        try ImageFile.writeAll(encode(view, text: text), to: path)
    }

    /// Encodes 8-bit samples as they are (no premultiplication logic): `samples` holds `width *
    /// height` pixels of `colorType`, rows packed. Wraps `spng_set_ihdr`, `spng_set_text` and
    /// `spng_encode_image(…, SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE)` + `spng_get_png_buffer`.
    public static func encode(samples: [UInt8], width: UInt32, height: UInt32, colorType: ColorType,
                              text: [PNGTextChunk] = []) throws -> [UInt8] {
        guard width > 0, height > 0, width <= UInt32(Int32.max), height <= UInt32(Int32.max) else {
            throw ImageError.unencodable("a PNG must be 1...2^31-1 pixels each way, not \(width)x\(height)")
        }
        guard UInt64(samples.count) == UInt64(width) * UInt64(height) * UInt64(colorType.bytesPerPixel) else {
            throw ImageError.unencodable("\(samples.count) sample bytes do not make a \(width)x\(height) \(colorType) image")
        }
        for chunk in text {
            let bytes = Array(chunk.keyword.utf8)
            guard (1...79).contains(bytes.count), !bytes.contains(0), !chunk.text.utf8.contains(0) else {
                throw ImageError.unencodable("invalid text chunk keyword \"\(chunk.keyword)\"")
            }
        }

        let spng = try SPNGContext(encoder: true)
        let ctx = spng.ctx
        try SPNGContext.checkEncode(spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1), "spng_set_option(SPNG_ENCODE_TO_BUFFER)")
        var ihdr = spng_ihdr(width: width, height: height, bit_depth: 8, color_type: colorType.rawValue,
                             compression_method: 0, filter_method: 0, interlace_method: 0)
        try SPNGContext.checkEncode(spng_set_ihdr(ctx, &ihdr), "spng_set_ihdr")

        return try withTextChunks(text, ctx) {
            let status = samples.withUnsafeBytes {
                spng_encode_image(ctx, $0.baseAddress, $0.count, Int32(SPNG_FMT_PNG.rawValue), Int32(SPNG_ENCODE_FINALIZE.rawValue))
            }
            try SPNGContext.checkEncode(status, "spng_encode_image")
            var length = 0
            var error: Int32 = 0
            guard let png = spng_get_png_buffer(ctx, &length, &error) else {
                throw ImageError.encoderFailed(code: error, reason: "spng_get_png_buffer: \(SPNGContext.message(error))")
            }
            defer { free(png) }  // the caller owns libspng's output buffer
            return Array(UnsafeRawBufferPointer(start: png, count: length))
        }
    }

    /// Hands the chunks to `spng_set_text`. libspng keeps pointers to the text until the image is
    /// encoded, so the C strings live until `body` returns.
    private static func withTextChunks<T>(_ chunks: [PNGTextChunk], _ ctx: OpaquePointer,
                                          _ body: () throws -> T) throws -> T {
        if chunks.isEmpty { return try body() }
        var entries = [spng_text](repeating: spng_text(), count: chunks.count)
        let texts = chunks.map { Array($0.text.utf8) + [0] }
        let pointers = texts.map { bytes -> UnsafeMutablePointer<CChar> in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            for (j, byte) in bytes.enumerated() { p[j] = CChar(bitPattern: byte) }
            return p
        }
        defer { pointers.forEach { $0.deallocate() } }
        for (i, chunk) in chunks.enumerated() {
            withUnsafeMutableBytes(of: &entries[i].keyword) { raw in
                raw.initializeMemory(as: UInt8.self, repeating: 0)
                for (j, byte) in chunk.keyword.utf8.enumerated() { raw[j] = byte }
            }
            entries[i].type = Int32(SPNG_TEXT.rawValue)
            entries[i].length = texts[i].count - 1
            entries[i].text = pointers[i]
        }
        try SPNGContext.checkEncode(spng_set_text(ctx, &entries, UInt32(entries.count)), "spng_set_text")
        return try body()
    }

    /// Un-premultiplied samples of `view`, as RGB when every pixel is opaque (unless `forceAlpha`).
    static func straightSamples(_ view: PixmapView, forceAlpha: Bool = false) throws -> ([UInt8], ColorType) {
        guard view.width > 0, view.height > 0 else {
            throw ImageError.unencodable("a PNG must be at least 1x1, not \(view.width)x\(view.height)")
        }
        let opaque = !forceAlpha && isOpaque(view)
        let colorType: ColorType = opaque ? .rgb : .rgba
        var samples = [UInt8]()
        samples.reserveCapacity(Int(view.width) * Int(view.height) * colorType.bytesPerPixel)
        for y in 0..<view.height {
            let row = view.row(y)
            for x in 0..<Int(view.width) {
                let color = PremultipliedColor(argb: row[x])
                if opaque {
                    samples.append(color.r); samples.append(color.g); samples.append(color.b)
                } else {
                    let c = color.unpremultiplied
                    samples.append(c.r); samples.append(c.g); samples.append(c.b); samples.append(c.a)
                }
            }
        }
        return (samples, colorType)
    }

    /// True when every pixel of `view` has alpha 255.
    public static func isOpaque(_ view: PixmapView) -> Bool {
        for y in 0..<view.height {
            let row = view.row(y)
            for x in 0..<Int(view.width) where row[x] >> 24 != 0xFF { return false }
        }
        return true
    }
}
