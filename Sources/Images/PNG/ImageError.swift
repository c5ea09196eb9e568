// SPDX-License-Identifier: MIT
// What can go wrong reading or writing PNG / APNG images, as one small enum with messages that name
// the cause (and, for what libpng refuses, libpng's own message).

/// A PNG could not be decoded, encoded, read or written.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes do not start with the 8-byte PNG signature.
    case notPNG
    /// The data ends before the image does (the file was cut short).
    case truncated
    /// A chunk CRC, the zlib stream, or a chunk's contents are invalid; `reason` is libpng's message.
    case corrupt(reason: String)
    /// The header declares an image over `PNGLimits`; refused before any pixel memory is allocated.
    case tooLarge(width: UInt32, height: UInt32)
    /// A text chunk (tEXt, zTXt, iTXt), or all of them together, inflates beyond `PNGLimits`' chunk limits.
    case chunkTooLarge
    /// Opening or reading `path` failed; `reason` is the errno text (or why the file was refused).
    case unreadableFile(path: String, reason: String)
    /// Creating or writing `path` failed; `reason` is the errno text.
    case unwritableFile(path: String, reason: String)
    /// The image cannot be encoded as asked (empty image, frames of different sizes, no frames…).
    case unencodable(String)
    /// libpng's encoder failed (its message); not expected for valid input.
    case encoderFailed(reason: String)
    /// Memory for the decoder, the encoder or their output could not be allocated.
    case outOfMemory

    public var description: String {
        switch self {
        case .notPNG:
            return "not a PNG: the data does not start with the PNG signature"
        case .truncated:
            return "truncated PNG: the data ends before the image is complete"
        case let .corrupt(reason):
            return "corrupt PNG: \(reason)"
        case let .tooLarge(width, height):
            return "PNG too large: \(width)x\(height) exceeds the decoder's size limits"
        case .chunkTooLarge:
            return "PNG chunk too large: its text chunks inflate beyond the chunk limits"
        case let .unreadableFile(path, reason):
            return "cannot read \(path): \(reason)"
        case let .unwritableFile(path, reason):
            return "cannot write \(path): \(reason)"
        case let .unencodable(reason):
            return "cannot encode PNG: \(reason)"
        case let .encoderFailed(reason):
            return "PNG encoder failed: \(reason)"
        case .outOfMemory:
            return "out of memory for the PNG decoder or encoder"
        }
    }
}

/// Bounds on what the decoder accepts, so a hostile or broken file cannot make it allocate
/// unbounded memory. Every check happens after reading the header and before allocating pixels.
public struct PNGLimits: Equatable, Sendable {
    /// Largest accepted width and height in pixels.
    public var maxWidth: UInt32
    public var maxHeight: UInt32
    /// Largest decoded image in bytes (4 bytes a pixel). Also capped by `Pixmap`'s 2^28-pixel limit.
    public var maxDecodedBytes: UInt64
    /// Largest single text chunk after inflation (tEXt, zTXt, iTXt), and the total kept for all of
    /// them; checked before libpng inflates anything (PNGTextLimits). The other ancillary chunks are
    /// skipped unread.
    public var maxChunkBytes: UInt32
    public var maxChunkCacheBytes: UInt32
    /// Largest file `decode(contentsOf:)` reads into memory.
    public var maxFileBytes: UInt64

    public init(maxWidth: UInt32 = 8192, maxHeight: UInt32 = 8192, maxDecodedBytes: UInt64 = 64 << 20,
                maxChunkBytes: UInt32 = 1 << 20, maxChunkCacheBytes: UInt32 = 4 << 20,
                maxFileBytes: UInt64 = 128 << 20) {
        self.maxWidth = maxWidth; self.maxHeight = maxHeight; self.maxDecodedBytes = maxDecodedBytes
        self.maxChunkBytes = maxChunkBytes; self.maxChunkCacheBytes = maxChunkCacheBytes
        self.maxFileBytes = maxFileBytes
    }

    /// 8192x8192, 64 MiB decoded, 1 MiB per text chunk, 4 MiB for all of them, 128 MiB files.
    public static let `default` = PNGLimits()
}
