// SPDX-License-Identifier: MIT
// The scan converter: anti-aliasing by exact area coverage, in integers.
//
// Edges are quantised to 24.8 fixed point (a 256th of a pixel). Each edge adds, to every pixel
// cell it crosses, the signed area it leaves to its right within that cell, and the rest of its
// height to the next cell (the accumulation formulation of libart and font-rs, in integers as in
// FreeType's gray rasterizer). A left-to-right prefix sum over a row then gives, for each pixel,
// the winding-weighted area covered; the fill rule folds that into 0...255 (non-zero: |a| clamped
// to one pixel; even-odd: |a| folded about every second pixel-area).
//
// What changed from the simple version (a dense buffer swept cell by cell): cells live in bands of
// 64 rows with a bitmap of touched cells, so a sweep visits only cells an edge touched and emits
// the runs between them as constant spans — a 1000-pixel-wide rounded rect costs its edges, not its
// area, and the blitter fills the interior as runs.
//
// Clipping never changes a visible pixel's value (a damaged rect redrawn clipped equals a full
// redraw there): edges are not cut at the clip's sides. Parts above or below the clip are left out
// row by row with the same arithmetic as unclipped rows; cells left of the clip all add into one
// column just left of it (only their sum reaches visible pixels), cells right of it into a column
// nobody reads; edges wholly left of the clip become vertical edges on its side (the same sums),
// edges wholly right of it are dropped.

/// A run of pixels on one row with one coverage value.
public struct Span: Sendable, Equatable {
    public var x: Int32
    public var length: Int32
    public var alpha: UInt8
    @inlinable public init(x: Int32, length: Int32, alpha: UInt8) { self.x = x; self.length = length; self.alpha = alpha }
}

/// Where the scan converter writes: one row of left-to-right, non-overlapping spans at a time.
public protocol Blitter {
    mutating func blitRow(y: Int32, spans: UnsafeBufferPointer<Span>)
}

public final class Rasterizer {
    struct Edge { var x0, y0, x1, y1: Int32 }  // 24.8, y0 != y1, x within the clip

    static let bandHeight: Int32 = 64
    /// A full pixel of coverage in the accumulator: 256 × 256 sub-pixel area, doubled.
    static let fullCoverage: Int32 = 131_072

    // Mutated for every edge and row: unchecked exclusivity keeps the runtime's access tracking out
    // of the hot loops (the class is used from one thread and never hands out inout access).
    @exclusivity(unchecked) private var edges: [Edge] = []
    @exclusivity(unchecked) private(set) public var clip: IntRect = .zero
    @exclusivity(unchecked) private var minX = Int32.max, maxX = Int32.min, minY = Int32.max, maxY = Int32.min

    private var cells: UnsafeMutablePointer<Int32>
    private var cellCapacity = 0
    private var touched: UnsafeMutablePointer<UInt64>
    private var touchedCapacity = 0
    private var spans: UnsafeMutablePointer<Span>
    private var spanCapacity = 0

    public init() {
        cells = .allocate(capacity: 1); touched = .allocate(capacity: 1); spans = .allocate(capacity: 1)
    }
    deinit { cells.deallocate(); touched.deallocate(); spans.deallocate() }

    /// Forgets every edge and sets the clip for the next fill.
    public func reset(clip: IntRect) {
        edges.removeAll(keepingCapacity: true)
        self.clip = clip
        minX = .max; maxX = .min; minY = .max; maxY = .min
    }

    /// Adds a closed polygon (the last point joins the first).
    public func addPolygon(_ points: [Point]) {
        guard points.count >= 2 else { return }
        var prev = points[points.count - 1]
        for p in points {
            addLine(prev, p)
            prev = p
        }
    }

    /// Adds every contour of `path`, transformed and flattened, each closed (fills close subpaths).
    public func addPath(_ path: Path, transform: Transform = .identity, tolerance: Fixed16_16 = Path.defaultTolerance) {
        for c in path.applying(transform).flattened(tolerance: tolerance) { addPolygon(c.points) }
    }

