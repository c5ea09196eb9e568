// SPDX-License-Identifier: MIT
// splashhudd and the splashhud client as a boot uses them, on a real KMS driver (virtio-gpu) and on
// an fbdev-only machine (vesafb, no DRM): two boots of about 25-30 s. The guest runs busybox sh
// with the real binaries: the daemon opens the screen through HUDRuntime and binds its control
// socket and psplash's FIFO; the boot script writes psplash-write's exact bytes (`PROGRESS 50` with
// its NUL) into the FIFO and sets the text through the client (`splashhud status Booting`; on
// virtio-gpu an Arabic status with a Latin word in it). The screendump of the static HUD must
// equal, bit for bit, the daemon's own `snapshot` (sent back over the socket) and what the same
// commands give on the host's memory display. Then psplash's `QUIT`:
// the daemon exits 0 after the fade-out with the console restored, and a later client call fails
// at once with 69 because nobody answers any more.
import Assets
import Foundation
import Raster
import Testing

@Suite("splashhudd and the client under QEMU", .serialized)
struct ServiceEndToEndTests {
    /// The guest's script, its status in it (a file carries any UTF-8 the kernel's command line may not).
    static func guestScript(status: String) -> String { """
        #!/bin/sh
        S="$1"; D="$2"; STATUS='\(status)'

        # One descriptor for the whole run: reopening ttyS1 per request could lose a quick answer
        # (DEVICE_ADD's) that arrives while no one has the tty open.
        exec 3<>/dev/ttyS1
        ctl() { echo "$1" >&3; read -r answer <&3; echo "ctl $1 -> $answer"; }
        up() { i=0; while ! "$S" ping --timeout 200 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; }
        mkdir -p /run
        "$D" --psplash-fifo --log-level info & pid=$!
        up
        printf 'PROGRESS 50\\0' > /run/psplash_fifo; echo "RESULT psplash $?"
        # 5 s for the answers: beside the other suites' guests a debug daemon's frame can take 0.9 s.
        "$S" status "$STATUS" --timeout 5000; echo "RESULT send $?"
        sleep 6   # a debug build under TCG: startup, fade-in and the frames after it
        "$S" state --timeout 5000; echo "RESULT state $?"
        "$S" snapshot /tmp/snap.png --timeout 20000; echo "RESULT snapshot $?"
        echo "SNAPSHOT-BEGIN"; base64 /tmp/snap.png; echo "SNAPSHOT-END"
        ctl "SHOT hud settled"
        if [ "$3" = plug ]; then
            # A second card plugged while the splash runs: the daemon follows the uevent and lays
            # the HUD out for the new 800x600 screen (a debug build under TCG needs a few seconds to
            # draw it; the 1-second latency is measured by HotplugEndToEndTests).
            ctl "DEVICE_ADD gpu1 bochs-display bus=pci.0 addr=05.0 xres=800 yres=600"
            sleep 8
            ctl "SHOT plugged settled device=gpu1"
        fi
        printf 'QUIT\\0' > /run/psplash_fifo; echo "RESULT quit $?"
        wait $pid; echo "RESULT daemon $?"
        ctl "SHOT after stable"
        "$S" ping; echo "RESULT late $?"
        # SIGTERM to a daemon started with --retain: it ends through the session (socket and FIFO
        # removed), leaves its last frame and the VT in graphics mode, and dies of the signal.
        "$D" --psplash-fifo --retain --log-level info & pid=$!
        up
        "$S" send --timeout 5000 'PROGRESS 50' "MSG $STATUS"
        sleep 6
        kill -TERM $pid; wait $pid; echo "RESULT term $?"
        [ -e /run/psplash_fifo ] || [ -e /run/splashhud/control ] && echo "RESULT files left" || echo "RESULT files removed"
        ctl "SHOT term stable"

        """
    }

