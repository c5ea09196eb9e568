// SPDX-License-Identifier: MIT
// An 8-bit coverage mask placed on the pixel grid: what a cached glyph, or any path rasterized
// once and drawn many times, becomes.

public struct Mask: Sendable {
    /// Where the mask's top-left pixel lands, in pixels.
    public var origin: (x: Int32, y: Int32)
    public let width: Int32
    public let height: Int32
    /// Coverage 0...255, row by row, `width` bytes a row.
    public var coverage: [UInt8]

    public init(originX: Int32, originY: Int32, width: Int32, height: Int32, coverage: [UInt8]) {
        precondition(coverage.count == Int(width) * Int(height), "mask size mismatch")
        origin = (originX, originY); self.width = width; self.height = height; self.coverage = coverage
    }
    public static let empty = Mask(originX: 0, originY: 0, width: 0, height: 0, coverage: [])
    public var bounds: IntRect { IntRect(x: origin.x, y: origin.y, width: width, height: height) }
}
