// SPDX-License-Identifier: MIT
// A boot with no black screen, from the firmware to the GPU's driver (two boots through Debian's
// OVMF, about 45 s each under TCG: the std VGA with bochs-drm, virtio-vga with virtio_gpu). The
// firmware draws its TianoCore logo and publishes it in ACPI's BGRT; the kernel has efifb's
// /dev/fb0 and, with fbcon=map:9, no console on it, and the GPU's driver is held back. The daemon
// starts on efifb with `logo = firmware`; then the driver is loaded, replaces efifb, and the daemon
// moves to its card. The host records screendumps as fast as QMP gives them through the whole
// sequence (vmtest's RECORD, one every 15 ms or so) and checks:
// - the logo's pixels in every dump are the firmware's own, which our decoder reads from the BGRT
//   (loading the driver alone leaves the firmware's picture on the screen: checked by hand);
// - from the splash's first settled frame on, every dump is that frame: the move shows no black,
//   blank or changed frame, and both are bit for bit the memory display's render of the same
//   profile given a copy of the guest's BGRT (SPLASHHUD_BGRT). On the std VGA one black run is
//   allowed at the move, and measured: bochs-drm sets the mode by re-enabling QEMU's VBE without
//   VBE_DISPI_NOCLEARMEM, so QEMU clears the video memory our frame is in; the daemon's next frame
//   (drawn whole as soon as the mode set completes) ends it;
// - the daemon no longer holds efifb's device once it has moved, and says how long the card took.
import Assets
import Foundation
import Raster
import Testing

@Suite("A seamless boot under QEMU with OVMF", .serialized)
struct SeamlessBootEndToEndTests {
    static let guestScript = """
        #!/bin/sh
        D="$1"; S="$2"; P="$3"; K="$4"
        exec 3<>/dev/ttyS1
        ctl() { echo "$1" >&3; read -r answer <&3; echo "ctl $1 -> $answer"; }
        c() { "$S" "$@" --socket /run/hud --timeout 5000; }
        B=/sys/firmware/acpi/bgrt
        echo "BGRT $(cat $B/status) $(cat $B/type) $(cat $B/xoffset) $(cat $B/yoffset) $(cat /sys/class/graphics/fb0/name)"
        echo "IMAGE-BEGIN"; base64 $B/image; echo "IMAGE-END"
        ctl "SHOT firmware"
        ctl "RECORD boot"
        mkdir -p /run
        "$D" --profile "$P" --socket /run/hud --log-level info > /tmp/daemon.log 2>&1 & pid=$!
        i=0; while ! "$S" ping --socket /run/hud --timeout 200 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
        c progress 0.4 Starting the kiosk; echo "RESULT progress $?"
        sleep 4
        ctl "SHOT efi settled"
        ctl "MARK insmod"
        for m in $(cat /modules/late); do
          n=$(echo ${m%.ko} | tr - _)
          insmod /modules/$m $(tr ' ' '\\n' < /proc/cmdline | sed -n "s/^$n\\.//p") || echo "insmod $m failed"
        done
        echo "INSMOD-DONE"
        i=0; while ! c state | grep -q "outputs card" && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
        sleep 3
        ctl "SHOT card settled"
        echo "STATE $(c state)"
        for f in /proc/$pid/fd/*; do echo "FD $(readlink $f)"; done
        echo "FB0 $(cat /sys/class/graphics/fb0/name)"
        if [ "$K" = kiosk ]; then
          # The kiosk's app: cage (as a user, through seatd) with a Wayland client, once the
          # splash has let go of the screen.
          export XDG_RUNTIME_DIR=/run/xdg
          mkdir -p $XDG_RUNTIME_DIR /etc /tmp/.X11-unix; chmod 1777 /tmp /tmp/.X11-unix
          printf 'root:x:0:0:root:/root:/bin/sh\nkiosk:x:1000:1000:kiosk:/tmp:/bin/sh\n' > /etc/passwd
          printf 'root:x:0:\nkiosk:x:1000:\n' > /etc/group
          chown 1000:1000 $XDG_RUNTIME_DIR
          /usr/sbin/seatd -u kiosk -g kiosk -l error > /tmp/seatd.log 2>&1 &
          # exec: run in the background, the app's PID is the one $! names.
          app() {
            exec /usr/bin/setpriv --reuid=1000 --regid=1000 --clear-groups env XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR \
              WLR_RENDERER=pixman LIBSEAT_BACKEND=seatd WLR_LIBINPUT_NO_DEVICES=1 /usr/bin/cage -- "$@"
          }
          ctl "MARK deactivate"
          c deactivate; echo "RESULT deactivate $?"
          sleep 1
          ctl "MARK cage"
          app /usr/bin/weston-simple-shm > /tmp/cage.log 2>&1 & cage=$!
          sleep 3
          ctl "RECORD STOP"
          kill $cage; wait $cage
          c reactivate; echo "RESULT reactivate $?"
          sleep 2
          ctl "SHOT reactivated settled"
          # An app that dies before its first frame: the watchdog (6 s) takes the screen back.
          c deactivate; echo "RESULT deactivate-again $?"
          (app /bin/false > /tmp/cage2.log 2>&1); echo "RESULT app-died $?"
          sleep 8
          ctl "SHOT watchdog settled"
        else
          ctl "RECORD STOP"
        fi
        kill $pid; wait $pid
        cat /tmp/daemon.log
        """

