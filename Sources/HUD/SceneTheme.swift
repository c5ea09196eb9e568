// SPDX-License-Identifier: MIT
// What every output shows beneath the HUD: the board profile's screen colour and logo. The logo is
// composed once per output into a frame-sized background image (the HUD's renderer redraws damaged
// rects from it, so the logo stays intact under a moving HUD); at the output's scale one PNG pixel
// is one point, and placement and offset are in points too. The firmware's logo (FirmwareLogo)
// instead keeps the firmware's pixels: placed on the glass, unscaled, turned by the rotation.
import Raster

public struct SceneTheme {
    /// Where the logo sits on the screen, before the offset moves it.
    public enum LogoPlacement: String, CaseIterable, Sendable {
        case center, top, bottom
    }

    /// Fills the screen behind the logo and the HUD.
    public var screenColor: Color
    /// The logo (premultiplied), nil for none.
    public var logo: Pixmap?
    public var logoPlacement: LogoPlacement
    /// Moves the logo from its placement, in points (x right, y down).
    public var logoOffsetX: Int32
    public var logoOffsetY: Int32
    /// The firmware's logo, drawn where the firmware drew it (in place of `logo`).
    public var firmwareLogo: FirmwareLogo?

    public init(
        screenColor: Color = .black, logo: Pixmap? = nil, logoPlacement: LogoPlacement = .center,
        logoOffsetX: Int32 = 0, logoOffsetY: Int32 = 0
    ) {
        self.screenColor = screenColor; self.logo = logo; self.logoPlacement = logoPlacement
        self.logoOffsetX = logoOffsetX; self.logoOffsetY = logoOffsetY
    }

    /// Where the logo lands on a `width x height` frame at `scale`, in whole pixels (so a logo at
    /// scale 1 is copied pixel for pixel); nil without a logo.
    public func logoRect(width: Int32, height: Int32, scale: Fixed16_16) -> IntRect? {
        guard let logo else { return nil }
        let w = Self.pixels(logo.width, scale), h = Self.pixels(logo.height, scale)
        let dx = Self.pixels(logoOffsetX, scale), dy = Self.pixels(logoOffsetY, scale)
        let x = (width - w) / 2 + dx
        let y: Int32
        switch logoPlacement {
        case .center: y = (height - h) / 2 + dy
        case .top: y = dy
        case .bottom: y = height - h + dy
        }
        return IntRect(x: x, y: y, width: w, height: h)
    }

    /// `points` at `scale`, rounded to whole pixels.
    static func pixels(_ points: Int32, _ scale: Fixed16_16) -> Int32 {
        let raw = Int64(points) * Int64(scale.raw)
        return Int32(clamping: (raw + (raw >= 0 ? 32768 : -32768)) / 65536)
    }

    /// The renderer's background for a `width x height` frame at `scale`, shown turned by
    /// `rotation` (the firmware's logo is placed on the glass).
    public func background(width: Int32, height: Int32, scale: Fixed16_16, rotation: Rotation = .r0) -> SceneBackground {
        if let firmwareLogo { return background(width: width, height: height, firmwareLogo: firmwareLogo, rotation: rotation) }
        // A logo pushed off the frame by its offset is not drawn (and its coordinates may not
        // even fit the rasterizer's Fixed16_16, which holds ±32767).
        let limit: Int32 = 32_000
        guard let logo, let rect = logoRect(width: width, height: height, scale: scale), !rect.isEmpty,
              rect.maxX > 0, rect.maxY > 0, rect.x < width, rect.y < height,
              rect.x > -limit, rect.y > -limit, rect.maxX < limit, rect.maxY < limit
        else {
            return .color(screenColor)
        }
        let image = Pixmap(width: width, height: height)
        let canvas = Canvas(image.view)
        canvas.fill(image.view.bounds, .solid(screenColor), blend: .source)
        let r = Rect(x: Fixed16_16(rect.x), y: Fixed16_16(rect.y), width: Fixed16_16(rect.width), height: Fixed16_16(rect.height))
        let filter: ImagePaint.Filter = rect.width == logo.width && rect.height == logo.height ? .nearest : .bilinear
        canvas.fill(.rect(r), .image(ImagePaint(image: logo, in: r, filter: filter)))
        canvas.flush()
        return .image(image)
    }

    /// The screen colour with the firmware's logo at its place on the glass, turned into the frame.
    func background(width: Int32, height: Int32, firmwareLogo: FirmwareLogo, rotation: Rotation) -> SceneBackground {
        let glass = rotation.outputSize(sourceWidth: width, sourceHeight: height)
        guard let rect = firmwareLogo.glassRect(width: glass.width, height: glass.height) else { return .color(screenColor) }
        let inFrame = rotation.inverse.destinationRect(for: rect, sourceWidth: glass.width, sourceHeight: glass.height)
        let logo = firmwareLogo.glassImage.rotated(rotation.inverse)
        let image = Pixmap(width: width, height: height)
        image.view.fill(image.view.bounds, with: screenColor.premultiplied)
        image.view.copy(inFrame, from: logo.view.moved(toX: inFrame.x, y: inFrame.y))
        return .image(image)
    }
}
