// SPDX-License-Identifier: MIT
// From a device's surface to an output's frame pixels. A touchscreen is glued to its panel, and
// QEMU's tablet spans its window, so device coordinates follow the scanout (the mode as the panel
// scans it out); the frame the HUD is laid out in is that picture turned back by the output's
// rotation. An optional calibration matrix (libinput's LIBINPUT_CALIBRATION_MATRIX: the first two
// rows of a 3x3 affine matrix on normalised coordinates) corrects a panel whose touch layer is
// mounted turned, mirrored or offset.
import Raster

public struct Calibration: Equatable, Sendable {
    /// x' = a·x + b·y + c, y' = d·x + e·y + f, on 0...1 coordinates.
    public var matrix: [Double]

    public static let identity = Calibration(matrix: [1, 0, 0, 0, 1, 0])!

    /// Six finite values, else nil.
    public init?(matrix: [Double]) {
        guard matrix.count == 6, matrix.allSatisfy(\.isFinite) else { return nil }
        self.matrix = matrix
    }

    public func apply(_ p: NormalizedPoint) -> NormalizedPoint {
        let m = matrix
        return NormalizedPoint(x: m[0] * p.x + m[1] * p.y + m[2], y: m[3] * p.x + m[4] * p.y + m[5])
    }
}

public struct SurfaceMapping: Equatable, Sendable {
    public var scanoutWidth: Int32
    public var scanoutHeight: Int32
    public var rotation: Rotation
    public var calibration: Calibration

    public init(scanoutWidth: Int32, scanoutHeight: Int32, rotation: Rotation, calibration: Calibration = .identity) {
        self.scanoutWidth = max(scanoutWidth, 1); self.scanoutHeight = max(scanoutHeight, 1)
        self.rotation = rotation; self.calibration = calibration
    }

    /// The frame's size (the scanout's, turned by the rotation).
    public var frameSize: (width: Int32, height: Int32) {
        rotation.outputSize(sourceWidth: scanoutWidth, sourceHeight: scanoutHeight)
    }

    /// The frame pixel under `p`: calibrated, clamped to the screen, then turned back from scanout
    /// to frame coordinates.
    public func framePixel(_ p: NormalizedPoint) -> (x: Int32, y: Int32) {
        let c = calibration.apply(p)
        let sx = Self.pixel(c.x, across: scanoutWidth), sy = Self.pixel(c.y, across: scanoutHeight)
        return rotation.inverse.destinationPoint(x: sx, y: sy, sourceWidth: scanoutWidth, sourceHeight: scanoutHeight)
    }

    private static func pixel(_ v: Double, across n: Int32) -> Int32 {
        guard v.isFinite else { return 0 }
        let scaled = (min(max(v, 0), 1) * Double(n)).rounded(.down)
        return min(Int32(scaled), n - 1)
    }
}
