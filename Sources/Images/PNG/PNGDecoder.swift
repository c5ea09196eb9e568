// SPDX-License-Identifier: MIT
// PNG decoding through libpng (CPNGCodec), into premultiplied ARGB `Pixmap`s.
//
// Every PNG colour type and bit depth is accepted (gray 1/2/4/8/16, gray+alpha 8/16, RGB 8/16,
// RGBA 8/16, palette 1/2/4/8 with or without tRNS, Adam7 interlaced or not); libpng's transforms
// turn all of them into straight-alpha RGBA8, tRNS applied as alpha:
//  - low bit depths are scaled to the full 0...255 range (1-bit 1 → 255, 4-bit 0xA → 0xAA);
//  - 16-bit samples keep their high byte (0xABCD → 0xAB).
// Colour management is deliberately not applied: gAMA, cHRM, iCCP and sBIT are skipped unread and
// the stored values are taken as sRGB, which is what every image this project draws is authored in.
//
// Safety: the header is read and checked against `PNGLimits` before anything proportional to the
// image size is allocated, and the text chunks are measured against the chunk limits before
// libpng inflates them (PNGTextLimits).

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

/// Decodes PNG files and buffers (the first frame of an APNG) with libpng.
public enum PNGDecoder {
    /// Decodes `bytes` into a premultiplied ARGB pixmap. libpng writes RGBA8 straight into the
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

    /// The decoding sequence shared by both outputs: the text chunks measured against the limits,
    /// the header read and checked, then the pixels. `body` gets the checked size and allocates the
    /// output, then calls `decodeInto` with exactly `width * height * 4` bytes to fill.
    private static func decodeRGBA8<Image>(
        _ bytes: [UInt8], limits: PNGLimits,
        _ body: (_ width: UInt32, _ height: UInt32, _ decodeInto: (UnsafeMutableRawBufferPointer) throws -> Void) throws -> Image
    ) throws -> (image: Image, text: [PNGTextChunk]) {
        try checkSignature(bytes)
        return try bytes.withUnsafeBytes { buffer in
            // The buffer must stay valid while libpng reads it: everything happens in this closure.
            try PNGTextLimits.check(buffer, limits)
            let reader = try PNGReader(buffer)
            let (width, height) = try reader.readHeader()
            let pixels = UInt64(width) * UInt64(height)
            // Checked before anything is allocated. Pixmap traps above 2^28 pixels: refuse those too.
            if width > limits.maxWidth || height > limits.maxHeight || pixels * 4 > limits.maxDecodedBytes || pixels > 1 << 28 {
                throw ImageError.tooLarge(width: width, height: height)
            }
            let image = try body(width, height) { out in
                precondition(UInt64(out.count) == pixels * 4, "decode buffer of \(out.count) bytes, need \(pixels * 4)")
                try reader.readRGBA8(into: out, rowBytes: Int(width) * 4)
            }
            return (image, reader.textChunks())
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
}

/// The same decoder under the name `PNGImage.decode(_:limits:)`.
public typealias PNGImage = PNGDecoder
