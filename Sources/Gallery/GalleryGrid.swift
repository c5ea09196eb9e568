// SPDX-License-Identifier: MIT
// Lays gallery cells out in one labelled-by-position grid image.
import Raster

extension Gallery {
    /// All `cases` rendered and laid out `columns` wide with a 4-pixel gutter.
    public static func grid(_ cases: [GalleryCase], columns: Int32 = 8) -> Pixmap {
        let gutter: Int32 = 4
        let rows = (Int32(cases.count) + columns - 1) / columns
        let cell = cellSize + gutter
        let out = Pixmap(width: columns * cell + gutter, height: rows * cell + gutter)
        out.view.fill(out.view.bounds, with: Color(rgb: 0x8A8F98).premultiplied)
        for (i, item) in cases.enumerated() {
            let x = gutter + Int32(i) % columns * cell, y = gutter + Int32(i) / columns * cell
            let tile = render(item)
            for row in 0..<cellSize {
                (out.view.row(y + row) + Int(x)).update(from: tile.view.row(row), count: Int(cellSize))
            }
        }
        return out
    }
}