    /// Pixels whose RGB differs between two pictures of the same size (alpha is the dump's, not ours).
    static func differing(_ a: Pixmap, _ b: Pixmap) -> Int {
        var count = 0
        for y in 0..<a.height {
            let ra = a.view.row(y), rb = b.view.row(y)
            for x in 0..<Int(a.width) where ra[x] & 0x00FF_FFFF != rb[x] & 0x00FF_FFFF { count += 1 }
        }
        return count
    }

    /// The display, the line the daemon logs when it opened it, the screen size and the status.
    static let machines: [(display: String, opened: String, size: String, status: String)] = [
        // virtio-gpu, not bochs: QEMU's bochs clears video memory on every mode change, so the
        // kernel's fallback picture (restored when the daemon exits) comes back black there. Its
        // status is Arabic with a Latin word inside ("starting Booting"): shaped, joined and
        // ordered right to left by the default chain's Noto Sans Arabic, bit for bit the host's.
        ("virtio", "display: drm, outputs card0-Virtual-1 1280x800", "1280x800", "جارٍ التشغيل Booting"),
        ("vesafb32", "display: fbdev, outputs /dev/fb0 1024x768", "1024x768", "Booting"),
    ]
    static let arabicFace = "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf"

    @Test("the daemon fed by psplash bytes and the client: bit-exact HUD and snapshot, QUIT restores", arguments: [0, 1])
    func daemonAndClient(machine: Int) throws {
        let (display, opened, size, text) = Self.machines[machine]
        try VMSelftestTests.requireQEMUTools()
        let splashhud = try GuestProgram.path(product: "splashhud")
        let daemon = try GuestProgram.path(product: "splashhudd")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-service-vm-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.guestScript(status: text).write(toFile: "\(dir)/guest.sh", atomically: true, encoding: .utf8)

        // The program is busybox (static); both binaries and every library they need go in as files
        // (the guest image has DejaVu and Droid; the Arabic face goes in at the path the chain names).
        let arabic = text.unicodeScalars.contains { $0.value >= 0x600 && $0.value < 0x700 }
        if arabic {
            try #require(FileManager.default.fileExists(atPath: Self.arabicFace), "\(Self.arabicFace) missing: run scripts/setup.sh --tests (fonts-noto-core)")
        }
        let files = try guestFiles([splashhud, daemon]) + (arabic ? [Self.arabicFace] : [])
        let plug = display == "virtio"
        let run = try VMRun(display: display, program: "/bin/busybox", shotsDir: "\(dir)/shots", timeout: 300, verbose: true,
                            files: files + ["\(dir)/guest.sh:/svc-test.sh"], modules: plug ? ["bochs"] : [],
                            args: ["sh", "/svc-test.sh", splashhud, daemon] + (plug ? ["plug"] : []))
        let (status, output) = (run.status, run.output)
        print(output.split(whereSeparator: \.isNewline).filter { $0.contains("vmtest: \(display)") || $0.contains("RESULT") || $0.contains("ended:") }
            .joined(separator: "\n"))
        try #require(status == 0, "vmtest failed (\(status)):\n\(output)")
        for step in ["psplash", "send", "state", "snapshot", "quit", "daemon"] {
            #expect(output.contains("RESULT \(step) 0"), "\(step) must succeed:\n\(output)")
        }
        #expect(output.contains("visible yes mode ring progress 0.5 status \"\(text)\""), "psplash's progress and the client's text:\n\(output)")
        #expect(output.contains("RESULT late 69"), "a client call with no daemon must fail at once with 69:\n\(output)")
        #expect(output.contains(opened), "the daemon must open the screen (\(opened)):\n\(output)")
        #expect(output.contains("ended: QUIT (after the fade-out)"))
        #expect(output.contains("RESULT term 143"), "SIGTERM must end the daemon by the signal (128 + 15):\n\(output)")
        #expect(output.contains("RESULT files removed"), "SIGTERM must remove the socket and the FIFO:\n\(output)")
        #expect(output.contains("ended: signal 15"), "\(output)")
        if display == "virtio" { #expect(output.contains("retained: the HUD also left in /dev/fb0"), "\(output)") }

        // The same commands on the host's memory display, at the same size and format.
        try "@0 PROGRESS 50\n@0 MSG \(text)\n".write(toFile: "\(dir)/s.hud", atomically: true, encoding: .utf8)
        func hostFrame(size: String) throws -> Pixmap {
            let (hostStatus, hostLog) = try runProcess(daemon, ["--display", "memory:\(size)", "--socket", "none",
                                                                   "--script", "\(dir)/s.hud", "--duration", "1.5", "--retain",
                                                                   "--out", "\(dir)/host-\(size)", "--log-level", "error"])
            try #require(hostStatus == 0, "\(hostLog)")
            return try PNGDecoder.decode(contentsOf: "\(dir)/host-\(size)/shown-last.png")
        }
        let expected = try hostFrame(size: size)
        if plug {
            #expect(output.contains("outputs changed: card0-Virtual-1 1280x800, card1-"), "the daemon must follow the plugged card:\n\(output)")
            let small = try hostFrame(size: "800x600")
            let plugged = try PNGDecoder.decode(contentsOf: "\(dir)/shots/plugged.png")
            try #require(plugged.width == 800 && plugged.height == 600, "the plugged screen is \(plugged.width)x\(plugged.height)")
            let off = Self.differing(small, plugged)
            #expect(off == 0, "\(off) pixels of the plugged card's screen differ from the HUD laid out for 800x600")
        }
        let hud = try PNGDecoder.decode(contentsOf: "\(dir)/shots/hud.png")
        let after = try PNGDecoder.decode(contentsOf: "\(dir)/shots/after.png")
        try #require(hud.width == expected.width && hud.height == expected.height)
        let differing = Self.differing(expected, hud)
        // The daemon's own snapshot, sent back over the socket, is the screen too.
        let base64 = output.components(separatedBy: "SNAPSHOT-BEGIN").last?.components(separatedBy: "SNAPSHOT-END").first?
            .split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("vmtest") && !$0.contains(" ") }.joined() ?? ""
        let snapshotBytes = try #require(Data(base64Encoded: base64), "no snapshot in the output")
        let snapshot = try PNGDecoder.decode([UInt8](snapshotBytes))
        try #require(snapshot.width == hud.width && snapshot.height == hud.height, "snapshot \(snapshot.width)x\(snapshot.height)")
        let snapshotOff = Self.differing(snapshot, hud)
        #expect(snapshotOff == 0, "\(snapshotOff) pixels of the daemon's snapshot differ from the screendump")
        var lit = 0, stillThere = 0
        for y in 0..<hud.height {
            let e = expected.view.row(y), a = after.view.row(y)
            for x in 0..<Int(hud.width) {
                if e[x] & 0x00FF_FFFF != 0 {
                    lit += 1
                    if a[x] & 0x00FF_FFFF == e[x] & 0x00FF_FFFF { stillThere += 1 }
                }
            }
        }
        #expect(lit > 2000, "the expected HUD frame is nearly empty (\(lit) lit pixels)")
        #expect(differing == 0, "\(differing) pixels of the DRM screendump differ from the memory display's frame")
        #expect(stillThere * 20 < lit, "after QUIT \(stillThere) of the HUD's \(lit) pixels are still on screen")
        // Retained after SIGTERM, and still there once the daemon has exited: on fbdev the frame stays
        // in video memory and fbcon (KD_GRAPHICS kept) does not paint over it. On DRM this 6.1
        // kernel removes our framebuffers when the card is closed and shows its fbdev emulation's
        // buffer instead, so the daemon leaves the HUD there too (FBDevHandover).
        let term = try PNGDecoder.decode(contentsOf: "\(dir)/shots/term.png")
        try #require(term.width == expected.width && term.height == expected.height)
        let lost = Self.differing(expected, term)
        #expect(lost == 0, "after SIGTERM with --retain \(lost) pixels differ from the HUD frame")
    }
}
