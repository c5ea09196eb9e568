// SPDX-License-Identifier: MIT
// The firmware's logo lands on the glass where the firmware drew it: on a screen of the firmware's
// width at the BGRT's offsets, pixel for pixel, at any rotation and scale of the HUD's frame; in any
// other mode centred across at 38.2 % of the height; turned as the BGRT's orientation says.

import HUD
import Raster
import Testing

@Suite("Firmware logo")
struct FirmwareLogoTests {
    /// A 5x3 logo whose every pixel differs, so a turned or shifted copy cannot pass.
    static func logo() -> Pixmap {
        let p = Pixmap(width: 5, height: 3)
        for y in Int32(0)..<3 { for x in Int32(0)..<5 { p[x, y] = PremultipliedColor(argb: 0xFF00_0000 | UInt32(x) << 16 | UInt32(y) << 8 | 0x40) } }
        return p
    }

    @Test("OVMF's logo on its own 1280x800 screen stays at the BGRT's offsets; another mode re-places it")
    func placement() {
        let ovmf = FirmwareLogo(image: Pixmap(width: 193, height: 58), x: 543, y: 371)
        #expect(ovmf.glassRect(width: 1280, height: 800) == IntRect(x: 543, y: 371, width: 193, height: 58))
        // 1024x768: centred across (415), its centre at 38.2 % (293) of the height.
        #expect(ovmf.glassRect(width: 1024, height: 768) == IntRect(x: 415, y: 264, width: 193, height: 58))
        // A logo the firmware did not centre across is not trusted to the mode either.
        let left = FirmwareLogo(image: Pixmap(width: 193, height: 58), x: 10, y: 371)
        #expect(left.glassRect(width: 1280, height: 800) == IntRect(x: 543, y: 276, width: 193, height: 58))
        // Offsets off the screen: re-placed; a logo larger than the screen: none.
        let low = FirmwareLogo(image: Pixmap(width: 193, height: 58), x: 543, y: 790)
        #expect(low.glassRect(width: 1280, height: 800)?.y == 276)
        #expect(ovmf.glassRect(width: 100, height: 800) == nil)
        // Turned a quarter: 58 wide and 193 high on the glass.
        let turned = FirmwareLogo(image: Pixmap(width: 193, height: 58), x: 611, y: 303, orientation: .r90)
        #expect(turned.glassRect(width: 1280, height: 800) == IntRect(x: 611, y: 303, width: 58, height: 193))
    }

    /// The glass after the display's blit of `theme`'s background at `rotation` (what scanout holds).
    static func glass(_ theme: SceneTheme, glassWidth: Int32, glassHeight: Int32, rotation: Rotation, scale: Fixed16_16) -> [UInt32] {
        let frame = rotation.outputSize(sourceWidth: glassWidth, sourceHeight: glassHeight)
        guard case .image(let bg) = theme.background(width: frame.width, height: frame.height, scale: scale, rotation: rotation) else {
            Issue.record("no image background"); return []
        }
        var out = [UInt32](repeating: 0, count: Int(glassWidth * glassHeight))
        out.withUnsafeMutableBytes { b in
            let surface = SurfaceView(base: b.baseAddress!, width: glassWidth, height: glassHeight, rowBytes: Int(glassWidth) * 4, format: .argb8888)
            convertingBlit(from: bg.view, rect: bg.view.bounds, to: surface, rotation: rotation)
        }
        return out
    }

    @Test("at every rotation and at scale 2 the glass shows the logo at the BGRT's offsets, upright as the firmware drew it",
          arguments: Rotation.allCases)
    func glassPixels(rotation: Rotation) {
        let logo = Self.logo()
        var theme = SceneTheme(screenColor: Color(r: 0, g: 0, b: 0x80))
        theme.firmwareLogo = FirmwareLogo(image: logo, x: 29, y: 7)
        for scale in [Fixed16_16.one, Fixed16_16(2)] {
            let glass = Self.glass(theme, glassWidth: 64, glassHeight: 48, rotation: rotation, scale: scale)
            var expected = [UInt32](repeating: 0xFF00_0080, count: 64 * 48)
            for y in 0..<3 { for x in 0..<5 { expected[(7 + y) * 64 + 29 + x] = logo[Int32(x), Int32(y)].argb } }
            #expect(glass == expected, "rotation \(rotation.name) scale \(scale)")
        }
    }

    @Test("a logo the firmware turned is turned the same on the glass, whatever the HUD's rotation",
          arguments: Rotation.allCases)
    func firmwareOrientation(rotation: Rotation) {
        let logo = Self.logo()
        var theme = SceneTheme()
        // Turned clockwise by the firmware: 3 wide, 5 high, its top-left pixel at the top right.
        theme.firmwareLogo = FirmwareLogo(image: logo, x: 30, y: 6, orientation: .r90)
        let glass = Self.glass(theme, glassWidth: 64, glassHeight: 48, rotation: rotation, scale: .one)
        #expect(glass[6 * 64 + 32] == logo[0, 0].argb)
        #expect(glass[10 * 64 + 32] == logo[4, 0].argb)
        #expect(glass[6 * 64 + 30] == logo[0, 2].argb)
        #expect(glass[6 * 64 + 33] == 0xFF00_0000 && glass[11 * 64 + 32] == 0xFF00_0000)
    }

    @Test("a logo that fits nowhere leaves the screen colour")
    func tooLarge() {
        var theme = SceneTheme(screenColor: Color(r: 9, g: 9, b: 9))
        theme.firmwareLogo = FirmwareLogo(image: Pixmap(width: 100, height: 10), x: 0, y: 0)
        guard case .color(let c) = theme.background(width: 64, height: 48, scale: .one) else { Issue.record("an image"); return }
        #expect(c == Color(r: 9, g: 9, b: 9))
    }
}
