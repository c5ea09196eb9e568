// SPDX-License-Identifier: MIT
// A QR code's modules, from libqrencode: the one file that calls it (the daemon's support code, an
// address a person scans off a failed update's screen). Level M (15 % of the code may be lost: a
// smudged screen, a glare), the smallest version the text fits, modes chosen by libqrencode
// (QRcode_encodeString, case-sensitive, 8-bit where a byte is not alphanumeric).
//
// QRcode's `data` holds one byte per module, row by row; bit 0 is the module's colour (1 = dark), the
// other bits say what the module is part of (finder, timing, format, ...), which nothing here needs.
import CQREncode

/// The square of modules of one QR code, without its quiet zone.
public struct QRMatrix: Equatable, Sendable {
    /// The symbol's version, 1...40: `size` is 17 + 4 × version.
    public let version: Int
    /// Modules per side.
    public let size: Int
    /// `size` × `size` modules, row by row: true is dark.
    public let modules: [Bool]

    /// The symbol of `text`'s UTF-8 bytes. Throws when libqrencode refuses it (`errno`: ERANGE for a
    /// text that no version 40 code holds, EINVAL for one with a NUL, ENOMEM).
    ///
    /// The corresponding C function is `QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1)`.
    public init(encoding text: String) throws(QRMatrixError) {
        if text.utf8.contains(0) { throw QRMatrixError(bytes: text.utf8.count, errno: EINVAL) }
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            throw QRMatrixError(bytes: text.utf8.count, errno: CQREncode_errno())
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        version = Int(code.pointee.version)
        size = width
        modules = (0..<(width * width)).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module in `row`, `column` is dark.
    public subscript(row: Int, column: Int) -> Bool { modules[row * size + column] }
}

/// Why a text has no QR code.
public struct QRMatrixError: Error, Equatable, CustomStringConvertible {
    /// The text's length in UTF-8 bytes.
    public let bytes: Int
    public let errno: Int32

    public var description: String {
        switch errno {
        case ERANGE: return "\(bytes) bytes do not fit a QR code (version 40, level M)"
        case EINVAL: return "\(bytes) bytes with a NUL or otherwise refused by libqrencode (EINVAL)"
        case ENOMEM: return "libqrencode ran out of memory for \(bytes) bytes (ENOMEM)"
        default: return "libqrencode refused \(bytes) bytes (errno \(errno))"
        }
    }
}