    /// Adds one edge.
    public func addLine(_ a: Point, _ b: Point) {
        let x0 = a.x.fixed24_8.raw, y0 = a.y.fixed24_8.raw
        let x1 = b.x.fixed24_8.raw, y1 = b.y.fixed24_8.raw
        if y0 == y1 || clip.isEmpty { return }
        let top = clip.y << 8, bottom = clip.maxY << 8
        if Swift.max(y0, y1) <= top || Swift.min(y0, y1) >= bottom { return }
        let left = clip.x << 8, right = clip.maxX << 8
        // The pixels a shape can cover reach as far right as any of its edges (within the clip),
        // even when that edge itself is dropped.
        minX = Swift.min(minX, Swift.max(left, Swift.min(x0, x1))); maxX = Swift.max(maxX, Swift.min(right, Swift.max(x0, x1)))
        minY = Swift.min(minY, y0, y1); maxY = Swift.max(maxY, y0, y1)
        if Swift.min(x0, x1) >= right { return }  // changes no visible pixel's sum
        // Wholly left of the clip: only the height it carries matters, so it moves onto the side.
        let (ax, bx) = Swift.max(x0, x1) <= left ? (left, left) : (x0, x1)
        edges.append(Edge(x0: ax, y0: y0, x1: bx, y1: y1))
    }

    /// The pixel rect the added edges can touch (within the clip).
    public var bounds: IntRect {
        if edges.isEmpty { return .zero }
        let r = IntRect(x: minX >> 8, y: minY >> 8, width: ((maxX + 255) >> 8) - (minX >> 8), height: ((maxY + 255) >> 8) - (minY >> 8))
        return r.intersection(clip)
    }

    /// Converts the added edges to coverage and hands each row's spans to `blitter`.
    public func rasterize<B: Blitter>(rule: FillRule, into blitter: inout B) {
        let area = bounds
        if area.isEmpty { return }
        let width = area.width
        // Column 0 gathers every cell left of the area, 1...width are its pixels, width + 1 takes
        // whatever lies right of it.
        let stride = Int(width) + 2
        let words = (stride + 63) / 64
        let bandRows = Int(Swift.min(Self.bandHeight, area.height))
        reserve(cellCount: stride * bandRows, wordCount: words * bandRows, spanCount: Int(width) + 1)
        var bandTop = area.y
        while bandTop < area.maxY {
            let bandBottom = Swift.min(bandTop + Self.bandHeight, area.maxY)
            let top = bandTop << 8, bottom = bandBottom << 8
            let cells = self.cells, touched = self.touched
            edges.withUnsafeBufferPointer { all in
                for e in all where Swift.max(e.y0, e.y1) > top && Swift.min(e.y0, e.y1) < bottom {
                    Self.renderEdge(e, cells: cells, touched: touched, top: top, bottom: bottom, bandTop: bandTop,
                                    lo: area.x - 1, hi: area.maxX, stride: stride, words: words)
                }
            }
            for y in bandTop..<bandBottom {
                let row = Int(y - bandTop)
                let count = Self.sweepRow(cells + row * stride, touched + row * words, spans: spans, words: words,
                                          width: width, originX: area.x, rule: rule)
                if count > 0 { blitter.blitRow(y: y, spans: UnsafeBufferPointer(start: spans, count: count)) }
            }
            bandTop = bandBottom
        }
    }

    private func reserve(cellCount: Int, wordCount: Int, spanCount: Int) {
        if cellCount > cellCapacity {
            cells.deallocate()
            cells = .allocate(capacity: cellCount); cells.initialize(repeating: 0, count: cellCount)
            cellCapacity = cellCount
        }
        if wordCount > touchedCapacity {
            touched.deallocate()
            touched = .allocate(capacity: wordCount); touched.initialize(repeating: 0, count: wordCount)
            touchedCapacity = wordCount
        }
        if spanCount > spanCapacity {
            spans.deallocate(); spans = .allocate(capacity: spanCount); spanCapacity = spanCount
        }
    }

