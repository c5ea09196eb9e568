// SPDX-License-Identifier: MIT
// The firmware's boot logo as ACPI's BGRT hands it over: a Windows BMP. No library Debian ships
// decodes BMP small and safely (libpng does not; ImageMagick's and SDL's are whole frameworks), and
// the subset firmware writes is tiny, so it is decoded here, every offset checked against the file:
//  - "BM", a BITMAPINFOHEADER or a later one (40, 52, 56, 108 or 124 bytes), one plane;
//  - 24 bits a pixel (what efifb redraws) or 32, uncompressed (BI_RGB; BI_BITFIELDS when its
//    masks are the plain B, G, R bytes);
//  - rows padded to 4 bytes, bottom-up (height > 0) or top-down (height < 0).
// The image is opaque: a framebuffer has no alpha, so a 32-bit pixel's fourth byte is ignored.
// Integers are read little-endian byte by byte, so the decoder is the same on any host.
import Raster

/// Why a BMP was refused.
public enum BMPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes do not start with "BM".
    case notBMP
    /// The file ends before the part named.
    case truncated(String)
    /// A header field holds what this decoder does not take (named, with its value).
    case unsupported(String)
    /// The image is over the limits; refused before pixel memory is allocated.
    case tooLarge(width: Int64, height: Int64)

    public var description: String {
        switch self {
        case .notBMP: return "not a BMP: the data does not start with \"BM\""
        case .truncated(let part): return "truncated BMP: the data ends inside the \(part)"
        case .unsupported(let what): return "unsupported BMP: \(what)"
        case let .tooLarge(width, height): return "BMP too large: \(width)x\(height) exceeds the decoder's size limits"
        }
    }
}

public enum BMPDecoder {
    /// Largest width and height taken (a firmware logo is a few hundred pixels; the largest panel
    /// firmware drives is 8K).
    public static let maxSide: Int64 = 8192

    /// Decodes `bytes` into an opaque premultiplied ARGB pixmap.
    public static func decode(_ bytes: [UInt8]) throws(BMPError) -> Pixmap {
        let file = Bytes(bytes)
        guard bytes.count >= 2, bytes[0] == 0x42, bytes[1] == 0x4D else { throw .notBMP }
        guard bytes.count >= 14 + 40 else { throw .truncated("header") }
        let pixelOffset = Int64(file.u32(10))
        let headerSize = file.u32(14)
        guard [40, 52, 56, 108, 124].contains(headerSize) else { throw .unsupported("a \(headerSize)-byte info header") }
        guard Int64(bytes.count) >= 14 + Int64(headerSize) else { throw .truncated("info header") }
        let width = Int64(Int32(bitPattern: file.u32(18)))
        let rawHeight = Int64(Int32(bitPattern: file.u32(22)))
        let planes = file.u16(26), bits = file.u16(28), compression = file.u32(30)
        guard planes == 1 else { throw .unsupported("\(planes) planes") }
        guard bits == 24 || bits == 32 else { throw .unsupported("\(bits) bits a pixel") }
        switch compression {
        case 0: break
        case 3 where bits == 32:
            // BI_BITFIELDS: the masks follow a 40-byte header, or are in the larger ones.
            guard Int64(bytes.count) >= 14 + 40 + 12 else { throw .truncated("colour masks") }
            guard file.u32(54) == 0x00FF_0000, file.u32(58) == 0x0000_FF00, file.u32(62) == 0x0000_00FF else {
                throw .unsupported("colour masks other than 8-bit B, G, R")
            }
        default: throw .unsupported("compression \(compression)")
        }
        let height = rawHeight < 0 ? -rawHeight : rawHeight
        guard width > 0, height > 0 else { throw .unsupported("a \(width)x\(rawHeight) image") }
        guard width <= maxSide, height <= maxSide else { throw .tooLarge(width: width, height: height) }
        let bytesPerPixel = Int64(bits / 8)
        let stride = (width * bytesPerPixel + 3) / 4 * 4
        guard pixelOffset >= 14 + Int64(headerSize), pixelOffset <= Int64(bytes.count) else {
            throw .unsupported("pixel data at offset \(pixelOffset) in a file of \(bytes.count) bytes")
        }
        // The last row needs only its pixels, not its padding (some writers drop it).
        guard pixelOffset + stride * (height - 1) + width * bytesPerPixel <= Int64(bytes.count) else {
            throw .truncated("pixel rows")
        }
        let w = Int32(width), h = Int32(height)
        let pixmap = Pixmap(width: w, height: h)
        let topDown = rawHeight < 0
        bytes.withUnsafeBufferPointer { src in
            for y in 0..<h {
                let fileRow = topDown ? Int64(y) : height - 1 - Int64(y)
                var i = Int(pixelOffset + fileRow * stride)
                let row = pixmap.view.row(y)
                for x in 0..<Int(w) {
                    row[x] = 0xFF00_0000 | UInt32(src[i + 2]) << 16 | UInt32(src[i + 1]) << 8 | UInt32(src[i])
                    i += Int(bytesPerPixel)
                }
            }
        }
        return pixmap
    }

    /// Little-endian reads at offsets the caller has checked.
    private struct Bytes {
        let b: [UInt8]
        init(_ b: [UInt8]) { self.b = b }
        func u16(_ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 {
            UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
        }
    }
}
