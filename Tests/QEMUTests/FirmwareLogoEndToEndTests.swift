// SPDX-License-Identifier: MIT
// The firmware's logo kept (one boot through Debian's OVMF, about 15 s under TCG). The firmware
// draws its TianoCore logo and publishes it in ACPI's BGRT; the kernel has efifb's /dev/fb0 and,
// with fbcon=map:9, no console on it, so the logo is still on the screen when the guest starts. The
// daemon then starts on efifb with `logo = firmware`: the logo's pixels on the screen are the
// firmware's own, unmoved, the HUD below them, and the whole screen is bit for bit the memory
// display's render of the same profile given a copy of the guest's BGRT (SPLASHHUD_BGRT).
import Assets
import Foundation
import Raster
import Testing

@Suite("The firmware's logo under QEMU with OVMF", .serialized)
struct FirmwareLogoEndToEndTests {
    static let guestScript = """
        #!/bin/sh
        D="$1"; S="$2"; P="$3"
        exec 3<>/dev/ttyS1
        ctl() { echo "$1" >&3; read -r answer <&3; echo "ctl $1 -> $answer"; }
        B=/sys/firmware/acpi/bgrt
        echo "BGRT $(cat $B/status) $(cat $B/type) $(cat $B/xoffset) $(cat $B/yoffset) $(cat /sys/class/graphics/fb0/name)"
        echo "IMAGE-BEGIN"; base64 $B/image; echo "IMAGE-END"
        ctl "SHOT firmware"
        mkdir -p /run
        "$D" --display fbdev:/dev/fb0 --profile "$P" --socket /run/hud --log-level info > /tmp/daemon.log 2>&1 & pid=$!
        i=0; while ! "$S" ping --socket /run/hud --timeout 200 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
        "$S" progress 0.4 Starting the kiosk --socket /run/hud --timeout 5000; echo "RESULT progress $?"
        sleep 4
        ctl "SHOT splash settled"
        kill $pid; wait $pid
        cat /tmp/daemon.log
        """

    static let profile = """
        [theme]
        logo = firmware

        """