    /// Walks one edge, clipped to the band, row by row and cell by cell.
    @inline(__always)
    private static func renderEdge(_ e: Edge, cells: UnsafeMutablePointer<Int32>, touched: UnsafeMutablePointer<UInt64>,
                                   top: Int32, bottom: Int32, bandTop: Int32, lo: Int32, hi: Int32, stride: Int, words: Int) {
        // Walk downwards; `dir` keeps the edge's winding.
        let down = e.y1 > e.y0
        let (ex0, ey0, ex1, ey1) = down ? (e.x0, e.y0, e.x1, e.y1) : (e.x1, e.y1, e.x0, e.y0)
        let dir: Int32 = down ? 1 : -1
        let ya = Swift.max(ey0, top), yb = Swift.min(ey1, bottom)
        if ya >= yb { return }
        if ex0 == ex1 {
            // Vertical (every rect and rounded rect has them): one cell a row, nothing to divide.
            let c = ex0 >> 8, fx = ex0 & 255
            var y = ya
            while y < yb {
                let rowEnd = Swift.min(yb, ((y >> 8) + 1) << 8)
                let row = Int((y >> 8) - bandTop)
                renderCell(cells + row * stride, touched + row * words, cell: c, lo: lo, hi: hi, dy: dir * (rowEnd - y), fx0: fx, fx1: fx)
                y = rowEnd
            }
            return
        }
        let dx = Int64(ex1 - ex0), dy = Int64(ey1 - ey0)
        let adx = dx < 0 ? -dx : dx, halfDy = dy / 2
        @inline(__always) func xAt(_ y: Int32) -> Int32 {
            if y == ey1 { return ex1 }
            // x0 + dx·(y − y0)/dy rounded half away from zero; dy > 0 and y ≥ y0.
            let q = Int32(truncatingIfNeeded: (adx * Int64(y - ey0) + halfDy) / dy)
            return dx < 0 ? ex0 - q : ex0 + q
        }
        var y = ya
        var x = xAt(ya)
        while y < yb {
            let rowEnd = Swift.min(yb, ((y >> 8) + 1) << 8)
            let nx = xAt(rowEnd)
            let row = Int((y >> 8) - bandTop)
            renderScanline(cells + row * stride, touched + row * words, lo: lo, hi: hi,
                           xa: x, fya: y & 255, xb: nx, fyb: rowEnd - ((y >> 8) << 8), dir: dir)
            y = rowEnd; x = nx
        }
    }

    /// One edge piece within one row: fya < fyb in 0...256, x in 24.8.
    @inline(__always)
    private static func renderScanline(_ rowCells: UnsafeMutablePointer<Int32>, _ rowBits: UnsafeMutablePointer<UInt64>,
                                lo: Int32, hi: Int32, xa: Int32, fya: Int32, xb: Int32, fyb: Int32, dir: Int32) {
        @inline(__always) func add(_ cell: Int32, _ dy: Int32, _ fx0: Int32, _ fx1: Int32) {
            renderCell(rowCells, rowBits, cell: cell, lo: lo, hi: hi, dy: dir * dy, fx0: fx0, fx1: fx1)
        }
        if xa == xb {
            let c = xa >> 8
            add(c, fyb - fya, xa - (c << 8), xa - (c << 8))
            return
        }
        // y at a cell boundary x: fya + ddy·|x − xa|/|ddx|, rounded half up. With ddy ≤ 256 and
        // |ddx| < 2^23 (32768 px) the product fits 32 bits and the division is a 32-bit one.
        let ddx = UInt32(xa < xb ? xb - xa : xa - xb), ddy = UInt32(fyb - fya)
        let narrow = ddx < 1 << 23
        @inline(__always) func yAt(_ x: Int32) -> Int32 {
            let run = UInt32(x < xa ? xa - x : x - xa)
            if narrow { return fya + Int32((ddy &* run &+ ddx / 2) / ddx) }
            return fya + Int32((UInt64(ddy) * UInt64(run) + UInt64(ddx / 2)) / UInt64(ddx))
        }
        if xa < xb {
            var c = xa >> 8
            let last = (xb - 1) >> 8
            var xl = xa, yl = fya
            while c <= last {
                let xr = Swift.min(xb, (c + 1) << 8)
                let yr = xr == xb ? fyb : yAt(xr)
                add(c, yr - yl, xl - (c << 8), xr - (c << 8))
                xl = xr; yl = yr; c += 1
            }
        } else {
            var c = (xa - 1) >> 8
            let last = xb >> 8
            var xr = xa, yr = fya
            while c >= last {
                let xl = Swift.max(xb, c << 8)
                let yl = xl == xb ? fyb : yAt(xl)
                add(c, yl - yr, xl - (c << 8), xr - (c << 8))
                xr = xl; yr = yl; c -= 1
            }
        }
    }

