// SPDX-License-Identifier: MIT
// PNG encoding through libpng (CPNGCodec's writer, into memory).
//
// A premultiplied view is written as straight-alpha RGBA8, or RGB8 when every pixel is opaque
// (smaller, and what viewers expect of a screenshot). Un-premultiplying rounds, so a translucent
// pixel may not come back bit-identical after decode + premultiply; goldens that must round-trip
// exactly store premultiplied values instead (see GoldenSupport).
//
// Output is deterministic: same pixels and text → same bytes. libpng writes no time stamp unless
// asked, and its filter choice and zlib settings depend only on the data.

import CPNGCodec
import Raster

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
    /// height` pixels of `colorType`, rows packed. The text goes in tEXt chunks before the image.
    public static func encode(samples: [UInt8], width: UInt32, height: UInt32, colorType: ColorType,
                              text: [PNGTextChunk] = []) throws -> [UInt8] {
        guard width > 0, height > 0, width <= UInt32(Int32.max), height <= UInt32(Int32.max) else {
            throw ImageError.unencodable("a PNG must be 1...2^31-1 pixels each way, not \(width)x\(height)")
        }
        guard UInt64(samples.count) == UInt64(width) * UInt64(height) * UInt64(colorType.bytesPerPixel) else {
            throw ImageError.unencodable("\(samples.count) sample bytes do not make a \(width)x\(height) \(colorType) image")
        }
        for chunk in text where !isValidKeyword(chunk.keyword) || chunk.text.utf8.contains(0) {
            throw ImageError.unencodable("invalid text chunk keyword \"\(chunk.keyword)\"")
        }
        // C strings that live until the codec returns (libpng copies them into its own chunks).
        let keywords = text.map { Array($0.keyword.utf8CString) }
        let texts = text.map { Array($0.text.utf8CString) }
        return try withCStrings(keywords) { keywordPointers in
            try withCStrings(texts) { textPointers in
                let entries = zip(keywordPointers, textPointers).map { png_codec_text_entry(keyword: $0, text: $1) }
                var png: UnsafeMutablePointer<UInt8>?
                var size = 0
                var message = [CChar](repeating: 0, count: 160)
                let status = samples.withUnsafeBufferPointer { samples in
                    png_codec_write(samples.baseAddress, width, height, colorType == .rgba ? 1 : 0, entries, entries.count,
                                    &png, &size, &message, message.count)
                }
                switch status {
                case PNG_CODEC_OK: break
                case PNG_CODEC_NO_MEMORY: throw ImageError.outOfMemory
                default: throw ImageError.encoderFailed(reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
                }
                defer { png_codec_free(png) }  // the codec's buffer, copied out here
                return Array(UnsafeRawBufferPointer(start: png, count: size))
            }
        }
    }

    /// A PNG keyword as libpng writes it unchanged: 1–79 printable ASCII characters, no leading,
    /// trailing or doubled spaces (libpng would rewrite any other, and warn).
    static func isValidKeyword(_ keyword: String) -> Bool {
        let bytes = Array(keyword.utf8)
        guard (1...79).contains(bytes.count), bytes.first != 0x20, bytes.last != 0x20 else { return false }
        return bytes.allSatisfy { (0x20...0x7E).contains($0) } && !zip(bytes, bytes.dropFirst()).contains { $0 == 0x20 && $1 == 0x20 }
    }

    /// Pointers to each of `strings` (NUL-terminated), valid while `body` runs.
    private static func withCStrings<T>(_ strings: [[CChar]], _ body: ([UnsafePointer<CChar>]) throws -> T) throws -> T {
        func nest(_ index: Int, _ pointers: [UnsafePointer<CChar>]) throws -> T {
            if index == strings.count { return try body(pointers) }
            return try strings[index].withUnsafeBufferPointer { try nest(index + 1, pointers + [$0.baseAddress!]) }
        }
        return try nest(0, [])
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
