// SPDX-License-Identifier: MIT
import Assets
import Display
import Foundation
import HUD
import Raster
import Testing

@testable import splashhud_display_guest

/// Double buffering by FBIOPAN_DISPLAY on a driver that shows the page panned to: vkms's DRM fbdev
/// emulation with drm_fbdev_overalloc=200 (the QEMU display drivers do not show it:
/// scripts/qemu/README.md, "Panning on DRM fbdev emulation"). vkms has no screendump, so the guest
/// reads its per-vblank CRCs (`--crc 0`) and here the same frames on a MemoryDisplay give the CRCs
/// they must have (VKMSEndToEndTests.vkmsCRC): every frame bit-exact, the y-offset alternating
/// between the pages, and no vblank showing anything but the console or a whole frame (none half
/// drawn). Two passes in one boot: r0 closed with restore, r90 with retain; the second opens the
/// display as the daemon does, the pan and the vsync wait on its worker thread. About 30 s.
@Suite("FBDevDisplay double-buffered by panning on vkms under QEMU", .serialized)
struct FBDevPanEndToEndTests {
    static let width: Int32 = 640, height: Int32 = 480

    @Test("frames drawn into the hidden page and panned to reach vkms whole",
          .enabled(if: VKMSEndToEndTests.moduleBuilt, "vkms.ko is not built for the guest kernel: scripts/setup.sh --tests builds it"))
    func panningDoubleBuffers() throws {
        try VMSelftestTests.requireQEMUTools()
        let program = try GuestProgram.path()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-fbpan-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try VMRun(display: "vkms", program: program, shotsDir: dir,
                            cmdline: "drm_kms_helper.drm_fbdev_overalloc=200 video=Virtual-1:\(Self.width)x\(Self.height)",
                            args: ["--rotate", "0,90", "--close", "retain", "--crc", "0", "--worker", "1"])
        print("vkms fbdev pan: \(run.summary)")
        for line in run.info where ["PRESENT", "DIAG", "CRC", "YOFFSET", "RESTORE"].contains(where: line.hasPrefix) { print("  \(line)") }
        try #require(run.status == 0, "guest failed (status \(run.status)):\n\(run.output)")
        func crc(_ name: String) -> String? {
            run.info.first { $0.hasPrefix("CRC \(name) ") }.map { String($0.split(separator: " ")[2]) }
        }
        let before = try #require(crc("before"), "no CRC of the console: \(run.info)")
        var whole: Set<String> = [before]

        let resources = try HUDResources.system()
        for (n, rotation) in [Rotation.r0, .r90].enumerated() {
            let pass = "r\(rotation.rawValue)"
            let frame = rotation.swapsAxes ? "\(Self.height) \(Self.width)" : "\(Self.width) \(Self.height)"
            #expect(run.info.contains("LAYOUT \(pass) \(Self.width) \(Self.height) XRGB8888 pages 2 frame \(frame)"), "\(run.info)")
            let memory = MemoryDisplay(width: Self.width, height: Self.height, format: .xrgb8888, rotation: rotation)
            let output = memory.outputs[0]
            let player = try GuestScene.player(width: output.frameWidth, height: output.frameHeight, resources: resources)
            var expected = ""
            for (k, (seconds, name)) in GuestScene.instants.enumerated() {
                _ = try memory.present(player.renderer.frame.view, damage: player.render(at: .seconds(seconds)))
                expected = String(Self.crc(memory.shown()), radix: 16)
                whole.insert(expected)
                #expect(crc("\(pass)-\(name)") == expected, "\(pass) \(name): vkms showed \(crc("\(pass)-\(name)") ?? "nothing"), the frame is \(expected)")
                // Page 1 first (page 0 was on screen at open), then alternating.
                let row = k % 2 == 0 ? Self.height : 0
                #expect(run.info.contains("YOFFSET \(pass)-\(name) \(row)"), "\(pass) \(name): expected yoffset \(row) in \(run.info)")
            }
            // Each pan returns at the vblank it completed at: paced by it, no wait after.
            let presents = run.info.filter { $0.hasPrefix("PRESENT \(pass) ") }
            #expect(presents.count == GuestScene.instants.count && presents.allSatisfy { $0.contains("vblank") }, "\(presents)")
            let retained = n == 1
            #expect(crc("\(pass)-after-close") == (retained ? expected : before), "\(pass) after close")
            // restore gives back the page shown at open; the other one keeps the frames drawn there.
            let restored = "RESTORE \(pass) differs in \(Self.height) of \(2 * Self.height) rows of \(Self.width * 4) bytes, first row \(Self.height)"
            if !retained { #expect(run.info.contains(restored), "\(run.info)") }
        }
        // Every vblank showed the console or a whole frame: none half drawn, none from a stale page.
        let seen = run.info.first { $0.hasPrefix("CRCS-SEEN ") }?.split(separator: " ").dropFirst().map { String($0.split(separator: ":")[0]) }
        let strays = (seen ?? []).filter { !whole.contains($0) }
        #expect(seen != nil && strays.isEmpty, "CRCs of no whole frame: \(strays) (seen: \(seen ?? []))")
    }

    /// vkms's CRC of the scanout `shown` (opaque XRGB).
    static func crc(_ shown: Pixmap) -> UInt32 {
        var pixels: [UInt32] = []
        pixels.reserveCapacity(Int(shown.width) * Int(shown.height))
        for y in 0..<shown.height {
            let row = shown.view.row(y)
            for x in 0..<Int(shown.width) { pixels.append(row[x] & 0xFF_FFFF) }
        }
        return VKMSEndToEndTests.vkmsCRC(xrgb: pixels, width: Int(shown.width), height: Int(shown.height))
    }
}
