// SPDX-License-Identifier: MIT
// Fonts the font and text tests use: Debian's fonts-dejavu-core, fonts-droid-fallback and
// fonts-urw-base35 (a CFF font, pulled in by imagemagick's ghostscript), all required.

import Assets
import Foundation
import Raster

enum TestFonts {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let droid = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
    static let nimbusSans = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"

    /// DejaVu Sans then Droid Sans Fallback, the default chain's first two faces.
    static func chain() throws -> FontChain { try FontChain(paths: [dejaVu, droid]) }

    /// A fresh path under the temporary directory (the file is not created).
    static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "splashhud-text-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)"
    }
}

extension Fixed16_16 {
    /// For exact expectations written as decimals that 16.16 holds exactly.
    static func exactly(_ value: Double) -> Fixed16_16 {
        let f = Fixed16_16(value)
        precondition(f.double == value, "\(value) is not exact in 16.16")
        return f
    }
}
