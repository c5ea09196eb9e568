// SPDX-License-Identifier: MIT
// The frames the hotplug end-to-end test shows, built with Raster alone: a background that
// depends on the output's size (a wrong output or stale size cannot pass) and a 48x48 marker whose
// place and colour depend on the frame number. The guest presents them through DRMDisplaySet; the
// host test (`@testable import`) rebuilds frame N for a size and compares the screendump.
import Raster

enum HotplugFrames {
    static let marker: Int32 = 48

    /// Where frame `number`'s marker sits: walking along a row, wrapping, one step per frame.
    static func markerRect(width: Int32, height: Int32, number: Int32) -> IntRect {
        let columns = max(1, (width - marker) / marker)
        let rows = max(1, (height - marker) / marker)
        let cell = number % (columns * rows)
        return IntRect(x: (cell % columns) * marker, y: (cell / columns) * marker, width: marker, height: marker)
    }

    static func markerColor(number: Int32) -> PremultipliedColor {
        let n = UInt32(bitPattern: number)
        return PremultipliedColor(argb: 0xFF00_0000 | (n &* 0x9E37_79B9) >> 8 & 0xFF_FFFF | 0x80_0000)
    }

    /// Red rises with x over this width, green with y over this height, blue = x xor y.
    static func background(_ v: PixmapView, rect: IntRect) {
        let w = UInt32(max(v.width - 1, 1)), h = UInt32(max(v.height - 1, 1))
        for y in rect.y..<(rect.y + rect.height) {
            let row = v.row(y)
            for x in rect.x..<(rect.x + rect.width) {
                let r = UInt32(x) * 255 / w, g = UInt32(y) * 255 / h, b = (UInt32(x) ^ UInt32(y)) & 0xFF
                row[Int(x)] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
    }

    /// Frame `number` for a `width x height` output, drawn whole.
    static func frame(width: Int32, height: Int32, number: Int32) -> Pixmap {
        let p = Pixmap(width: width, height: height)
        background(p.view, rect: p.view.bounds)
        p.view.fill(markerRect(width: width, height: height, number: number), with: markerColor(number: number))
        return p
    }

    /// Turns `view` (showing frame `number - 1`) into frame `number`; returns the damage.
    static func advance(_ view: PixmapView, to number: Int32) -> [IntRect] {
        let old = markerRect(width: view.width, height: view.height, number: number - 1)
        let new = markerRect(width: view.width, height: view.height, number: number)
        background(view, rect: old)
        view.fill(new, with: markerColor(number: number))
        return [old, new]
    }
}
