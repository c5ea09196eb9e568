// SPDX-License-Identifier: MIT
// The process's one FT_Library, made on first use and kept for the life of the process: every
// `FontFace` opens and closes its face here, under one lock, as FreeType asks of a library shared
// across threads (FT_Library's documentation, since 2.5.6). What a face does after it opens
// (FT_Get_Char_Index, FT_Load_Glyph, FT_Outline_Decompose) touches only that face.

import CFreeType
import LinuxSystem

final class FreeTypeLibrary: @unchecked Sendable {
    static let shared = FreeTypeLibrary()

    private let lock = Lock()
    private let library: FT_Library?
    /// FT_Init_FreeType's error, reported by every open when it failed.
    private let initError: FT_Error

    private init() {
        var lib: FT_Library?
        initError = FT_Init_FreeType(&lib)
        library = initError == 0 ? lib : nil
    }

    /// The first face of the font file at `path` (FT_New_Face). Throws `.freeType` when the library
    /// did not start, `.notAFont` when FreeType refuses the file.
    func openFace(_ path: String, index: Int32 = 0) throws -> FT_Face {
        guard let library else {
            throw FontError.freeType(call: "FT_Init_FreeType", code: initError, reason: FontError.freeTypeText(initError))
        }
        var opened: FT_Face?
        let error = lock.withLock { FT_New_Face(library, path, FT_Long(index), &opened) }
        guard error == 0, let opened else {
            throw FontError.notAFont(path: path, code: error, reason: FontError.freeTypeText(error))
        }
        return opened
    }

    /// Frees a face `openFace` returned (FT_Done_Face).
    func close(_ face: FT_Face) {
        _ = lock.withLock { FT_Done_Face(face) }
    }
}