    static let profile = """
        [theme]
        logo = firmware

        [handover]
        # Twice what cage takes to set its mode here under TCG (1 s after the release, then
        # 1-2 s; 4.3 s measured at load 25): the watchdog must not take the screen from it.
        watchdog = 6

        """

    /// A vmtest display and what its driver's card calls itself.
    struct Machine: CustomStringConvertible, Sendable {
        var display: String
        var fbdevEmulation: String
        /// Whether the driver's mode set clears the video memory (a black run is then allowed).
        var modesetClears: Bool
        /// Whether the boot goes on to a kiosk's app (cage and a Wayland client) and the watchdog.
        var kiosk = false
        var description: String { display }
    }

    static let machines = [
        Machine(display: "efifb", fbdevEmulation: "bochs-drmdrmfb", modesetClears: true),
        Machine(display: "efifb-virtio", fbdevEmulation: "virtio_gpudrmfb", modesetClears: false, kiosk: true),
    ]

    @Test(arguments: machines)
    func fromTheFirmwaresLogoToTheGPUsDriverWithoutABlackFrame(machine: Machine) throws {
        try VMSelftestTests.requireQEMUTools()
        try #require(FileManager.default.fileExists(atPath: "/usr/share/ovmf/OVMF.fd"), "Debian's ovmf is not installed (scripts/setup.sh --tests)")
        let daemon = try GuestProgram.path(product: "splashhudd", release: true)
        let client = try GuestProgram.path(product: "splashhud", release: true)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-seamless-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.profile.write(toFile: "\(dir)/kiosk.conf", atomically: true, encoding: .utf8)
        try Self.guestScript.write(toFile: "\(dir)/guest.sh", atomically: true, encoding: .utf8)
        let shots = "\(dir)/shots"
        // The kiosk: Debian's cage (wlroots, drawing with pixman), a Wayland client, seatd, and
        // Xwayland, which cage will not start without.
        let kioskPrograms = ["/usr/bin/cage", "/usr/bin/weston-simple-shm", "/usr/sbin/seatd", "/usr/bin/setpriv", "/usr/bin/Xwayland"]
        if machine.kiosk {
            for p in kioskPrograms { try #require(FileManager.default.fileExists(atPath: p), "\(p) is missing (scripts/setup.sh --tests)") }
        }
        let run = try VMRun(display: machine.display, program: "/bin/busybox", shotsDir: shots, timeout: 300, verbose: true,
                            files: try guestFiles([daemon, client] + (machine.kiosk ? kioskPrograms : []))
                                + ["\(dir)/guest.sh:/seamless-test.sh", "\(dir)/kiosk.conf:/kiosk.conf"],
                            analysis: true, args: ["sh", "/seamless-test.sh", daemon, client, "/kiosk.conf", machine.kiosk ? "kiosk" : "-"])
        // Everything below (the host's render, every recorded dump read and judged) runs holding
        // the boot's lock (`analysis`), so that no timed boot measures it.
        defer { run.lock?.release() }
        let output = run.output
        print(output.split(whereSeparator: \.isNewline).filter {
            $0.contains("BGRT") || $0.contains("RESULT") || $0.contains("logo") || $0.contains("start-up") || $0.contains("moved")
                || $0.contains("first frame") || $0.contains("RECORD") || $0.contains("FD ") || $0.contains("FB0")
        }.joined(separator: "\n"))
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
        let rect = IntRect(x: x, y: y, width: logo.width, height: logo.height)
        #expect(output.contains("the firmware's logo, \(logo.width)x\(logo.height) at \(x),\(y) turned r0"), "\(output)")

        // The move: logged, efifb's device let go (its node is bochs' emulation now), the card's frame timed.
        #expect(output.contains("the splash moves to the GPU's card when its driver loads"), "\(output)")
        #expect(output.contains("moved from the firmware's framebuffer (/dev/fb0) to card0-Virtual-1 1280x800"), "\(output)")
        #expect(output.contains("output card0-Virtual-1: first frame"), "\(output)")
        #expect(output.contains("FB0 \(machine.fbdevEmulation)"), "\(output)")
        let fds = output.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("FD ") }
        #expect(!fds.isEmpty && !fds.contains { $0.contains("fb") }, "the daemon still holds a framebuffer device: \(fds)")
        #expect(fds.contains { $0.contains("/dev/dri/card0") }, "\(fds)")

        // The firmware's frame: its logo at the BGRT's offsets (our decoder reads what it drew), black around it.
        let firmware = try PNGDecoder.decode(contentsOf: "\(shots)/firmware.png")
        try #require(firmware.width == 1280 && firmware.height == 800)
        var logoOff = 0, aroundLit = 0
        for py in 0..<firmware.height {
            for px in 0..<firmware.width {
                let f = firmware[px, py].argb & 0x00FF_FFFF
                if rect.contains(x: px, y: py) {
                    if f != logo[px - x, py - y].argb & 0x00FF_FFFF { logoOff += 1 }
                } else if f != 0 { aroundLit += 1 }
            }
        }
        #expect(logoOff == 0, "\(logoOff) of the firmware's logo pixels differ from the BGRT's image")
        #expect(aroundLit == 0, "\(aroundLit) pixels lit around the firmware's logo (a console drew?)")

        // The splash: the memory display's render of the same profile with the guest's BGRT, on
        // efifb and on the card alike.
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
        let splash = try PNGDecoder.decode(contentsOf: "\(dir)/host/shown-last.png")
        for shot in ["efi", "card"] {
            let off = ServiceEndToEndTests.differing(splash, try PNGDecoder.decode(contentsOf: "\(shots)/\(shot).png"))
            #expect(off == 0, "\(shot): \(off) pixels differ from the memory display's render")
        }
        var logoRedrawn = 0
        for py in rect.y..<rect.maxY { for px in rect.x..<rect.maxX where splash[px, py].argb & 0x00FF_FFFF != firmware[px, py].argb & 0x00FF_FFFF { logoRedrawn += 1 } }
        #expect(logoRedrawn == 0, "\(logoRedrawn) of the splash's logo pixels differ from the firmware's frame")
        var hudAbove = 0
        for py in 0..<(y + logo.height) { for px in 0..<splash.width where !rect.contains(x: px, y: py) && splash[px, py].argb & 0x00FF_FFFF != 0 { hudAbove += 1 } }
        #expect(hudAbove == 0, "\(hudAbove) HUD pixels at or above the logo")

        // Every dump of the recording: the firmware's logo in place; from the first settled splash
        // frame on, that frame and nothing else, across the move.
        let index = try String(contentsOfFile: "\(shots)/boot.index", encoding: .utf8).split(whereSeparator: \.isNewline)
        var all: [(ms: Double, file: String)] = []
        var marks: [(ms: Double, what: String)] = []
        for line in index {
            let parts = line.split(separator: " ")
            if parts.first == "#" {
                marks.append((try #require(Double(String(parts[1]))), parts.dropFirst(2).joined(separator: " ")))
                continue
            }
            all.append((try #require(Double(String(parts[0]))), String(parts[1])))
        }
        // The boot and the move up to the hand-over to the kiosk's app; the app's part after it.
        let handover = marks.first { $0.what == "deactivate" }?.ms ?? .infinity
        let dumps = all.filter { $0.ms < handover }
        try #require(dumps.count >= 20, "only \(dumps.count) screendumps recorded")
        // Each distinct frame read and judged once (the dumps name them many times over).
        var frames: [String: Pixmap] = [:], kinds: [String: FrameKind] = [:]
        for file in Set(all.map(\.file)) {
            let frame = try ScreenDump(contentsOf: "\(shots)/\(file)").pixmap
            frames[file] = frame
            kinds[file] = FrameKind(frame, splash: splash)
        }
        var logoMoved = 0, firstSplash: Double?, afterSplash = 0, notSplash: [String] = []
        var blackRuns: [(from: Double, to: Double)] = [], previousBlack = false
        for (i, d) in dumps.enumerated() {
            let frame = try #require(frames[d.file]), kind = try #require(kinds[d.file])
            let isSplash = kind == .splash
            if firstSplash == nil, isSplash { firstSplash = d.ms }
            guard firstSplash != nil else {
                for py in rect.y..<rect.maxY { for px in rect.x..<rect.maxX where frame[px, py].argb != firmware[px, py].argb { logoMoved += 1 } }
                continue
            }
            afterSplash += 1
            // While bochs-drm writes QEMU's VBE registers one by one, the emulated VGA can show
            // video memory in a passing mode (grey stripes, one dump under load) next to the
            // clear: part of the same mode set, and timed with it.
            let nextBlack = i + 1 < dumps.count && kinds[dumps[i + 1].file] == .black
            let black = machine.modesetClears && (kind == .black || (kind == .other && (previousBlack || nextBlack)))
            defer { previousBlack = black }
            if isSplash { continue }
            if black {
                // A run lasts until the next dump that is not black.
                let end = i + 1 < dumps.count ? dumps[i + 1].ms : d.ms
                if previousBlack { blackRuns[blackRuns.count - 1].to = end } else { blackRuns.append((d.ms, end)) }
                continue
            }
            notSplash.append("\(d.file) at \(d.ms) ms")
        }
        var segments: [String] = []
        for (i, d) in all.enumerated() where i == 0 || all[i - 1].file != d.file {
            let black = kinds[d.file] == .black
            segments.append("\(Int(d.ms)) ms \(d.file)\(black ? " (black)" : "")")
        }
        print("frames as recorded: " + segments.joined(separator: ", ") + "; marks: " + marks.map { "\(Int($0.ms)) ms \($0.what)" }.joined(separator: ", "))
        print("recorded \(dumps.count) screendumps over \(Int(dumps.last!.ms)) ms, \(frames.count) distinct; the splash from \(firstSplash.map { "\(Int($0)) ms" } ?? "never")")
        #expect(logoMoved == 0, "\(logoMoved) logo pixels (summed over the dumps before the splash) differ from the firmware's")
        #expect(firstSplash != nil && afterSplash >= 10, "the splash in \(afterSplash) dumps")
        #expect(notSplash.isEmpty, "dumps after the splash's first frame that are not it: \(notSplash.prefix(5))")
        if machine.modesetClears {
            // The mode set's clear, once, and ended by the next frame (TCG's slowness allowed for).
            print("black at the move: " + blackRuns.map { "\(Int($0.to - $0.from)) ms from \(Int($0.from)) ms" }.joined(separator: ", "))
            #expect(blackRuns.count <= 1 && blackRuns.allSatisfy { $0.to - $0.from < 1000 }, "black runs: \(blackRuns)")
        }
        var kioskFailed = false
        if machine.kiosk {
            kioskFailed = try Self.checkKiosk(all.filter { $0.ms >= handover }, kinds: kinds, marks: marks, output: output)
            for shot in ["reactivated", "watchdog"] {
                let off = ServiceEndToEndTests.differing(splash, try PNGDecoder.decode(contentsOf: "\(shots)/\(shot).png"))
                #expect(off == 0, "\(shot): \(off) pixels differ from the splash")
                if off != 0 {
                    let keep = VMSelftestTests.repo.appendingPathComponent(".build/qemu-failures").path
                    try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
                    try? FileManager.default.removeItem(atPath: "\(keep)/seamless-\(shot).png")
                    try? FileManager.default.copyItem(atPath: "\(shots)/\(shot).png", toPath: "\(keep)/seamless-\(shot).png")
                }
            }
            for step in ["deactivate", "reactivate", "deactivate-again"] { #expect(output.contains("RESULT \(step) 0"), "\(step)") }
            #expect(output.contains("handover watchdog: no other program drew within 6.0 s of the release; taking the display back"), "\(output)")
        }
        if logoMoved != 0 || !notSplash.isEmpty || blackRuns.count > 1 || kioskFailed {
            // For a person to look at: every distinct frame, in .build/qemu-failures/.
            let keep = VMSelftestTests.repo.appendingPathComponent(".build/qemu-failures").path
            try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            for (file, frame) in frames { try? PNGEncoder.write(frame, to: "\(keep)/seamless-\(machine.display)-\(file).png") }
        }
    }

    /// The hand-over to cage: until cage starts, only the splash (the released frame stays); then
    /// black while cage sets its mode with a black buffer before its client has drawn (cage #366:
    /// cage's, measured and said, not ours); then the client's frames. Returns whether it failed.
    static func checkKiosk(_ dumps: [(ms: Double, file: String)], kinds: [String: FrameKind],
                           marks: [(ms: Double, what: String)], output: String) throws -> Bool {
        let cageStart = try #require(marks.first { $0.what == "cage" }?.ms, "no cage mark")
        var beforeCage = 0, notSplashBeforeCage = 0, firstBlack: Double?, firstClient: Double?, other = 0
        for d in dumps {
            let kind = try #require(kinds[d.file])
            let isSplash = kind == .splash, black = kind == .black
            if d.ms < cageStart {
                beforeCage += 1
                if !isSplash { notSplashBeforeCage += 1 }
            } else if firstClient == nil {
                if black { if firstBlack == nil { firstBlack = d.ms } } else if !isSplash { firstClient = d.ms } else if firstBlack != nil { other += 1 }
            }
        }
        let splashHeld = firstBlack ?? firstClient ?? .infinity
        print("hand-over to cage: the splash's frame held \(Int(splashHeld - cageStart)) ms after cage started; black (cage's own mode set) "
              + "\(firstBlack.map { "from \(Int($0 - cageStart)) ms for \(Int((firstClient ?? $0) - $0)) ms" } ?? "never"); "
              + "the client's first frame at \(firstClient.map { "\(Int($0 - cageStart)) ms" } ?? "never")")
        #expect(beforeCage > 0 && notSplashBeforeCage == 0, "\(notSplashBeforeCage) of \(beforeCage) dumps between deactivate and cage were not the splash")
        #expect(firstClient != nil, "the client never drew:\n\(output)")
        #expect(other == 0, "the splash came back between cage's black and its client")
        return notSplashBeforeCage != 0 || firstClient == nil || other != 0
    }

    /// What a recorded frame is: the splash (bit for bit), all black, or something else.
    enum FrameKind: Equatable {
        case splash, black, other
        init(_ frame: Pixmap, splash: Pixmap) {
            if ServiceEndToEndTests.differing(splash, frame) == 0 { self = .splash; return }
            for y in 0..<frame.height {
                let row = frame.view.row(y)
                for x in 0..<Int(frame.width) where row[x] & 0x00FF_FFFF != 0 { self = .other; return }
            }
            self = .black
        }
    }
}
