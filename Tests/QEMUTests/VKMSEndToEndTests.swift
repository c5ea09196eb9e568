// The release daemon on a display with a real vblank: vkms (vmtest.py's `vkms` machine, the module
// built out of tree by scripts/qemu/build-vkms.sh), whose flips complete at its 60 Hz vblank and
// which checksums every composed frame (debugfs crtc-0/crc). scripts/qemu/vkmscrc.c reads those
// CRCs in the guest (one entry per vblank) and is also the floor: a plain C loop that flips at
// every vblank. Both are captured the same way in the same guest, so what the emulated CPU cannot
// do (vkms composes and checksums each 640x480 frame in software on the guest's one vCPU) limits
// both alike. One boot, 36-60 s (8-17 s to READY, the host's load decides): the floor, then
// splashhudd's spinner at the refresh rate, the spinner under `set max-fps 15`, and a static HUD,
// 5 s of CRCs each after a settle of 1 to 2 s; then VT 2 (the daemon lets DRM master go, the floor
// takes it) and back to VT 1 (the daemon takes it again), 1.5 s of CRCs each.
import Assets
import CZlib
import Foundation
import Raster
import Testing

@Suite("vkms: frames vblank by vblank under QEMU", .serialized)
struct VKMSEndToEndTests {
    /// vkms.ko for the guest kernel, where build-vkms.sh caches it (`vmtest.py module-path vkms`).
    static let modulePath: String? = {
        let script = VMSelftestTests.repo.appendingPathComponent("scripts/qemu/vmtest.py").path
        guard let r = try? runProcess("python3", [script, "module-path", "vkms"]), r.status == 0 else { return nil }
        return r.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }()
    static var moduleBuilt: Bool { modulePath.map { FileManager.default.fileExists(atPath: $0) } ?? false }

    /// The guest: $1 vkmscrc, $2 splashhudd, $3 splashhud. Each capture prints one "CRC ..." line,
    /// sent to the host as INFO.
    static let guestScript = """
        #!/bin/sh
        C="$1"; D="$2"; S="$3"
        say() { echo "INFO $*" > /dev/ttyS1; echo "$*"; }
        "$C" floor 7 640x480 > /tmp/floor.log 2>&1 &
        say "$(CRC_LOG=/tmp/floor-crc.log "$C" capture floor 1 5)"
        wait
        cat /tmp/floor.log
        say "FLOOR-CRCS $(cut -d' ' -f2 /tmp/floor-crc.log | sort -u | tr '\\n' ' ')"
        mkdir -p /run
        "$D" --display drm --console /dev/tty1 --socket /run/hud --log-level info > /tmp/daemon.log 2>&1 &
        DPID=$!
        wakeups() { awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$DPID/status; }
        i=0; while ! "$S" ping --socket /run/hud --timeout 200 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
        "$S" show "Working" --socket /run/hud
        say "$(CRC_LOG=/tmp/spinner.log "$C" capture spinner 1 5)"
        say "SPINNER-CRCS $(cut -d' ' -f2 /tmp/spinner.log | sort | uniq -c | sort -rn | awk '{ printf "%s:%s ", $2, $1 }')"
        "$S" set max-fps 15 --socket /run/hud
        say "$(CRC_LOG=/tmp/crc15.log "$C" capture spinner15 1 5)"
        # The capped spinner's changes, as vblanks since the one before (the first: since the capture began).
        say "CAPPED-INTERVALS $(awk 'NR == 1 { f = $1 } NR > 1 && $2 != p { printf "%d ", $1 - f; f = $1 } { p = $2 }' /tmp/crc15.log)"
        say "CAPPED-CRCS $(cut -d' ' -f2 /tmp/crc15.log | sort -u | tr '\\n' ' ')"
        "$S" set max-fps refresh --socket /run/hud
        "$S" progress 0.5 "Static" --socket /run/hud
        sleep 2
        W0=$(wakeups)
        say "$("$C" capture static 0 4)"
        say "STATIC-WAKEUPS $(( $(wakeups) - W0 ))"
        # DRM master: away to VT 2 the daemon lets master go and the floor takes it; back on VT 1
        # the daemon takes it again and shows its static HUD.
        chvt 2
        sleep 0.5
        "$C" floor 3 640x480 > /tmp/floor2.log 2>&1 &
        FP=$!
        say "$(CRC_LOG=/tmp/away.log "$C" capture away 1 1.5)"
        wait $FP
        cat /tmp/floor2.log
        say "AWAY-CRCS $(cut -d' ' -f2 /tmp/away.log | sort -u | tr '\\n' ' ')"
        chvt 1
        say "$("$C" capture back 1 1.5)"
        "$S" quit --socket /run/hud
        wait
        cat /tmp/daemon.log
        """

