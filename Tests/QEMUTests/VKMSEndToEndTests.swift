// SPDX-License-Identifier: MIT
// The release daemon on a display with a real vblank: vkms (vmtest.py's `vkms` machine, the module
// built out of tree by scripts/qemu/build-vkms.sh), whose flips complete at its 60 Hz vblank and
// which checksums every composed frame (debugfs crtc-0/crc). scripts/qemu/vkmscrc.c reads those
// CRCs in the guest (one entry per vblank) and is also the floor: a plain C loop that flips at
// every vblank. Both are captured the same way in the same guest (its kernel fully preemptible:
// vmtest.py says why), so what the emulated CPU cannot do (vkms composes and checksums each frame
// in software) limits both alike. One boot, 60-70 s (8-17 s to READY, the host's load decides), 5 s of CRCs a
// phase: the floor; splashhudd started with a board profile that caps it at 15 frames a second
// (`[hud] max-fps = 15`, `[pacing] method = vblank`); the spinner at the refresh rate; 16 `status` requests posted at
// points spread over the refresh (vkmscrc status); the spinner under `set max-fps 15`; a static
// HUD (CRC, flip events, the daemon's wake-ups); VT 2 (the daemon lets DRM master go, the floor
// takes it) and back to VT 1 (the daemon takes it again), 1.5 s each; the 16 requests again on
// the static HUD. Each phase's flips and CRC entries are also recorded by the guest's trace, with
// when vkms composed each entry (VKMSRecord says why that matters). The host renders the frames
// the CRCs must be (splashhud-tools render) and computes vkms's CRC of each.
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
    /// The mode the guest runs (vkms offers no smaller one).
    static let (W, H) = (640, 480)
    static var size: String { "\(W)x\(H)" }

    static let guestScript = """
        #!/bin/sh
        C="$1"; D="$2"; S="$3"
        say() { echo "INFO $*" > /dev/ttyS1; echo "$*"; }
        # The changes in a CRC log, "FRAME:CRC" (the vblank count, absolute: SENT lines use it too).
        changes() { awk '$2 != p { printf "%s:%s ", $1, $2 } { p = $2 }' "$1"; }
        # vkms's own record of a phase (`record start`, `record NAME`), as the kernel's trace saw
        # it (CLOCK_MONOTONIC): each CRC entry when vkms added it, where its composer ends (a kprobe
        # on drm_crtc_add_crc_entry, whose third and fourth arguments are the frame and the CRC's
        # address), "E:FRAME:CRC:MICROSECONDS"; each flip event delivered (every flip the daemon
        # queues asks for one), with the vblank it completed at, "F:VBLANK:MICROSECONDS".
        T=/sys/kernel/debug/tracing
        echo mono > $T/trace_clock
        echo 'p:crcentry drm_crtc_add_crc_entry frame=%dx:u32 crc=+0(%cx):x32' > $T/kprobe_events
        record() {
            for e in drm/drm_vblank_event_delivered kprobes/crcentry; do
                if [ "$1" = start ]; then echo 1; else echo 0; fi > $T/events/$e/enable
            done
            if [ "$1" = start ]; then echo > $T/trace; return; fi
            say "$1-VKMS $(sed -nE 's/.* ([0-9]+)[.]([0-9]{6}): crcentry: .*frame=([0-9]+) crc=0x([0-9a-f]+).*/E:\\3:\\4:\\1\\2/p
                s/.* ([0-9]+)[.]([0-9]{6}): drm_vblank_event_delivered: .*seq=([0-9]+).*/F:\\3:\\1\\2/p' $T/trace | tr '\n' ' ')"
        }
        # 16 `status` requests (vkmscrc status) under 7 s of CRCs: "NAME-SENT ..." lines, then
        # "STATUS-NAME-SEQ ...".
        statuses() {
            CRC_LOG=/tmp/status-$1.log "$C" capture status-$1 0 7 > /tmp/status-$1.sum &
            CP=$!
            sleep 0.3
            "$C" status /run/hud 16 "Step 1" "Step 2" > /tmp/status-$1.sent
            wait $CP
            say "$(cat /tmp/status-$1.sum)"
            while read -r l; do say "$1-$l"; done < /tmp/status-$1.sent
            say "STATUS-$1-SEQ $(changes /tmp/status-$1.log)"
        }
        "$C" floor 7 \(size) > /tmp/floor.log 2>&1 &
        record start
        say "$(CRC_LOG=/tmp/floor-crc.log "$C" capture floor 1 5)"
        record FLOOR
        wait
        cat /tmp/floor.log
        say "FLOOR-CRCS $(cut -d' ' -f2 /tmp/floor-crc.log | sort -u | tr '\n' ' ')"
        mkdir -p /run
        # A board profile that paces by vblank and caps animation at 15 frames a second.
        printf '[device]\nbackend = drm\n[pacing]\nmethod = vblank\n[hud]\nmax-fps = 15\n' > /tmp/vkms15.conf
        "$D" --profile /tmp/vkms15.conf --console /dev/tty1 --socket /run/hud --log-level info > /tmp/daemon.log 2>&1 &
        DPID=$!
        wakeups() { awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$DPID/status; }
        i=0; while ! "$S" ping --socket /run/hud --timeout 200 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
        "$S" show "Working" --socket /run/hud
        sleep 1
        record start
        say "$(CRC_LOG=/tmp/profile15.log "$C" capture profile15 0 5)"
        record PROFILE
        say "PROFILE-SEQ $(changes /tmp/profile15.log)"
        "$S" set max-fps refresh --socket /run/hud
        sleep 1
        record start
        say "$(CRC_LOG=/tmp/spinner.log "$C" capture spinner 0 5)"
        record SPINNER
        say "SPINNER-SEQ $(changes /tmp/spinner.log)"
        # Status requests posted at points spread over the refresh, the spinner running.
        statuses SPIN
        "$S" status "Working" --socket /run/hud
        "$S" set max-fps 15 --socket /run/hud
        sleep 1
        record start
        say "$(CRC_LOG=/tmp/crc15.log "$C" capture spinner15 0 5)"
        record CAPPED
        say "CAPPED-SEQ $(changes /tmp/crc15.log)"
        "$S" set max-fps refresh --socket /run/hud
        "$S" progress 0.5 "Static" --socket /run/hud
        sleep 2
        W0=$(wakeups)
        record start
        say "$("$C" capture static 0 4)"
        record STATIC
        say "STATIC-WAKEUPS $(( $(wakeups) - W0 ))"
        # DRM master: away to VT 2 the daemon lets master go and the floor takes it; back on VT 1
        # the daemon takes it again and shows its static HUD.
        chvt 2
        sleep 0.5
        "$C" floor 3 \(size) > /tmp/floor2.log 2>&1 &
        FP=$!
        say "$(CRC_LOG=/tmp/away.log "$C" capture away 1 1.5)"
        wait $FP
        cat /tmp/floor2.log
        say "AWAY-CRCS $(cut -d' ' -f2 /tmp/away.log | sort -u | tr '\n' ' ')"
        chvt 1
        say "$("$C" capture back 1 1.5)"
        # The same requests on the static HUD: nothing animates, the loop sleeps until one comes.
        statuses STATIC
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
        xrgb.withUnsafeBufferPointer { p in vkmsCRC(width: width, height: height) { p.baseAddress! + $0 * width } }
    }

    /// The same from rows of XRGB8888 (or ARGB8888: alpha is ignored) words; pointers and
    /// wrapping arithmetic, since the debug build checks every subscript (180 frames a boot).
    static func vkmsCRC(width: Int, height: Int, row: (Int) -> UnsafePointer<UInt32>) -> UInt32 {
        var crc: UInt = 0xFFFF_FFFF
        let line = UnsafeMutablePointer<UInt16>.allocate(capacity: width * 4)
        defer { line.deallocate() }
        for y in 0..<height {
            let p = row(y)
            var i = 0
            for x in 0..<width {
                let v = p[x]
                line[i] = UInt16(0xFFFF).littleEndian
                line[i &+ 1] = (UInt16(truncatingIfNeeded: v >> 16) & 0xFF &* 257).littleEndian
                line[i &+ 2] = (UInt16(truncatingIfNeeded: v >> 8) & 0xFF &* 257).littleEndian
                line[i &+ 3] = (UInt16(truncatingIfNeeded: v) & 0xFF &* 257).littleEndian
                i &+= 4
            }
            crc = UnsafeRawPointer(line).withMemoryRebound(to: UInt8.self, capacity: width * 8) { crc32(crc, $0, UInt32(width * 8)) }
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

    /// The memory display's frames for `script` at each of `seconds`, as XRGB8888 words (one
    /// splashhud-tools render, the debug product beside this test binary).
    static func renderedFrames(script: String, at seconds: [Double], width: Int, height: Int, dir: String) throws -> [[UInt32]] {
        let tools = try GuestProgram.path(product: "splashhud-tools")
        try script.write(toFile: "\(dir)/render.script", atomically: true, encoding: .utf8)
        var args = ["render", "\(dir)/render.script", "--size", "\(width)x\(height)"]
        for (i, t) in seconds.enumerated() { args += ["--at", "\(t)", "--out", "\(dir)/render-\(i).png"] }
        let (status, output) = try runProcess(tools, args)
        try #require(status == 0, "splashhud-tools render: \(output)")
        return try seconds.indices.map { i in
            let image = try PNGDecoder.decode(contentsOf: "\(dir)/render-\(i).png")
            try #require(Int(image.width) == width && Int(image.height) == height)
            return (0..<height).flatMap { y in Array(UnsafeBufferPointer(start: image.view.row(Int32(y)), count: width)) }
        }
    }

    /// vkms's CRCs of those frames.
    static func renderedCRCs(script: String, at seconds: [Double], width: Int, height: Int, dir: String) throws -> [UInt32] {
        try renderedFrames(script: script, at: seconds, width: width, height: height, dir: dir)
            .map { vkmsCRC(xrgb: $0, width: width, height: height) }
    }

    /// The number on an "INFO NAME N" line.
    static func count(_ run: VMRun, _ name: String) throws -> Int {
        try #require(run.info.first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) }, "no \(name) line:\n\(run.output)")
    }

    /// vkms's record of phase `name` ("NAME-VKMS ..." from the guest's `record`).
    static func record(_ run: VMRun, _ name: String) throws -> VKMSRecord {
        try #require(VKMSRecord(run.info, prefix: name + "-VKMS"), "no record of \(name):\n\(run.output)")
    }

    /// No torn or half-drawn frame in a phase: every picture vkms composed before its buffer went
    /// back is one of `drawn` (the memory display's frames), and none changed without a flip.
    /// Pictures composed later show what the daemon had drawn into the buffer since: the next
    /// frame, or, while it was copying, the buffer's old frame and the new one split at one pixel
    /// (`mixes`, VKMSCopyMixes). Measured: 0-1 in a phase on a quiet host; 11 in a loaded CI run
    /// where vkms composed all 298 entries of the spinner late, every one of them such a split of
    /// two frames 3-4 steps apart. A daemon that drew anything else fails here.
    static func expectFramesDrawn(_ name: String, _ record: VKMSRecord, drawn: Set<UInt32>, mixes: Set<UInt32> = []) {
        let undrawn = record.entries.filter { !drawn.contains($0.crc) }
        let torn = undrawn.filter { !record.composedLate($0) }
        func listed(_ e: [VKMSRecord.Entry]) -> String { e.map { "\($0.frame):\(String($0.crc, radix: 16))" }.joined(separator: " ") }
        #expect(!record.entries.isEmpty && torn.isEmpty,
                "\(name): vkms composed \(torn.count) pictures that are no frame the memory display draws before their buffers went back (\(record.inTime.count) of \(record.entries.count) entries in time): \(listed(torn))")
        let unflipped = record.changesWithoutFlip
        #expect(unflipped.isEmpty, "\(name): the picture changed without a flip at vblanks \(unflipped)")
        let unexplained = undrawn.filter { record.composedLate($0) && !mixes.contains($0.crc) }
        #expect(unexplained.isEmpty,
                "\(name): \(unexplained.count) pictures vkms composed after their buffers went back are neither a frame nor a frame half copied over another: \(listed(unexplained)) (\(undrawn.count - torn.count - unexplained.count) half copied)")
    }

    @Test("vkms's CRC model: the floor's frames' CRCs, computed here, are what the kernel reports")
    func crcModelMatchesTheKernel() {
        // Measured under QEMU (two boots): frames 1 and 11 of the floor.
        #expect(Self.vkmsCRC(xrgb: Self.floorFrame(1), width: 640, height: 480) == 0x5fa0_57a2)
        #expect(Self.vkmsCRC(xrgb: Self.floorFrame(11), width: 640, height: 480) == 0x38e1_4d52)
    }

    @Test("the spinner changes the picture at as many vblanks as a C floor, its phase on the vblanks, every 4th under max-fps 15, never when static; a status within two vblanks",
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
                            cmdline: "video=Virtual-1:\(Self.size)@60", timeout: 240, verbose: true,
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

        // Every CRC the floor showed is one of its 16 frames, computed here, or that frame copied
        // over the one two before it: the CRC model a check of the daemon's frames (none torn,
        // none half drawn) builds on holds on this kernel. The floor draws frame n into the buffer
        // frame n-2's flip gave back, and vkms, composing 3-4 refreshes late, can read it half
        // drawn (VKMSCopyMixes; measured in a CI run with the floor at 88 % of vblanks: 1 such CRC
        // in 5 s, 7 in the 1.5 s away on VT 2, every one a mix of two frames 2 apart).
        let floorCRCs = try #require(run.info.first { $0.hasPrefix("FLOOR-CRCS ") }, "no floor CRCs:\n\(run.output)")
            .split(separator: " ").dropFirst().compactMap { UInt32($0, radix: 16) }
        let floorFrames = (0..<16).map { Self.floorFrame($0, width: Self.W, height: Self.H) }
        let floorFrameCRCs = floorFrames.map { Self.vkmsCRC(xrgb: $0, width: Self.W, height: Self.H) }
        let frames = Set(floorFrameCRCs)
        let floorPictures = frames.union(VKMSCopyMixes.crcs(frames: floorFrames, crcs: floorFrameCRCs, width: Self.W, height: Self.H, apart: 2...2))
        #expect(floorCRCs.contains(where: frames.contains) && floorCRCs.allSatisfy(floorPictures.contains),
                "CRCs the floor never drew: \(floorCRCs.filter { !floorPictures.contains($0) }.map { String($0, radix: 16) })")

        // The floor flips at every vblank from the previous flip's event; what the emulated CPU
        // leaves of it is the most any program can show here (measured: 43-50 % of vblanks).
        let floorRecord = try Self.record(run, "FLOOR"), spinnerRecord = try Self.record(run, "SPINNER")
        #expect(floor.changes * 5 >= floor.span && floorRecord.flipRate >= 0.2,
                "the floor changed the picture at under 20 % of vblanks: \(floor), flips at \(floorRecord.flipRate)")
        // The daemon's spinner, paced by the flip events' vblank stamps, puts a frame on screen at
        // as many vblanks as the floor does, within 25 %: a daemon that waited a refresh more than
        // it should (every other vblank at best), or paced by a timer beside the vblank, would make
        // half the floor's flips or fewer; the phases are 5 s apart on a shared host, whose load
        // moved the floor itself by 10 % between boots (measured: spinner 1.05 and 1.08 of the
        // floor). Counted by the kernel's flip events, the exact record; vkms's CRCs, computed when
        // its composer gets to a frame (refreshes late, merging the vblanks it skipped), must show
        // the pictures changing at over half the floor's rate too.
        #expect(spinnerRecord.flipRate >= 0.75 * floorRecord.flipRate,
                "the spinner flipped at \(spinnerRecord.flipRate) of vblanks, the floor at \(floorRecord.flipRate)")
        #expect(Double(spinner.changes) >= 0.5 * Double(floor.changes) * Double(spinner.span) / Double(max(floor.span, 1)),
                "the spinner changed the picture at \(spinner.changes) of \(spinner.span) vblanks, the floor at \(floor.changes) of \(floor.span)")
        #expect(spinner.distinct >= 10, "the spinner showed only \(spinner.distinct) different pictures: \(spinner)")
        // No torn or half-drawn frame: every picture the spinner showed is one the memory display
        // draws for the same HUD at a refresh boundary (`expectFramesDrawn`; vkms composes the
        // spinner's frames after their buffers went back, so here it is the rule that every other
        // picture is a frame half copied over an older one). The spinner's frames repeat every second
        // (frames are drawn for their boundary, one step each), so one second of them at 60 Hz,
        // rendered on the host, is all of them (measured: 56 of these 60 seen in 5 s, nothing else).
        let stepFrames = try Self.renderedFrames(script: "@0 show \"Working\"\n", at: (0..<60).map { 3 + Double($0) / 60 },
                                                 width: Self.W, height: Self.H, dir: dir)
        let spinnerSteps = stepFrames.map { Self.vkmsCRC(xrgb: $0, width: Self.W, height: Self.H) }
        let drawn = Set(spinnerSteps)
        // A buffer gets a frame 2 steps on at the refresh rate, 8 under a cap of 15 (two buffers);
        // a late loop skips steps (the measured splits: 3-4 apart at the refresh rate).
        let mixes = VKMSCopyMixes.crcs(frames: stepFrames, crcs: spinnerSteps, width: Self.W, height: Self.H, apart: 1...15)
        Self.expectFramesDrawn("the spinner", spinnerRecord, drawn: drawn, mixes: mixes)
        var records = [String(format: "floor flips %.1f %% of vblanks, spinner %.1f %%; ", 100 * floorRecord.flipRate, 100 * spinnerRecord.flipRate)
                       + "spinner " + spinnerRecord.summary(drawn: drawn)]
        // Every flip the daemon queued asked for an event, and the kernel delivered them: about one
        // per change.
        #expect(spinnerRecord.flips.count >= spinner.changes / 2, "\(spinnerRecord.flips.count) flip events for \(spinner.changes) changes")

        // The spinner's phase follows the vblanks: between two pictures the spinner moved one
        // step (of 60 a turn) per vblank between them, whatever the loop skipped; a late loop turn
        // skips steps rather than slowing the spinner. Step j is the frame rendered at 3 + j/60 s.
        // A frame whose render and commit overran a refresh shows a vblank after the one it was
        // drawn for (-1 against the vblanks), and the next, drawn on time, catches up (+1): the
        // errors cancel, and their running sum stays within a narrow band. A spinner slowed by
        // late turns would drift one step further behind at each (measured before the scheduler
        // drew frames for their boundary: a drift of tens of steps in 5 s).
        var stepOf: [UInt32: Int] = [:]
        for (j, crc) in spinnerSteps.enumerated() { stepOf[crc] = stepOf[crc] == nil ? j : -1 }
        stepOf = stepOf.filter { $0.value >= 0 }
        let spinnerSeq = try #require(CRCChanges(run.info, prefix: "SPINNER-SEQ"), "no SPINNER-SEQ:\n\(run.output)")
        let phase = spinnerSeq.phaseErrors(steps: stepOf, turn: 60)
        let drift = phase.reduce(into: [0]) { $0.append($0.last! + $1) }
        #expect(phase.count * 2 >= spinner.changes && drift.max()! - drift.min()! <= 5,
                "spinner steps against vblanks, \(phase.count) pairs: running sum of errors \(drift); intervals \(spinnerSeq.intervals)")

        // Capped at 15 a second: k = ceil(60 / 15) = 4 refreshes per frame, by `set max-fps 15`
        // and by a profile's `[hud] max-fps = 15`. Every frame on screen on the grid of every 4th
        // vblank: a capped frame is rendered ahead and presented just after the vblank before its
        // own (FrameScheduler), so neither a late wake-up nor a render longer than a refresh under
        // emulation makes it a vblank late (before that: runs of 5 and 3, 10.8-13 a second). Only
        // a stall of the emulated CPU through the whole refresh the commit had can: that flip
        // lands a vblank late and the next is back on the grid (measured: none in most boots; one
        // "5, 3" in 75 flips in a CI run on a loaded 2-core host). So at most 1 flip in 25 off the
        // grid, never two in a row (a pace that slid would stay off), and at most 1 in 25 frames
        // skipped (a flip at least every 4 × 1.04 vblanks on average).
        let cappedSeq = try #require(CRCChanges(run.info, prefix: "CAPPED-SEQ"), "no CAPPED-SEQ:\n\(run.output)")
        let profileSeq = try #require(CRCChanges(run.info, prefix: "PROFILE-SEQ"), "no PROFILE-SEQ:\n\(run.output)")
        for (name, phase, seq, c) in [("set max-fps 15", "CAPPED", cappedSeq, capped), ("profile max-fps = 15", "PROFILE", profileSeq, try capture("profile15"))] {
            // Every 4th, by the kernel's own record of the vblank each flip completed at.
            let record = try Self.record(run, phase)
            let flipIntervals = record.flipIntervals, lags = record.gridLags(every: 4)
            let late = lags.filter { $0 != 0 }.count
            let lateInARow = zip(lags, lags.dropFirst()).contains { $0 != 0 && $1 != 0 }
            #expect(flipIntervals.count >= 60 && late * 25 <= lags.count && !lateInARow && record.flipRate >= 25.0 / (4 * 26),
                    "\(name): \(late) of \(lags.count) flips off the grid of every 4th vblank (lags \(lags)), \(record.flipRate) flips a vblank: \(flipIntervals)")
            // Its pictures are frames the memory display draws too (15 of the 60: every 4th step).
            Self.expectFramesDrawn(name, record, drawn: drawn, mixes: mixes)
            records.append("\(phase.lowercased()) " + record.summary(drawn: drawn))
            // What the CRCs saw agrees: at least 4 in 5 changes 4 vblanks apart. Not all: a frame
            // vkms composed after its buffer went back shows the frame drawn into it next, a vblank
            // or more early (a "3, 1" pair, one change more than the flips; measured: 0-3 in 5 s).
            let off = seq.intervals.filter { $0 != 4 }
            #expect(seq.intervals.count >= 60 && off.count * 5 <= seq.intervals.count,
                    "\(name): \(off.count) of \(seq.intervals.count) CRC changes not 4 vblanks after the one before: \(seq.intervals); \(c)")
        }

        // A static HUD: the CRC never changes, and the daemon's main thread sleeps through it (its
        // voluntary context switches over the 4 s: each wake-up of the event loop is one).
        #expect(still.changes == 0 && still.distinct == 1, "a static HUD changed the picture: \(still)")
        // ... and it is bit for bit the memory display's frame of the same HUD: vkms's CRC of the
        // host's headless render (measured: 5397fe83 in every boot).
        let expected = try Self.renderedCRCs(script: "@0 progress 0.5 \"Static\"\n", at: [3], width: Self.W, height: Self.H, dir: dir)[0]
        #expect(still.first == expected, "the static HUD on vkms (\(still)) is not the memory display's frame (CRC \(String(expected, radix: 16)))")
        let wakeups = try Self.count(run, "STATIC-WAKEUPS")
        #expect(wakeups <= 2, "the daemon woke \(wakeups) times in 4 s of a static HUD")
        let staticRecord = try Self.record(run, "STATIC")
        let staticFlips = staticRecord.flips.count
        Self.expectFramesDrawn("the static HUD", staticRecord, drawn: [expected])
        records.append("static " + staticRecord.summary(drawn: [expected]))
        #expect(staticFlips == 0, "the daemon queued \(staticFlips) flips in 4 s of a static HUD")

        // DRM master lost and regained: on VT 2 the floor, a second master, showed only its own
        // frames (the daemon had let master go); back on VT 1 the daemon showed its static HUD
        // again, the very frame it showed before, and nothing else.
        let awayCRCs = try #require(run.info.first { $0.hasPrefix("AWAY-CRCS ") }, "no CRCs away:\n\(run.output)")
            .split(separator: " ").dropFirst().compactMap { UInt32($0, radix: 16) }
        #expect(awayCRCs.contains(where: frames.contains) && awayCRCs.allSatisfy(floorPictures.contains),
                "away on VT 2, CRCs that are not the floor's: \(awayCRCs.filter { !floorPictures.contains($0) }.map { String($0, radix: 16) })")
        let back = try capture("back")
        #expect(back.entries > 0 && back.changes == 0 && back.first == still.first,
                "back on VT 1 the screen is not the static HUD it showed before (\(still)): \(back)")

        // A status request, posted anywhere in a refresh: on screen within two vblanks of the
        // vblank before it when the HUD is static; with the spinner running, within two vblanks of
        // the next frame the loop begins (measured by the floor: the emulated CPU leaves a program
        // one change every ~2 vblanks, so the bound is 2 + the floor's mean interval, rounded up).
        let period = try #require(SentRequest.period(run.info, prefix: "SPIN-"), "no period:\n\(run.output)")
        let texts = ["Step 1", "Step 2"]
        func pictures(_ script: (String) -> String, at times: [Double]) throws -> [Set<UInt32>] {
            try texts.map { t in Set(try Self.renderedCRCs(script: script(t), at: times, width: Self.W, height: Self.H, dir: dir)) }
        }
        let spinning = try pictures({ "@0 show \"Working\"\n@1 status \"\($0)\"\n" }, at: (0..<60).map { 3 + Double($0) / 60 })
        let resting = try pictures({ "@0 progress 0.5 \"\($0)\"\n" }, at: [3])
        let floorInterval = Double(floor.span) / Double(max(floor.changes, 1))
        var figures: [String] = []
        for (name, prefix, shows, bound) in [("static", "STATIC-", resting, Int64(2)), ("spinner", "SPIN-", spinning, Int64(2 + floorInterval.rounded(.up)))] {
            let sent = SentRequest.all(run.info, prefix: prefix)
            let seq = try #require(CRCChanges(run.info, prefix: "STATUS-\(prefix)SEQ"), "no status sequence:\n\(run.output)")
            let latencies = sent.map { $0.latency(in: seq, shows: shows[$0.index % texts.count], period: period) }
            #expect(sent.count == 16 && latencies.allSatisfy { $0 != nil }, "\(name): requests never shown: \(sent.count) sent, \(latencies)")
            let shown = latencies.compactMap { $0 }
            let slow = shown.filter { $0.vblanks > bound }
            #expect(slow.isEmpty, "\(name): status on screen after more than \(bound) vblanks: \(shown.map(\.vblanks))")
            figures.append("\(name) \(shown.map { String($0.vblanks) }.joined(separator: ",")) vblanks, "
                           + distribution(shown.map { Double($0.nanoseconds) / 1e6 }) + " ms")
        }
        print("vkms records: " + records.joined(separator: "; "))
        print("vkms status latency (min / median / p90 / max): " + figures.joined(separator: "; "))
        print(String(format: "vkms figures: floor %.1f %% of vblanks, spinner %.1f %%, max-fps 15 %d changes in %d vblanks, static %d changes %d wake-ups %d flips; ",
                     100 * floor.changeRate, 100 * spinner.changeRate, capped.changes, capped.span, still.changes, wakeups, staticFlips) + run.summary)
    }
}
