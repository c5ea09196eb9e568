// SPDX-License-Identifier: MIT
// The memory display: what present puts in scanout memory, byte for byte.

#if canImport(Glibc)
import Glibc
#endif
import HUDProtocol
import Raster
import Foundation
import Testing

@testable import Display

@Suite("Memory display")
struct MemoryDisplayTests {
    @Test func readBackEqualsTheHUDFrameInXRGB8888() throws {
        let frame = Fixtures.hudLikeFrame(width: 64, height: 48)
        let display = MemoryDisplay(width: 64, height: 48, format: .xrgb8888)
        _ = try display.present(frame.view, damage: [frame.view.bounds])
        #expect(display.shown().pixels == frame.pixels)
        #expect(display.presentCount == 1)
        // XRGB8888 bytes are B G R 0xFF, little-endian, whatever the host.
        let p = frame[10, 20]
        #expect(Array(display.scanoutBytes[(20 * 64 + 10) * 4..<(20 * 64 + 11) * 4]) == [p.b, p.g, p.r, 0xFF])
    }

    @Test func aSharedScanoutKeepsWhatWasShownAndShowsEachPresentInItsFile() throws {
        let a = Fixtures.hudLikeFrame(width: 40, height: 30, seed: 0)
        let b = Fixtures.hudLikeFrame(width: 40, height: 30, seed: 0xFFFFFF)
        let display = MemoryDisplay(width: 40, height: 30)
        _ = try display.present(a.view, damage: [a.view.bounds])
        let path = "/tmp/splashhud-screen-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(path) }
        func file() -> [UInt8] { (try? Array(Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] }
        try display.shareScanout(atPath: path)
        #expect(display.screens[0].sharedPath == path)
        #expect(file() == display.scanoutBytes, "the file starts with what was on the screen")
        #expect(display.shown().pixels == a.pixels)
        // Another process reading the file sees each present as soon as it is written.
        _ = try display.present(b.view, damage: [IntRect(x: 5, y: 5, width: 10, height: 10)])
        #expect(file() == display.scanoutBytes)
        #expect(file().count == 40 * 30 * 4)
        // Sharing again keeps the first file; a path that cannot be created says so.
        try display.shareScanout(atPath: path + "-again")
        #expect(display.screens[0].sharedPath == path)
        let other = MemoryDisplay(width: 8, height: 8)
        do {
            try other.shareScanout(atPath: "/nonexistent-dir/screen")
            Issue.record("a screen file in a missing directory was shared")
        } catch {
            #expect("\(error)".contains("open") && "\(error)".contains("/nonexistent-dir/screen"))
        }
        #expect(other.screens[0].sharedPath == nil)
        // A symbolic link is refused, and the file it points to is left as it was.
        let link = path + "-link"
        defer { unlink(link) }
        #expect(symlink(path, link) == 0)
        #expect(throws: DisplayError.self) { try other.shareScanout(atPath: link) }
        #expect(file().count == 40 * 30 * 4)
    }

    @Test func presentCopiesOnlyTheDamagedRects() throws {
        let a = Fixtures.hudLikeFrame(width: 40, height: 30, seed: 0)
        let b = Fixtures.hudLikeFrame(width: 40, height: 30, seed: 0xFFFFFF)
        let display = MemoryDisplay(width: 40, height: 30)
        _ = try display.present(a.view, damage: [a.view.bounds])
        let damage = [IntRect(x: 3, y: 4, width: 10, height: 5), IntRect(x: 30, y: 20, width: 9, height: 9)]
        _ = try display.present(b.view, damage: damage)
        #expect(display.lastWrittenRects == damage)
        let shown = display.shown()
        var mismatches = 0
        for y: Int32 in 0..<30 {
            for x: Int32 in 0..<40 {
                let inside = damage.contains { $0.contains(IntRect(x: x, y: y, width: 1, height: 1)) }
                if shown[x, y] != (inside ? b[x, y] : a[x, y]) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        #expect(a.pixels != b.pixels)  // the two frames differ, so the check above can fail
    }

    /// Pure red in every format: the byte table in Raster's PixelFormat.swift header.
    @Test(arguments: [
        (PixelFormat.argb8888, [0x00, 0x00, 0xFF, 0xFF] as [UInt8]), (.xrgb8888, [0x00, 0x00, 0xFF, 0xFF]),
        (.abgr8888, [0xFF, 0x00, 0x00, 0xFF]), (.xbgr8888, [0xFF, 0x00, 0x00, 0xFF]),
        (.rgb888, [0x00, 0x00, 0xFF]), (.bgr888, [0xFF, 0x00, 0x00]),
        (.rgb565, [0x00, 0xF8]), (.bgr565, [0x1F, 0x00]),
    ])
    func everyFormatGetsItsOwnBytes(format: PixelFormat, red: [UInt8]) throws {
        let frame = Pixmap(width: 5, height: 3)
        frame.view.fill(frame.view.bounds, with: PremultipliedColor(a: 255, r: 255, g: 0, b: 0))
        let display = MemoryDisplay(width: 5, height: 3, format: format)
        _ = try display.present(frame.view, damage: [frame.view.bounds])
        #expect(display.scanoutBytes == Array([[UInt8]](repeating: red, count: 15).joined()))
        #expect(display.outputs[0].format == format)
    }

    @Test(arguments: Rotation.allCases)
    func rotationTurnsTheFrameIntoThePanel(rotation: Rotation) throws {
        let frame = Fixtures.hudLikeFrame(width: 24, height: 16)
        let panel = rotation.outputSize(sourceWidth: 24, sourceHeight: 16)
        let display = MemoryDisplay(width: panel.width, height: panel.height, rotation: rotation)
        #expect(display.outputs[0].frameWidth == 24 && display.outputs[0].frameHeight == 16)
        _ = try display.present(frame.view, damage: [frame.view.bounds])
        let shown = display.shown()
        #expect(shown.width == panel.width)
        // The frame's top-left pixel sits where the rotation table says.
        let corner = rotation.destinationPoint(x: 0, y: 0, sourceWidth: 24, sourceHeight: 16)
        #expect(shown[corner.x, corner.y] == frame[0, 0])
        #expect(display.shownUnrotated().pixels == frame.pixels)
    }

    @Test(arguments: [(PixelFormat.rgb565, Rotation.r0), (.bgr565, .r90), (.rgb565, .r270)])
    func ditheringIsTheSameForPartialAndFullUpdates(format: PixelFormat, rotation: Rotation) throws {
        let frame = Fixtures.hudLikeFrame(width: 37, height: 29)
        let panel = rotation.outputSize(sourceWidth: 37, sourceHeight: 29)
        let full = MemoryDisplay(width: panel.width, height: panel.height, format: format, rotation: rotation)
        let parts = MemoryDisplay(width: panel.width, height: panel.height, format: format, rotation: rotation)
        _ = try full.present(frame.view, damage: [frame.view.bounds])
        // Odd-sized, odd-placed rects covering the frame, presented one at a time.
        let tiles = [
            IntRect(x: 0, y: 0, width: 13, height: 29), IntRect(x: 13, y: 0, width: 24, height: 7),
            IntRect(x: 13, y: 7, width: 5, height: 22), IntRect(x: 18, y: 7, width: 19, height: 22),
        ]
        for t in tiles { _ = try parts.present(frame.view, damage: [t]) }
        #expect(parts.scanoutBytes == full.scanoutBytes)
        // Dithering really happened: some 565 pixels differ from plain rounding.
        let rounded = MemoryDisplay(width: panel.width, height: panel.height, format: format, rotation: rotation, dither: false)
        _ = try rounded.present(frame.view, damage: [frame.view.bounds])
        #expect(rounded.scanoutBytes != full.scanoutBytes)
    }

    @Test func virtualVSyncTicksAtTheChosenRate() throws {
        let frame = Pixmap(width: 4, height: 4)
        let display = MemoryDisplay(width: 4, height: 4, refreshMillihertz: 50_000)
        #expect(display.frameIntervalNanoseconds == 20_000_000)
        #expect(try display.present(frame.view, damage: []) == .vblank(nanoseconds: 20_000_000))
        #expect(try display.present(frame.view, damage: []) == .vblank(nanoseconds: 40_000_000))
        let noVSync = MemoryDisplay(width: 4, height: 4, refreshMillihertz: nil)
        #expect(try noVSync.present(frame.view, damage: []) == .immediate)
        #expect(DisplayMode(width: 1, height: 1, refreshMillihertz: 60_000).frameIntervalNanoseconds == 16_666_667)
    }

    @Test func wrongFrameSizeAndClosedDisplayAreErrors() throws {
        let display = MemoryDisplay(width: 8, height: 6, rotation: .r90)
        let wrong = Pixmap(width: 8, height: 6)
        #expect(throws: DisplayError.frameSizeMismatch(expectedWidth: 6, expectedHeight: 8, width: 8, height: 6)) {
            try display.present(wrong.view, damage: [])
        }
        #expect("\(DisplayError.frameSizeMismatch(expectedWidth: 6, expectedHeight: 8, width: 8, height: 6))"
            == "frame is 8x6 but the output needs 6x8")
        display.close(.retain)
        #expect(throws: DisplayError.closed) { try display.present(Pixmap(width: 6, height: 8).view, damage: []) }
    }

    @Test func closeRestoresBlackOrRetainsTheLastFrame() throws {
        let frame = Fixtures.hudLikeFrame(width: 10, height: 10)
        let retained = MemoryDisplay(width: 10, height: 10)
        let restored = MemoryDisplay(width: 10, height: 10)
        for d in [retained, restored] { _ = try d.present(frame.view, damage: [frame.view.bounds]) }
        retained.close(.retain)
        restored.close(.restore)
        #expect(retained.shown().pixels == frame.pixels)
        #expect(restored.scanoutBytes.allSatisfy { $0 == 0 })
        #expect(retained.closedAs == .retain && restored.closedAs == .restore)
    }
}

/// Several outputs of different sizes on one memory display, and simulated hotplug through its
/// eventfd.
@Suite("Memory display outputs")
struct MemoryDisplayOutputsTests {
    static func output(_ name: String, _ w: Int32, _ h: Int32, _ r: Rotation = .r0) -> DisplayOutput {
        DisplayOutput(name: name, mode: DisplayMode(width: w, height: h, refreshMillihertz: 50_000), format: .xrgb8888, rotation: r)
    }

