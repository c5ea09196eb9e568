// SPDX-License-Identifier: MIT
// Every profile in boards/ as the runtime applies it: its `[hud]` lines and theme pass the command
// language, and on the memory display (its own size, rotation and format when it names them) the
// HUD starts and draws its first frame with the theme's screen colour in the corner.
import Board
import Foundation
import Display
import HUD
import Raster
import Runtime
import Testing

@Suite("Board profiles run")
struct BoardProfilesRunTests {
    static let boardsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("boards")

    static func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: boardsDirectory.path).filter { $0.hasSuffix(".conf") }.sorted()
    }

    @Test("every boards/*.conf gives valid HUD settings and starts on the memory display")
    func everyProfile() throws {
        let names = try Self.names()
        try #require(names.count >= 15, "\(names)")
        for name in names {
            let text = try String(contentsOf: Self.boardsDirectory.appendingPathComponent(name), encoding: .utf8)
            var profile = try BoardProfile.parse(text, file: "boards/" + name)
            let settings = try profile.hudSettings()
            #expect(settings.count >= profile.hudDefaults.count, "\(name)")
            // The memory backend, at a small size so the test stays quick; the profile's rotation
            // and format are kept.
            profile.backends = [.memory]
            profile.mode = .size(width: 320, height: 240, refreshMillihertz: nil)
            let log = LogLines()
            let display = DisplayOpener(profile: profile, logger: log.logger).open().display as! MemoryDisplay
            let clock = FakeClock(Fixtures.t0)
            let runtime = try HUDRuntime(display: display, profile: profile, resources: Fixtures.resources, poller: PollingPoller(clock),
                                         clock: { clock.now }, console: .off, logger: log.logger)
            try runtime.step()
            #expect(display.presentCount == 1, "\(name)")
            let corner = display.shown().view[0, 0]
            let expected = profile.screenColor.premultiplied
            // 565 panels show the colour rounded to their bits: compare at that precision.
            let tolerance: Int = display.outputs[0].format.bytesPerPixel == 2 ? 8 : 0
            #expect(abs(Int(corner.r) - Int(expected.r)) <= tolerance && abs(Int(corner.g) - Int(expected.g)) <= tolerance
                    && abs(Int(corner.b) - Int(expected.b)) <= tolerance, "\(name): corner \(corner) vs \(expected)")
            #expect(!log.lines.contains { $0.level >= .error }, "\(name): \(log.lines.map(\.text))")
        }
    }
}
