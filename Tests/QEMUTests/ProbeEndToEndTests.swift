// SPDX-License-Identifier: MIT
import Foundation
import Testing

/// `splashhud probe` against real kernel drivers: the real `splashhud` binary runs in the QEMU guest
/// and its report (the guest console, printed by vmtest --verbose) must describe what the driver
/// is known to offer (scripts/qemu/README.md): bochs-drm with one Virtual-1 connector whose
/// preferred mode is 1280x800 and its fbdev emulation; vesafb alone at 1024x768, 32 bpp. Two
/// boots, about 10-15 s each.
@Suite("splashhud probe under QEMU", .serialized)
struct ProbeEndToEndTests {
    /// The `splashhud` executable beside this test binary, built on demand.
    static func splashhudPath() throws -> String { try GuestProgram.path(product: "splashhud") }

    /// The probe's report: the console lines between init's device list and the program's exit.
    static func report(display: String) throws -> (run: VMRun, lines: [String]) {
        try VMSelftestTests.requireQEMUTools()
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-probe-\(display)-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: shots) }
        // `splashhud probe` runs splashhud-tools from beside itself: it goes into the guest too.
        let tools = try guestFiles([try GuestProgram.path(product: "splashhud-tools")])
        let run = try VMRun(display: display, program: try splashhudPath(), shotsDir: shots, timeout: 90, verbose: true, files: tools, args: ["probe"])
        print("probe on \(display): \(run.summary)")
        try #require(run.status == 0, "splashhud probe failed on \(display) (status \(run.status)):\n\(run.output)")
        let all = run.output.split(whereSeparator: \.isNewline).map(String.init)
        let start = try #require(all.firstIndex { $0.hasPrefix("init: up ") }, "no init line:\n\(run.output)")
        let end = try #require(all.firstIndex { $0.hasPrefix("init: program exited") }, "no exit line:\n\(run.output)")
        // The kernel may print to the same console meanwhile (an error under `quiet`, with its
        // timestamp "[   12.345678] ..."): not part of the report.
        let lines = all[(start + 1)..<end].filter { !$0.hasPrefix("[") || $0.firstIndex(of: "]") == nil }
        print(lines.joined(separator: "\n"))
        return (run, lines)
    }

    @Test("bochs: the KMS card, its connector, modes, CRTC, primary plane and the fbdev emulation")
    func bochs() throws {
        let (run, lines) = try Self.report(display: "bochs")
        func has(_ s: String) -> Bool { lines.contains(s) }
        #expect(has("/dev/dri/card0: bochs-drm 1.0.0 (bochs dispi vga interface (qemu stdvga))"), "\(run.output)")
        #expect(has("  modeset: yes, atomic: yes, dumb buffers: yes"))
        #expect(has("  connectors: 1"))
        let connector = try #require(lines.first { $0.hasPrefix("    Virtual-1 (id ") }, "no Virtual-1 connector")
        #expect(connector.contains("): connected"))
        // The first mode is the preferred one, 1280x800; 1024x768 is offered too, not preferred.
        let modes = try #require(lines.first { $0.hasPrefix("      modes: ") })
        #expect(modes.hasPrefix("      modes: 1280x800@") && modes.split(separator: ",")[0].hasSuffix("*"))
        #expect(modes.contains(" 1024x768@60.00,") || modes.hasSuffix(" 1024x768@60.00"))
        #expect(modes.filter { $0 == "*" }.count == 1)
        // fbcon drives the CRTC in the preferred mode.
        #expect(lines.contains { $0.hasPrefix("    0: id ") && $0.contains(": 1280x800@") && $0.contains(", fb ") })
        #expect(lines.contains { $0.hasPrefix("    id ") && $0.hasSuffix(": primary, CRTCs {0}, on CRTC 0") })
        #expect(lines.contains { $0.hasPrefix("      formats: XRGB8888") })
        #expect(has("/dev/fb0: \"bochs-drmdrmfb\""))
        #expect(has("  1280x800, virtual 1280x800, 32 bpp, format XRGB8888"))
        #expect(has("  bitfields: red 8@16 green 8@8 blue 8@0 transp 0@0"))
        #expect(has("  line length 5120 bytes, memory 4096000 bytes"))
    }

    @Test("vesafb: no DRM, one 1024x768 ARGB8888 framebuffer that cannot pan")
    func vesafb() throws {
        let (run, lines) = try Self.report(display: "vesafb32")
        #expect(lines == [
            "DRM: no /dev/dri/card* nodes",
            "/dev/fb0: \"VESA VGA\"",
            "  1024x768, virtual 1024x768, 32 bpp, format ARGB8888",
            "  bitfields: red 8@16 green 8@8 blue 8@0 transp 8@24",
            "  line length 4096 bytes, memory 6291456 bytes",
            "  panning: no; single buffered (1 page)",
        ], "\(run.output)")
    }
}