    @Test func theFirmwaresLogoStaysWhereTheFirmwareDrewIt() throws {
        try VMSelftestTests.requireQEMUTools()
        try #require(FileManager.default.fileExists(atPath: "/usr/share/ovmf/OVMF.fd"), "Debian's ovmf is not installed (scripts/setup.sh --tests)")
        let daemon = try GuestProgram.path(product: "splashhudd", release: true)
        let client = try GuestProgram.path(product: "splashhud", release: true)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-bgrt-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.profile.write(toFile: "\(dir)/kiosk.conf", atomically: true, encoding: .utf8)
        try Self.guestScript.write(toFile: "\(dir)/guest.sh", atomically: true, encoding: .utf8)
        let run = try VMRun(display: "efifb", program: "/bin/busybox", shotsDir: "\(dir)/shots", timeout: 180, verbose: true,
                            files: try guestFiles([daemon, client]) + ["\(dir)/guest.sh:/bgrt-test.sh", "\(dir)/kiosk.conf:/kiosk.conf"],
                            args: ["sh", "/bgrt-test.sh", daemon, client, "/kiosk.conf"])
        let output = run.output
        print(output.split(whereSeparator: \.isNewline).filter { $0.contains("BGRT") || $0.contains("RESULT") || $0.contains("logo") || $0.contains("start-up") }
            .joined(separator: "\n"))
        try #require(run.status == 0, "vmtest failed (\(run.status)):\n\(output)")
        #expect(output.contains("RESULT progress 0"), "\(output)")

        // What the guest's firmware published: status 1 (shown), a BMP, its place, efifb's screen.
        let bgrtLine = try #require(output.split(whereSeparator: \.isNewline).first { $0.hasPrefix("BGRT ") }, "\(output)")
        let fields = bgrtLine.split(separator: " ").map(String.init)
        try #require(fields.count >= 6 && fields[1] == "1" && fields[2] == "0" && fields[5...].joined(separator: " ") == "EFI VGA", "\(bgrtLine)")
        let x = try #require(Int32(fields[3])), y = try #require(Int32(fields[4]))
        let base64 = try #require(output.components(separatedBy: "IMAGE-BEGIN\n").last?.components(separatedBy: "IMAGE-END").first)
        let image = try #require(Data(base64Encoded: base64.filter { !$0.isWhitespace }), "the BGRT image's base64")
        let logo = try BMPDecoder.decode([UInt8](image))
        #expect(output.contains("the firmware's logo, \(logo.width)x\(logo.height) at \(x),\(y) turned r0"), "\(output)")

        // The firmware's frame: its logo at the BGRT's offsets (our decoder reads what it drew), black around it.
        let firmware = try PNGDecoder.decode(contentsOf: "\(dir)/shots/firmware.png")
        let splash = try PNGDecoder.decode(contentsOf: "\(dir)/shots/splash.png")
        try #require(firmware.width == 1280 && firmware.height == 800 && splash.width == 1280 && splash.height == 800)
        let rect = IntRect(x: x, y: y, width: logo.width, height: logo.height)
        var logoOff = 0, aroundLit = 0, kept = 0
        for py in 0..<firmware.height {
            for px in 0..<firmware.width {
                let f = firmware[px, py].argb & 0x00FF_FFFF
                if rect.contains(x: px, y: py) {
                    if f != logo[px - x, py - y].argb & 0x00FF_FFFF { logoOff += 1 }
                    if splash[px, py].argb & 0x00FF_FFFF != f { kept += 1 }
                } else if f != 0 { aroundLit += 1 }
            }
        }
        #expect(logoOff == 0, "\(logoOff) of the firmware's logo pixels differ from the BGRT's image")
        #expect(aroundLit == 0, "\(aroundLit) pixels lit around the firmware's logo (a console drew?)")
        #expect(kept == 0, "\(kept) of the logo's pixels changed from the firmware's frame to the splash's")

        // The whole splash: the memory display's render of the same profile with the guest's BGRT.
        let bgrt = "\(dir)/bgrt"
        try FileManager.default.createDirectory(atPath: bgrt, withIntermediateDirectories: true)
        for (name, value) in [("status", "1"), ("type", "0"), ("xoffset", "\(x)"), ("yoffset", "\(y)")] {
            try (value + "\n").write(toFile: "\(bgrt)/\(name)", atomically: true, encoding: .utf8)
        }
        try image.write(to: URL(fileURLWithPath: "\(bgrt)/image"))
        try "@0 show\n@0 progress 0.4 Starting the kiosk\n".write(toFile: "\(dir)/s.hud", atomically: true, encoding: .utf8)
        let (hostStatus, hostLog) = try runProcess("/usr/bin/env", ["SPLASHHUD_BGRT=\(bgrt)", daemon, "--profile", "\(dir)/kiosk.conf",
                                                                    "--display", "memory:1280x800", "--socket", "none", "--script", "\(dir)/s.hud",
                                                                    "--duration", "1.5", "--retain", "--out", "\(dir)/host", "--log-level", "error"])
        try #require(hostStatus == 0, "\(hostLog)")
        let expected = try PNGDecoder.decode(contentsOf: "\(dir)/host/shown-last.png")
        let off = ServiceEndToEndTests.differing(expected, splash)
        #expect(off == 0, "\(off) pixels of the splash differ from the memory display's render")
        // The HUD sits below the logo, not over it.
        var hudAbove = 0
        for py in 0..<(y + logo.height) { for px in 0..<splash.width where !rect.contains(x: px, y: py) && splash[px, py].argb & 0x00FF_FFFF != 0 { hudAbove += 1 } }
        #expect(hudAbove == 0, "\(hudAbove) HUD pixels at or above the logo")
    }
}
