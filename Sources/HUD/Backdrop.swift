// SPDX-License-Identifier: MIT
// What covers the screen behind the HUD (hud-behaviour.md A8, SVProgressHUD's mask types):
//
//   none, clear  nothing drawn (clear only blocks touches)
//   black        black α0.4, hard-coded
//   custom       the backdrop colour (`backgroundLayerColor`)
//   gradient     SVRadialGradientLayer: radial from α0 at the centre to black α0.75 at radius
//                min(W, H) of the screen, held beyond (kCGGradientDrawsAfterEndLocation); centre
//                (W/2, H/2) (no keyboard here)
//
// It fades with the presentation's `backdropAlpha` (A8: the backdrop fades together with the HUD).
// Geometry is in pixels of the whole target, which is the screen.
import HUDProtocol
import Raster

enum Backdrop {
    static let black = Color.black.withAlpha(102)
    static let gradientEdge = Color.black.withAlpha(191)  // α0.75

    /// Draws the backdrop of `mask` over `screen` (pixels), within the canvas clip.
    static func draw(_ mask: HUDMask, color: Color, alpha: Fixed16_16, screen: IntRect, into canvas: Canvas) {
        let fade = alphaByte(alpha)
        if fade == 0 { return }
        let savedAlpha = canvas.globalAlpha, savedTransform = canvas.transform
        canvas.globalAlpha = fade
        canvas.transform = .identity
        defer { canvas.globalAlpha = savedAlpha; canvas.transform = savedTransform }
        switch mask {
        case .none, .clear:
            return
        case .black:
            canvas.fill(screen, .solid(black))
        case .custom:
            if color.a != 0 { canvas.fill(screen, .solid(color)) }
        case .gradient:
            let center = Point(x: Fixed16_16(raw: (screen.x << 16) + (screen.width << 15)),
                               y: Fixed16_16(raw: (screen.y << 16) + (screen.height << 15)))
            let radius = Fixed16_16(Swift.min(screen.width, screen.height))
            canvas.fill(screen, .radial(center: center, radius: radius,
                                        stops: [GradientStop(0, Color.black.withAlpha(0)), GradientStop(1, gradientEdge)]))
        }
    }
}

/// A 0...1 opacity as a byte, rounded (out-of-range values clamped).
func alphaByte(_ alpha: Fixed16_16) -> UInt8 {
    let a = Swift.max(0, Swift.min(65536, Int64(alpha.raw)))
    return UInt8((a * 255 + 32768) >> 16)
}
