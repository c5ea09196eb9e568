// SPDX-License-Identifier: MIT
// Paints: what fills the covered pixels. Geometry of gradients and images is in the same user
// space as the path and follows the canvas transform.

/// A colour at a position (0...1) along a gradient.
public struct GradientStop: Hashable, Sendable {
    public var offset: Fixed16_16
    public var color: Color
    public init(_ offset: Fixed16_16, _ color: Color) { self.offset = offset; self.color = color }
    public init(_ offset: Double, _ color: Color) { self.init(Fixed16_16(offset), color) }
}

/// An image as a paint: `transform` maps image pixels into user space.
public struct ImagePaint: @unchecked Sendable {
    public enum Filter: Sendable { case nearest, bilinear }
    public var image: Pixmap
    public var transform: Transform
    /// A template image: only its alpha is used, filled with this colour (how iOS tints images).
    public var tint: Color?
    public var filter: Filter
    public init(image: Pixmap, transform: Transform = .identity, tint: Color? = nil, filter: Filter = .bilinear) {
        self.image = image; self.transform = transform; self.tint = tint; self.filter = filter
    }
    /// The image scaled to fill `rect` (in user space).
    public init(image: Pixmap, in rect: Rect, tint: Color? = nil, filter: Filter = .bilinear) {
        let sx = rect.size.width / Fixed16_16(image.width), sy = rect.size.height / Fixed16_16(image.height)
        self.init(image: image, transform: Transform.scale(sx, sy).concatenating(.translation(rect.minX, rect.minY)), tint: tint, filter: filter)
    }
}

public enum Paint: Sendable {
    case solid(Color)
    /// Colour varies along the line from `start` to `end`; padded beyond.
    case linear(start: Point, end: Point, stops: [GradientStop])
    /// Colour varies with distance from `center`, reaching the last stop at `radius`; padded beyond
    /// (SVProgressHUD's gradient mask).
    case radial(center: Point, radius: Fixed16_16, stops: [GradientStop])
    /// Colour varies with the angle about `center`, clockwise on screen from `startAngle`
    /// (radians; 0 is +x, −π/2 is 12 o'clock) over one turn (the spinner's rotating angle mask).
    case conic(center: Point, startAngle: Fixed16_16, stops: [GradientStop])
    case image(ImagePaint)
}
