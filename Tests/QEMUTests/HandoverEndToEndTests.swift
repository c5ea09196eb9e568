// SPDX-License-Identifier: MIT
// Handing the screen to the program that comes after the splash (one boot on virtio-gpu, about
// 30 s). The daemon runs with a profile whose `[handover] watchdog = 3`; scripts/qemu/drmapp.c
// stands in for the kiosk's app. `splashhud deactivate` answers once DRM master is free, with the
// HUD's frame left on the screen; the app becomes master and shows its own picture in the same
// mode; the watchdog, 3 s after the release, sees another program's framebuffer and leaves the
// screen to it; the app ends and `splashhud reactivate` (a unit's ExecStopPost) brings the HUD
// back. Then an app that takes master and hangs without drawing, then dies: the watchdog takes the
// display back and draws the HUD again. Every HUD screendump equals the memory display's render.
import Assets
import Foundation
import Raster
import Testing

@Suite("Handing the display over under QEMU", .serialized)
struct HandoverEndToEndTests {
    static let guestScript = """
        #!/bin/sh
        A="$1"; D="$2"; S="$3"; P="$4"
        exec 3<>/dev/ttyS1
        ctl() { echo "$1" >&3; read -r answer <&3; echo "ctl $1 -> $answer"; }
        c() { "$S" "$@" --socket /run/hud --timeout 5000; }
        mkdir -p /run
        "$D" --display drm --profile "$P" --socket /run/hud --log-level info > /tmp/daemon.log 2>&1 & pid=$!
        i=0; while ! "$S" ping --socket /run/hud --timeout 200 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
        c progress 0.5 Starting the kiosk
        sleep 4   # a debug-free release daemon, but TCG: the fade-in and the ring's ease
        ctl "SHOT splash settled"
        # An app that draws: the frame stays until its first frame, then the screen is its own.
        c deactivate; echo "RESULT deactivate $?"
        ctl "SHOT released stable"
        "$A" draw 6 & app=$!
        sleep 2
        ctl "SHOT app stable"
        wait $app; echo "RESULT app $?"
        c reactivate; echo "RESULT reactivate $?"
        sleep 2
        ctl "SHOT back settled"
        # An app that takes master, hangs without drawing and dies: the watchdog takes it back.
        c deactivate; echo "RESULT deactivate-again $?"
        "$A" hang 1; echo "RESULT hang $?"
        sleep 5
        ctl "SHOT watchdog settled"
        echo "STATE $(c state)"
        kill $pid; wait $pid
        cat /tmp/daemon.log
        """

    @Test func theAppGetsTheScreenWhenReadyAndTheWatchdogTakesItBack() throws {
        try VMSelftestTests.requireQEMUTools()
        let daemon = try GuestProgram.path(product: "splashhudd", release: true)
        let client = try GuestProgram.path(product: "splashhud", release: true)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-handover-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let app = "\(dir)/drmapp"
        let (pcStatus, drmFlags) = try runProcess("pkg-config", ["--cflags", "--libs", "libdrm"])
        try #require(pcStatus == 0, "pkg-config libdrm: \(drmFlags)")
        let (cc, ccOutput) = try runProcess("/usr/bin/env", ["cc", "-O2", "-Wall", "-o", app, "scripts/qemu/drmapp.c"]
                                            + drmFlags.split(whereSeparator: \.isWhitespace).map(String.init))
        try #require(cc == 0, "\(ccOutput)")
        let profile = "\(dir)/kiosk.conf"
        let base = try String(contentsOf: VMSelftestTests.repo.appendingPathComponent("boards/qemu-virtio.conf"), encoding: .utf8)
        try (base + "\n[handover]\nwatchdog = 3\n").write(toFile: profile, atomically: true, encoding: .utf8)
        try Self.guestScript.write(toFile: "\(dir)/guest.sh", atomically: true, encoding: .utf8)
        let run = try VMRun(display: "virtio", program: "/bin/busybox", shotsDir: "\(dir)/shots", timeout: 240, verbose: true,
                            files: try guestFiles([app, daemon, client]) + ["\(dir)/guest.sh:/handover-test.sh", "\(profile):/kiosk.conf"],
                            args: ["sh", "/handover-test.sh", app, daemon, client, "/kiosk.conf"])
        let output = run.output
        print(output.split(whereSeparator: \.isNewline).filter { $0.contains("RESULT") || $0.contains("handover") || $0.contains("DREW") }
            .joined(separator: "\n"))
        try #require(run.status == 0, "vmtest failed (\(run.status)):\n\(output)")
        for step in ["deactivate", "app", "reactivate", "deactivate-again", "hang"] {
            #expect(output.contains("RESULT \(step) 0"), "\(step):\n\(output)")
        }
        #expect(output.contains("DREW 1280x800"), "the app drew in the splash's mode:\n\(output)")
        #expect(output.contains("handover: another program draws on the screen; it is theirs"), "\(output)")
        #expect(output.contains("handover watchdog: no other program drew within 3.0 s of the release; taking the display back"), "\(output)")

        // The HUD, bit for bit the memory display's, before the release, after it (the frame left
        // on the CRTC), after `reactivate` and after the watchdog.
        try "@0 show\n@0 progress 0.5 Starting the kiosk\n".write(toFile: "\(dir)/s.hud", atomically: true, encoding: .utf8)
        let (hostStatus, hostLog) = try runProcess(daemon, ["--profile", profile, "--display", "memory:1280x800", "--socket", "none",
                                                            "--script", "\(dir)/s.hud", "--duration", "1.5", "--retain",
                                                            "--out", "\(dir)/host", "--log-level", "error"])
        try #require(hostStatus == 0, "\(hostLog)")
        let expected = try PNGDecoder.decode(contentsOf: "\(dir)/host/shown-last.png")
        for shot in ["splash", "released", "back", "watchdog"] {
            let screen = try PNGDecoder.decode(contentsOf: "\(dir)/shots/\(shot).png")
            try #require(screen.width == expected.width && screen.height == expected.height, "\(shot): \(screen.width)x\(screen.height)")
            let off = ServiceEndToEndTests.differing(expected, screen)
            #expect(off == 0, "\(shot): \(off) pixels differ from the HUD on the memory display")
        }
        // The app's own picture: every pixel its colour, none of the HUD's.
        let appScreen = try PNGDecoder.decode(contentsOf: "\(dir)/shots/app.png")
        var other = 0
        for y in 0..<appScreen.height {
            let row = appScreen.view.row(y)
            for x in 0..<Int(appScreen.width) where row[x] & 0x00FF_FFFF != 0x0033_6699 { other += 1 }
        }
        #expect(other == 0, "\(other) pixels of the app's screen are not its colour")
    }
}
