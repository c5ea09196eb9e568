// SPDX-License-Identifier: MIT
// What can go wrong opening fonts and loading glyphs, as one small enum whose messages name the file
// and, for FreeType failures, FreeType's error code and text. Debian builds FreeType without
// FT_CONFIG_OPTION_ERROR_STRINGS, so FT_Error_String returns NULL there; the common codes' texts
// (from fterrdef.h) are kept here as the fallback.

import CFreeType

/// A font could not be opened, or a glyph could not be loaded.
public enum FontError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing exists at `path`.
    case fileNotFound(path: String)
    /// `path` exists but cannot be read (`reason` is the errno text, or why it was refused).
    case unreadable(path: String, reason: String)
    /// FreeType could not open `path` as a font (`code` is the FT_Error, `reason` its text).
    case notAFont(path: String, code: Int32, reason: String)
    /// The font has no outlines (a bitmap-only font); our rasterizer needs outlines.
    case notScalable(path: String)
    /// The font's metrics are outside what any real font has (units per em outside 16...16384, an
    /// ascender, descender or line height beyond 4 em): laid out, they would overflow 16.16 pixels.
    case implausibleMetrics(path: String, reason: String)
    /// A FreeType call failed outside opening a file (FT_Init_FreeType, FT_Load_Glyph…).
    case freeType(call: String, code: Int32, reason: String)
    /// A font search found no file that loads; `searched` lists every path tried, in order, and
    /// `reasons` why each one failed (the same order).
    case noUsableFont(searched: [String], reasons: [String])

    public var description: String {
        switch self {
        case let .fileNotFound(path):
            return "font file not found: \(path)"
        case let .unreadable(path, reason):
            return "cannot read font file \(path): \(reason)"
        case let .notAFont(path, code, reason):
            return "not a usable font: \(path): \(reason) (FreeType error 0x\(String(code, radix: 16)))"
        case let .notScalable(path):
            return "font has no scalable outlines (bitmap-only): \(path)"
        case let .implausibleMetrics(path, reason):
            return "not a usable font: \(path): \(reason)"
        case let .freeType(call, code, reason):
            return "\(call) failed: \(reason) (FreeType error 0x\(String(code, radix: 16)))"
        case let .noUsableFont(searched, reasons):
            if searched.isEmpty { return "no usable font: searched no paths" }
            return "no usable font: searched \(searched.joined(separator: ", "))"
                + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))")
        }
    }

    /// FreeType's text for `code`: FT_Error_String when the library has it, else our table.
    static func freeTypeText(_ code: FT_Error) -> String {
        if let s = FT_Error_String(code) { return String(cString: s) }
        return knownTexts[code] ?? "unknown FreeType error"
    }

    /// The generic, glyph, stream and memory errors of fterrdef.h (the ones opening a file or
    /// loading a glyph can produce).
    private static let knownTexts: [FT_Error: String] = [
        0x01: "cannot open resource", 0x02: "unknown file format", 0x03: "broken file",
        0x04: "invalid FreeType version", 0x05: "module version is too low", 0x06: "invalid argument",
        0x07: "unimplemented feature", 0x08: "broken table", 0x09: "broken offset within table",
        0x0A: "array allocation size too large", 0x0B: "missing module", 0x0C: "missing property",
        0x10: "invalid glyph index", 0x11: "invalid character code", 0x12: "unsupported glyph image format",
        0x13: "cannot render this glyph format", 0x14: "invalid outline", 0x15: "invalid composite glyph",
        0x16: "too many hints", 0x17: "invalid pixel size", 0x18: "invalid SVG document",
        0x20: "invalid object handle", 0x21: "invalid library handle", 0x23: "invalid face handle",
        0x40: "out of memory", 0x51: "cannot open stream", 0x52: "invalid stream seek",
        0x53: "invalid stream skip", 0x54: "invalid stream read", 0x55: "invalid stream operation",
        0x56: "invalid frame operation", 0x57: "nested frame access", 0x58: "invalid frame read",
    ]
}