    /// One "CRC NAME entries N span S gaps G changes C distinct D intervals K:n,... first X" line.
    struct Capture: CustomStringConvertible {
        let name: String
        var entries = 0, span = 0, gaps = 0, changes = 0, distinct = 0
        /// The first CRC kept.
        var first: UInt32?
        /// Vblanks between consecutive changes -> how many times.
        var intervals: [Int: Int] = [:]
        let line: String

        init?(_ line: String, name: String) {
            let words = line.split(separator: " ").map(String.init)
            guard words.count >= 3, words[0] == "CRC", words[1] == name else { return nil }
            self.name = name
            self.line = line
            var values: [String: String] = [:]
            var i = 2
            while i + 1 < words.count { values[words[i]] = words[i + 1]; i += 2 }
            guard let e = values["entries"].flatMap(Int.init) else { return nil }
            entries = e
            span = values["span"].flatMap(Int.init) ?? 0
            gaps = values["gaps"].flatMap(Int.init) ?? 0
            changes = values["changes"].flatMap(Int.init) ?? 0
            distinct = values["distinct"].flatMap(Int.init) ?? 0
            first = values["first"].flatMap { UInt32($0, radix: 16) }
            for pair in (values["intervals"] ?? "-").split(separator: ",") {
                let kv = pair.split(separator: ":").compactMap { Int($0) }
                if kv.count == 2 { intervals[kv[0]] = kv[1] }
            }
        }
        /// The share of vblanks at which the picture changed.
        var changeRate: Double { span > 0 ? Double(changes) / Double(span) : 0 }
        var description: String { line }
    }

    /// What vkms's CRC is for an XRGB8888 frame on its primary plane alone: vkms composes each row
    /// into ARGB16161616 (`struct pixel_argb_u16 { u16 a, r, g, b; }`, little endian, alpha 0xffff,
    /// each 8-bit channel times 257) and runs the kernel's crc32_le over the rows in order, seeded
    /// with 0 and not inverted: zlib's crc32 seeded with ~0, inverted (vkms_composer.c, 6.1).
    static func vkmsCRC(xrgb: [UInt32], width: Int, height: Int) -> UInt32 {
        var crc: UInt = 0xFFFF_FFFF
        var row = [UInt16](repeating: 0, count: width * 4)
        for y in 0..<height {
            for x in 0..<width {
                let p = xrgb[y * width + x]
                row[x * 4] = 0xFFFF
                row[x * 4 + 1] = UInt16((p >> 16) & 0xFF) * 257
                row[x * 4 + 2] = UInt16((p >> 8) & 0xFF) * 257
                row[x * 4 + 3] = UInt16(p & 0xFF) * 257
            }
            crc = row.withUnsafeBytes { crc32(crc, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32($0.count)) }
        }
        return UInt32(truncatingIfNeeded: crc) ^ 0xFFFF_FFFF
    }

    /// vkmscrc.c's floor frame `n` at 640x480: a grey screen, a dark 48x48 box in the middle with a
    /// white bar from its centre, turned by n (16 steps).
    static func floorFrame(_ n: Int, width: Int = 640, height: Int = 480) -> [UInt32] {
        let dx = [0, 8, 15, 19, 20, 19, 15, 8, 0, -8, -15, -19, -20, -19, -15, -8]
        let dy = [-20, -19, -15, -8, 0, 8, 15, 19, 20, 19, 15, 8, 0, -8, -15, -19]
        var pixels = [UInt32](repeating: 0x2020_2020, count: width * height)  // memset 0x20
        let x0 = width / 2 - 24, y0 = height / 2 - 24
        for r in 0..<48 { for c in 0..<48 { pixels[(y0 + r) * width + x0 + c] = 0x20_2020 } }
        for s in 0...16 {  // C's division truncates toward zero, as Swift's does
            pixels[(y0 + 24 + dy[n % 16] * s / 16) * width + x0 + 24 + dx[n % 16] * s / 16] = 0xFF_FFFF
        }
        return pixels
    }

