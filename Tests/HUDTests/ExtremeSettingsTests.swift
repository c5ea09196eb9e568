// SPDX-License-Identifier: MIT
// The largest values the command language accepts, at the largest board scale: the HUD is laid out
// and drawn without a fixed-point overflow (a debug build traps on one) and a glyph's mask stays
// small.
import HUDProtocol
import Raster
import Testing
@testable import HUD

@Suite struct ExtremeSettingsTests {
    static let maxima = [
        "set font-size 512", "set ring-thickness 2048", "set ring-radius 2048", "set ring-no-text-radius 2048",
        "set corner-radius 2048", "set min-size 2048x2048", "set image-size 2048x2048", "set offset 2048,-2048",
    ]

    func settings(_ lines: [String]) throws -> [HUDSetting] {
        try lines.map { line in
            guard case .set(let s)? = try CommandParser.parse(line) else { throw CommandError(.missingArgument(command: line, expected: "set"), column: nil) }
            return s
        }
    }

    @Test(arguments: [["show \"Big\""], ["progress 0.5 \"Big\""], ["set mode bar", "set margin 2048", "show \"Big\""]])
    func theLargestValuesDrawAtScale4(_ commands: [String]) throws {
        let resources = try HUDResources.system()
        let clock = ManualClock()
        let hud = HUDController(clock: clock, appearance: HUDAppearance().applying(try settings(Self.maxima)))
        for c in commands { if let command = try CommandParser.parse(c) { hud.apply(command) } }
        clock.advance(by: .seconds(1))
        let renderer = HUDSceneRenderer(width: 1920, height: 1080, scale: Fixed16_16(4), background: .color(.black), resources: resources)
        _ = renderer.render(hud.presentation())
        #expect(renderer.frame.width == 1920)
    }
}
