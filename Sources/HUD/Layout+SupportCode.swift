// SPDX-License-Identifier: MIT
// The support QR code under the HUD's text (a failed update's address: SupportAddress.swift): its
// modules from libqrencode (QRMatrix), its size in whole device pixels.
//
// A scanner needs crisp modules: each is a square of `modulePixels` device pixels, drawn without
// anti-aliasing at a whole-pixel origin (HUDPainter), black on a white quiet zone of four modules
// whatever the HUD's colours (inverted or low-contrast codes defeat many scanners). The module is
// 4 pt rounded to pixels and kept within 3...6 px, then made smaller until the code fits the room
// the screen leaves beside the rest of the HUD; below 2 px it is left out, with an issue saying
// why (the runtime logs it). The rotation of the panel is the display's copy's: modules of whole
// pixels stay whole pixels turned by 90°.
import QRCode
import Raster

/// A laid-out support code.
public struct HUDSupportCode: Equatable {
    /// Light modules around the symbol, on every side (the QR specification's quiet zone).
    public static let quietZone = 4
    /// The preferred module in points, and the bounds in device pixels.
    static let preferredModulePoints = Fixed16_16(4)
    static let modulePixelRange: ClosedRange<Int32> = 3...6
    static let minimumModulePixels: Int32 = 2

    /// The address the code carries.
    public var text: String
    public var matrix: QRMatrix
    /// Device pixels per module.
    public var modulePixels: Int32
    /// Quiet zone included, in points (the bezel grows by it); the painter puts its origin on a whole pixel.
    public var frame: Rect

    /// Modules per side, quiet zone included.
    public var sideModules: Int32 { Int32(matrix.size + 2 * Self.quietZone) }
    /// The side in device pixels.
    public var sidePixels: Int32 { sideModules * modulePixels }
}

extension HUDLayout {
    /// The code of `text` at `scale`, in a room of `room` points (the screen less the rest of the
    /// HUD), its frame at the origin; nil with an issue when it cannot be encoded or does not fit.
    static func supportCode(_ text: String, room: Size, scale: Fixed16_16, issues: inout [HUDResourceError]) -> HUDSupportCode? {
        let matrix: QRMatrix
        do { matrix = try QRMatrix(encoding: text) } catch {
            issues.append(.supportCode(text, reason: "\(error)"))
            return nil
        }
        let side = Int64(matrix.size + 2 * HUDSupportCode.quietZone)
        // Points to pixels: Int64, so a large screen at a large scale cannot overflow on 32-bit boards.
        func pixels(_ points: Fixed16_16) -> Int64 { Swift.max(0, (Int64(points.raw) * Int64(scale.raw)) >> 32) }
        let preferred = (Int64(HUDSupportCode.preferredModulePoints.raw) * Int64(scale.raw) + (1 << 31)) >> 32
        let range = HUDSupportCode.modulePixelRange
        let fits = Swift.min(pixels(room.width), pixels(room.height)) / side
        let px = Swift.min(Swift.min(Swift.max(preferred, Int64(range.lowerBound)), Int64(range.upperBound)), fits)
        guard px >= Int64(HUDSupportCode.minimumModulePixels) else {
            issues.append(.supportCode(text, reason: "its \(side) modules (version \(matrix.version), quiet zone included) need "
                + "\(side * Int64(HUDSupportCode.minimumModulePixels)) px at 2 px a module; the screen leaves "
                + "\(pixels(room.width))x\(pixels(room.height)) px beside the rest of the HUD"))
            return nil
        }
        let sidePoints = Fixed16_16(wide: (side * px) << 32 / Int64(scale.raw))
        return HUDSupportCode(text: text, matrix: matrix, modulePixels: Int32(px),
                              frame: Rect(x: .zero, y: .zero, width: sidePoints, height: sidePoints))
    }
}