    /// The memory display's frames for `script` at each of `seconds` (one splashhud-tools render,
    /// the debug product beside this test binary), as XRGB8888 words.
    static func rendered(script: String, at seconds: [Double], width: Int, height: Int, dir: String) throws -> [[UInt32]] {
        let tools = try GuestProgram.path(product: "splashhud-tools")
        try script.write(toFile: "\(dir)/render.script", atomically: true, encoding: .utf8)
        var args = ["render", "\(dir)/render.script", "--size", "\(width)x\(height)"]
        for (i, t) in seconds.enumerated() { args += ["--at", "\(t)", "--out", "\(dir)/render-\(i).png"] }
        let (status, output) = try runProcess(tools, args)
        try #require(status == 0, "splashhud-tools render: \(output)")
        return try seconds.indices.map { i in
            let image = try PNGDecoder.decode(contentsOf: "\(dir)/render-\(i).png")
            try #require(Int(image.width) == width && Int(image.height) == height)
            var pixels: [UInt32] = []
            pixels.reserveCapacity(width * height)
            for y in 0..<image.height {
                let row = image.view.row(y)
                for x in 0..<width { pixels.append(row[x] & 0xFF_FFFF) }
            }
            return pixels
        }
    }

    @Test("vkms's CRC model: the floor's frames' CRCs, computed here, are what the kernel reports")
    func crcModelMatchesTheKernel() {
        // Measured under QEMU (two boots): frames 1 and 11 of the floor.
        #expect(Self.vkmsCRC(xrgb: Self.floorFrame(1), width: 640, height: 480) == 0x5fa0_57a2)
        #expect(Self.vkmsCRC(xrgb: Self.floorFrame(11), width: 640, height: 480) == 0x38e1_4d52)
    }

    @Test("the spinner changes the picture at as many vblanks as a C floor, every 4th under max-fps 15, never when static",
          .enabled(if: moduleBuilt, "vkms.ko is not built for the guest kernel: scripts/setup.sh --tests installs linux-source-6.1 and linux-headers-VERSION and runs scripts/qemu/build-vkms.sh"))
    func framesFollowTheVBlank() throws {
        try VMSelftestTests.requireQEMUTools()
        let daemon = try GuestProgram.path(product: "splashhudd", release: true)
        let client = try GuestProgram.path(product: "splashhud", release: true)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-vkms-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let crc = "\(dir)/vkmscrc"
        let (pcStatus, drmFlags) = try runProcess("pkg-config", ["--cflags", "--libs", "libdrm"])
        try #require(pcStatus == 0, "pkg-config libdrm: \(drmFlags)")
        let flags = drmFlags.split(whereSeparator: \.isWhitespace).map(String.init)
        let (cc, ccOutput) = try runProcess("/usr/bin/env", ["cc", "-O2", "-Wall", "-o", crc, "scripts/qemu/vkmscrc.c"] + flags)
        try #require(cc == 0, "\(ccOutput)")
        try Self.guestScript.write(toFile: "\(dir)/guest.sh", atomically: true, encoding: .utf8)
        let run = try VMRun(display: "vkms", program: "/bin/busybox", shotsDir: "\(dir)/shots",
                            cmdline: "video=Virtual-1:640x480@60", timeout: 240, verbose: true,
                            files: try guestFiles([crc, daemon, client]) + ["\(dir)/guest.sh:/vkms-test.sh"], timed: true,
                            args: ["sh", "/vkms-test.sh", crc, daemon, client])
        print("vkms: \(run.summary)")
        for line in run.info { print("  \(line)") }
        try #require(run.status == 0, "guest failed (status \(run.status)):\n\(run.output)")
        func capture(_ name: String) throws -> Capture {
            try #require(run.info.lazy.compactMap { Capture($0, name: name) }.first, "no \(name) capture:\n\(run.output)")
        }
        let floor = try capture("floor"), spinner = try capture("spinner"), capped = try capture("spinner15"), still = try capture("static")

        // Every capture saw ~5 s (4 s static) of vblanks at 60 Hz, one CRC entry each. A gap in
        // the vblank counts is a vblank the guest never had: vkms's hrtimer ran late (the host
        // stalled the emulated CPU) and the counter, derived from time stamps, jumped. Measured:
        // none on a lightly loaded host, 6 of 236 (2.5 %) at load 7; rates are taken over the span.
        for (c, seconds) in [(floor, 5.0), (spinner, 5.0), (capped, 5.0), (still, 4.0)] {
            #expect(Double(c.span) >= seconds * 60 * 0.9 && Double(c.span) <= seconds * 60 * 1.1, "\(c.name): \(c)")
            #expect(c.gaps * 10 <= c.span, "\(c.name): more than 10 % of the vblanks have no CRC: \(c)")
        }

        // Every CRC the floor showed is one of its 16 frames, computed here: the CRC model a check
        // of the daemon's frames (none torn, none half drawn) builds on holds on this kernel.
        let floorCRCs = try #require(run.info.first { $0.hasPrefix("FLOOR-CRCS ") }, "no floor CRCs:\n\(run.output)")
            .split(separator: " ").dropFirst().compactMap { UInt32($0, radix: 16) }
        let frames = Set((0..<16).map { Self.vkmsCRC(xrgb: Self.floorFrame($0), width: 640, height: 480) })
        #expect(!floorCRCs.isEmpty && floorCRCs.allSatisfy(frames.contains),
                "CRCs the floor never drew: \(floorCRCs.filter { !frames.contains($0) }.map { String($0, radix: 16) })")