    static func filled(_ w: Int32, _ h: Int32, _ rgb: UInt32) -> Pixmap {
        let p = Pixmap(width: w, height: h)
        for y in 0..<h { for x in 0..<w { p.view[x, y] = Color(rgb: rgb).premultiplied } }
        return p
    }

    static func readable(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) == 1
    }

    @Test("each output takes its own frame size; per-output vblanks; a wrong size is refused")
    func outputs() throws {
        let d = try MemoryDisplay(outputs: [Self.output("A", 16, 8), Self.output("B", 6, 10, .r90)])
        #expect(try d.present(Self.filled(16, 8, 0xFF0000).view, damage: [IntRect(x: 0, y: 0, width: 16, height: 8)], output: 0) == .vblank(nanoseconds: 20_000_000))
        #expect(try d.present(Self.filled(10, 6, 0x00FF00).view, damage: [IntRect(x: 0, y: 0, width: 10, height: 6)], output: 1) == .vblank(nanoseconds: 20_000_000))
        #expect(d.screens[0].shown().view[15, 7] == Color(rgb: 0xFF0000).premultiplied)
        #expect(d.screens[1].shown().view[5, 9] == Color(rgb: 0x00FF00).premultiplied)
        #expect(d.presentCount == 2)
        #expect(throws: DisplayError.self) { try d.present(Self.filled(16, 8, 0).view, damage: [], output: 1) }
    }