    /// Adds a piece of edge that stays in cell `c`: `dy` signed height, x fractions at its ends.
    /// Cells are clamped to lo...hi: column 0 (lo) sums everything left of the visible pixels,
    /// the last column (hi) takes what lies right of them.
    @inline(__always)
    private static func renderCell(_ rowCells: UnsafeMutablePointer<Int32>, _ rowBits: UnsafeMutablePointer<UInt64>,
                                   cell c: Int32, lo: Int32, hi: Int32, dy d: Int32, fx0: Int32, fx1: Int32) {
        let i = Int(Swift.min(Swift.max(c, lo), hi) &- lo), j = Int(Swift.min(Swift.max(c &+ 1, lo), hi) &- lo)
        rowCells[i] &+= d &* (512 &- fx0 &- fx1)
        rowCells[j] &+= d &* (fx0 &+ fx1)
        rowBits[i >> 6] |= 1 << UInt64(i & 63)
        rowBits[j >> 6] |= 1 << UInt64(j & 63)
    }

    /// Prefix-sums one row's touched cells into spans, clearing the cells as it goes.
    @inline(__always)
    private static func sweepRow(_ rowCells: UnsafeMutablePointer<Int32>, _ rowBits: UnsafeMutablePointer<UInt64>,
                                 spans: UnsafeMutablePointer<Span>, words: Int, width: Int32, originX: Int32, rule: FillRule) -> Int {
        var count = 0
        var sum: Int32 = 0
        var next: Int32 = 0  // first pixel not yet emitted
        @inline(__always) func emit(_ x: Int32, _ length: Int32, _ alpha: UInt8) {
            if alpha == 0 { return }
            if count > 0 && spans[count - 1].alpha == alpha && spans[count - 1].x + spans[count - 1].length == originX + x {
                spans[count - 1].length += length
            } else {
                spans[count] = Span(x: originX + x, length: length, alpha: alpha); count += 1
            }
        }
        for w in 0..<words {
            var bits = rowBits[w]
            if bits == 0 { continue }
            rowBits[w] = 0
            while bits != 0 {
                let column = Int32(w * 64 + bits.trailingZeroBitCount)
                bits &= bits &- 1
                let delta = rowCells[Int(column)]
                rowCells[Int(column)] = 0
                if column == 0 { sum &+= delta; continue }  // everything left of the area
                let i = column - 1  // the pixel
                if i >= width { continue }
                if i > next && sum != 0 { emit(next, i - next, Self.alpha(sum, rule)) }
                sum &+= delta
                emit(i, 1, Self.alpha(sum, rule))
                next = i + 1
            }
        }
        if sum != 0 && next < width { emit(next, width - next, Self.alpha(sum, rule)) }
        return count
    }

    @inline(__always)
    static func alpha(_ sum: Int32, _ rule: FillRule) -> UInt8 {
        var a = sum < 0 ? -sum : sum
        switch rule {
        case .nonZero:
            if a >= fullCoverage { return 255 }
        case .evenOdd:
            a &= 2 * fullCoverage - 1
            if a > fullCoverage { a = 2 * fullCoverage - a }
            if a == fullCoverage { return 255 }
        }
        return UInt8(truncatingIfNeeded: (a * 255 + fullCoverage / 2) >> 17)
    }
}