        // The floor flips at every vblank from the previous flip's event; what the emulated CPU
        // leaves of it is the most any program can show here (measured: 43-50 % of vblanks).
        #expect(floor.changes * 5 >= floor.span, "the floor changed the picture at under 20 % of vblanks: \(floor)")
        // The daemon's spinner, paced by the flip events' vblank stamps, changes the picture at as
        // many vblanks as the floor does, within 25 %: a daemon that waited a refresh more than it
        // should (every other vblank at best), or paced by a timer beside the vblank, would make
        // half the floor's changes or fewer; the captures are 5 s apart on a shared host, whose load
        // moved the floor itself by 10 % between boots (measured: spinner 0.98 and 1.10 of the
        // floor; the issue's first try 0.93).
        #expect(Double(spinner.changes) >= 0.75 * Double(floor.changes) * Double(spinner.span) / Double(max(floor.span, 1)),
                "the spinner changed the picture at \(spinner.changes) of \(spinner.span) vblanks, the floor at \(floor.changes) of \(floor.span)")
        #expect(spinner.distinct >= 10, "the spinner showed only \(spinner.distinct) different pictures: \(spinner)")
        // No torn or half-drawn frame: every picture the spinner showed is one the memory display
        // draws for the same HUD at a refresh boundary. The spinner's frames repeat every second
        // (frames are drawn for their boundary, one step each), so one second of them at 60 Hz,
        // rendered on the host, is all of them (measured: 56 of these 60 seen in 5 s, nothing else).
        let spinnerCRCs = try #require(run.info.first { $0.hasPrefix("SPINNER-CRCS ") }, "no spinner CRCs:\n\(run.output)")
            .split(separator: " ").dropFirst().compactMap { UInt32($0.split(separator: ":")[0], radix: 16) }
        let spinnerFrames = try Self.rendered(script: "@0 show \"Working\"\n", at: (0..<60).map { 3 + Double($0) / 60 },
                                              width: 640, height: 480, dir: dir)
        let drawn = Set(spinnerFrames.map { Self.vkmsCRC(xrgb: $0, width: 640, height: 480) })
        let strange = spinnerCRCs.filter { !drawn.contains($0) }
        #expect(!spinnerCRCs.isEmpty && strange.isEmpty,
                "\(strange.count) of the spinner's \(spinnerCRCs.count) pictures on vkms are no frame the memory display draws: \(strange.map { String($0, radix: 16) })")

        // Capped at 15 a second: k = ceil(60 / 15) = 4 refreshes per frame. Never more than one
        // change every 4th vblank over the capture, and not far fewer (the pacer suite's bound on
        // bochs: 11 a second).
        #expect(capped.changes <= capped.span / 4 + 1, "max-fps 15: \(capped.changes) changes in \(capped.span) vblanks: \(capped)")
        // At least half the cap: a scheduler that waited k refreshes more than it should would
        // make half. (The slips below cost less: measured 10.8 to 13 a second at load 5 to 13.)
        #expect(capped.changes * 8 >= capped.span, "max-fps 15: under 7.5 changes a second: \(capped)")
        // Exactly every 4th, as a quiet host showed (issue 27). The scheduler keeps its grid now (a
        // capped frame is paced from the boundary it was due at: 15.0 changes a second where runs of
        // 5 made 10.8-13), but a frame that takes over a refresh to render under emulation still
        // shows a vblank late (a 5, then a 3); see scripts/qemu/README.md. Kept visible, not
        // failing CI, until a capped frame is drawn ahead and committed at its vblank.
        // Its pictures too are frames the memory display draws (15 of the 60: one every 4th step).
        let cappedCRCs = try #require(run.info.first { $0.hasPrefix("CAPPED-CRCS ") }, "no capped CRCs:\n\(run.output)")
            .split(separator: " ").dropFirst().compactMap { UInt32($0, radix: 16) }
        #expect(!cappedCRCs.isEmpty && cappedCRCs.allSatisfy(drawn.contains),
                "max-fps 15: pictures that are no frame the memory display draws: \(cappedCRCs.filter { !drawn.contains($0) }.map { String($0, radix: 16) })")
        let exact = capped.intervals[4] ?? 0, all = capped.intervals.values.reduce(0, +)
        let sequence = run.info.first { $0.hasPrefix("CAPPED-INTERVALS") } ?? "no CAPPED-INTERVALS line"
        withKnownIssue("capped frames slip a vblank after a late wake-up or a long render (loaded host)", isIntermittent: true) {
            #expect(exact == all && all > 0, "max-fps 15: \(exact) of \(all) changes came 4 vblanks after the one before: \(capped); \(sequence)")
            #expect(Double(capped.changes) * 60 / Double(max(capped.span, 1)) >= 14, "max-fps 15: not 15 a second: \(capped)")
        }

        // A static HUD: the CRC never changes, and the daemon's main thread sleeps through it (its
        // voluntary context switches over the 4 s: each wake-up of the event loop is one).
        #expect(still.changes == 0 && still.distinct == 1, "a static HUD changed the picture: \(still)")
        // ... and it is bit for bit the memory display's frame of the same HUD: vkms's CRC of the
        // host's headless render (measured: 5397fe83 in every boot).
        let staticFrame = try Self.rendered(script: "@0 progress 0.5 \"Static\"\n", at: [3], width: 640, height: 480, dir: dir)[0]
        let expected = Self.vkmsCRC(xrgb: staticFrame, width: 640, height: 480)
        #expect(still.first == expected, "the static HUD on vkms (\(still)) is not the memory display's frame (CRC \(String(expected, radix: 16)))")
        let wakeups = try #require(run.info.first { $0.hasPrefix("STATIC-WAKEUPS ") }.flatMap { Int($0.split(separator: " ")[1]) },
                                   "no wake-up count:\n\(run.output)")
        #expect(wakeups <= 2, "the daemon woke \(wakeups) times in 4 s of a static HUD")

        // DRM master lost and regained: on VT 2 the floor, a second master, showed only its own
        // frames (the daemon had let master go); back on VT 1 the daemon showed its static HUD
        // again, the very frame it showed before, and nothing else.
        let awayCRCs = try #require(run.info.first { $0.hasPrefix("AWAY-CRCS ") }, "no CRCs away:\n\(run.output)")
            .split(separator: " ").dropFirst().compactMap { UInt32($0, radix: 16) }
        #expect(!awayCRCs.isEmpty && awayCRCs.allSatisfy(frames.contains),
                "away on VT 2, CRCs that are not the floor's: \(awayCRCs.filter { !frames.contains($0) }.map { String($0, radix: 16) })")
        let back = try capture("back")
        #expect(back.entries > 0 && back.changes == 0 && back.first == still.first,
                "back on VT 1 the screen is not the static HUD it showed before (\(still)): \(back)")
        print(String(format: "vkms figures: floor %.1f %% of vblanks, spinner %.1f %%, max-fps 15 %d changes in %d vblanks (%d of them 4 apart), static %d changes %d wake-ups; ",
                     100 * floor.changeRate, 100 * spinner.changeRate, capped.changes, capped.span, exact, still.changes, wakeups) + run.summary)
    }
}