    @Test("connect and disconnect signal the eventfd and take effect at refreshOutputs; an unplugged screen keeps its picture")
    func hotplug() throws {
        let d = try MemoryDisplay(outputs: [Self.output("A", 4, 4), Self.output("B", 8, 2)])
        let fd = try #require(d.hotplugDescriptor)
        #expect(!Self.readable(fd))
        _ = try d.present(Self.filled(8, 2, 0x0000FF).view, damage: [IntRect(x: 0, y: 0, width: 8, height: 2)], output: 1)
        d.connect(Self.output("C", 3, 3))
        d.disconnect("B")
        #expect(Self.readable(fd))
        #expect(d.outputs.map(\.name) == ["A", "B"], "nothing changes before the refresh")
        #expect(try d.refreshOutputs())
        #expect(!Self.readable(fd))
        #expect(d.outputs.map(\.name) == ["A", "C"])
        #expect(d.screens.map(\.output.name) == ["A", "C"])
        let b = try #require(d.screen(named: "B"))
        #expect(b.shown().view[7, 1] == Color(rgb: 0x0000FF).premultiplied)
        _ = try d.present(Self.filled(3, 3, 0xFFFFFF).view, damage: [IntRect(x: 0, y: 0, width: 3, height: 3)], output: 1)
        #expect(d.screen(named: "C")?.presentCount == 1 && b.presentCount == 1)
        #expect(try d.refreshOutputs() == false)
        // Plugged back in: a new black screen.
        d.connect(Self.output("B", 8, 2))
        #expect(try d.refreshOutputs())
        #expect(d.screen(named: "B")?.shown().view[7, 1] == Color.black.premultiplied)
        // Restore blackens every screen.
        d.close(.restore)
        #expect(d.screen(named: "C")?.scanoutBytes.allSatisfy { $0 == 0 } == true)
    }
}
