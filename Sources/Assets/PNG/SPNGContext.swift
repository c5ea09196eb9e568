// The one owner of a libspng context: created in init, freed in deinit, and the single place that
// turns libspng's `int` return codes into `ImageError`s.

import CSPNG

final class SPNGContext {
    let ctx: OpaquePointer

    /// `spng_ctx_new(flags)`; `SPNG_CTX_ENCODER` for an encoder.
    init(encoder: Bool) throws {
        let flags: Int32 = encoder ? Int32(SPNG_CTX_ENCODER.rawValue) : 0
        guard let ctx = spng_ctx_new(flags) else {
            throw ImageError.encoderFailed(code: Int32(SPNG_EMEM.rawValue), reason: "spng_ctx_new failed (out of memory)")
        }
        self.ctx = ctx
    }
    deinit { spng_ctx_free(ctx) }

    /// libspng's text for an error code (`spng_strerror`).
    static func message(_ code: Int32) -> String { String(cString: spng_strerror(code)) }

    /// Throws the decoding error for a non-zero libspng return code.
    static func checkDecode(_ code: Int32, header: () -> (UInt32, UInt32)) throws {
        if code == 0 { return }
        switch code {
        case Int32(SPNG_ESIGNATURE.rawValue):
            throw ImageError.notPNG
        case Int32(SPNG_IO_EOF.rawValue), Int32(SPNG_EOF.rawValue):
            throw ImageError.truncated
        case Int32(SPNG_EUSER_WIDTH.rawValue), Int32(SPNG_EUSER_HEIGHT.rawValue), Int32(SPNG_EOVERFLOW.rawValue):
            let (width, height) = header()
            throw ImageError.tooLarge(width: width, height: height)
        case Int32(SPNG_ECHUNK_LIMITS.rawValue):
            throw ImageError.chunkTooLarge
        default:
            throw ImageError.corrupt(code: code, reason: message(code))
        }
    }

    /// Throws `encoderFailed` for a non-zero libspng return code from the encoder.
    static func checkEncode(_ code: Int32, _ call: String) throws {
        if code != 0 { throw ImageError.encoderFailed(code: code, reason: "\(call): \(message(code))") }
    }
}
