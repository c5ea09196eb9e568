// SPDX-License-Identifier: MIT
// The one owner of a libpng decoder (CPNGCodec's reader, which keeps libpng's longjmps out of
// Swift): created in init, freed in deinit, and the single place that turns its statuses into
// `ImageError`s.

import CPNGCodec

final class PNGReader {
    private let reader: OpaquePointer

    /// A decoder over `buffer`, which must stay valid for the reader's whole life.
    init(_ buffer: UnsafeRawBufferPointer) throws {
        guard let base = buffer.baseAddress, let reader = png_codec_reader_new(base.assumingMemoryBound(to: UInt8.self), buffer.count) else {
            throw ImageError.outOfMemory
        }
        self.reader = reader
    }
    deinit { png_codec_reader_free(reader) }

    /// Reads up to the image data; the image's width and height.
    func readHeader() throws -> (width: UInt32, height: UInt32) {
        var width: UInt32 = 0, height: UInt32 = 0
        try check(png_codec_read_header(reader, &width, &height))
        return (width, height)
    }

    /// Decodes straight-alpha RGBA8 into `out` (rows of `rowBytes`) and reads on to IEND.
    func readRGBA8(into out: UnsafeMutableRawBufferPointer, rowBytes: Int) throws {
        try check(png_codec_read_rgba8(reader, out.baseAddress!.assumingMemoryBound(to: UInt8.self), rowBytes))
    }

    /// The text chunks read so far, in file order.
    func textChunks() -> [PNGTextChunk] {
        (0..<png_codec_text_count(reader)).map { index in
            var keyword: UnsafePointer<CChar>?, text: UnsafePointer<CChar>?, length = 0
            png_codec_text_at(reader, index, &keyword, &text, &length)
            // Text ends at a NUL even where the chunk's length runs on.
            let bytes = UnsafeRawBufferPointer(start: text, count: text == nil ? 0 : length).prefix { $0 != 0 }
            return PNGTextChunk(keyword: keyword.map { String(cString: $0) } ?? "", text: String(decoding: bytes, as: UTF8.self))
        }
    }

    private func check(_ status: png_codec_status) throws {
        switch status {
        case PNG_CODEC_OK: return
        case PNG_CODEC_TRUNCATED: throw ImageError.truncated
        case PNG_CODEC_NO_MEMORY: throw ImageError.outOfMemory
        default: throw ImageError.corrupt(reason: String(cString: png_codec_reader_message(reader)))
        }
    }
}
