// SPDX-License-Identifier: MIT
// Kiosk input on real kernel drivers: splashhudd on virtio-gpu (KMS) with QEMU's virtio tablet and
// keyboard (virtio_input + evdev), events injected through QMP's input-send-event. One boot (about
// 60 s): an MB HUD with a Cancel button; a tap on the button's pixels, an Enter, and a tap outside
// the HUD give exactly two `button` events (and the touches' frame pixels are the ones aimed at);
// a held touch highlights the button, and the screendump then equals, bit for bit, the host's
// render of the highlighted HUD; the tablet is unplugged and another plugged in while the daemon
// runs (followed through the uevent monitor) and its tap presses the button; then the daemon runs
// again with the output rotated 90° and the same tap, aimed at where the button now is on the
// scanout, presses it too.
import Assets
import Foundation
import HUD
import HUDProtocol
import Raster
import Testing

@Suite("Kiosk input under QEMU", .serialized)
struct InputEndToEndTests {
    static let commands = ["set mode determinate", "set button Cancel", "progress 0.3 Copying", "show"]
    static let width: Int32 = 1280, height: Int32 = 800

    /// The HUD after `commands`, settled, on a `width x height` frame: its layout, and its picture
    /// with the button held.
    static func hud(width: Int32, height: Int32) throws -> (layout: HUDLayout, highlighted: Pixmap) {
        let clock = ManualClock()
        let controller = HUDController(clock: clock)
        for line in commands { controller.apply(try #require(try CommandParser.parse(line))) }
        clock.advance(to: .seconds(5))
        controller.update()
        controller.isButtonHighlighted = true
        let p = controller.presentation()
        let renderer = HUDSceneRenderer(width: width, height: height, background: .color(.black), resources: try HUDResources.system())
        renderer.render(p)
        return (renderer.layout(for: p), renderer.frame)
    }

    /// A point's pixel, floor of its fixed-point coordinates.
    static func pixel(_ x: Fixed16_16, _ y: Fixed16_16) -> (Int32, Int32) { (x.floor, y.floor) }

    static func script(button: (Int32, Int32), outside: (Int32, Int32), rotatedButton: (Int32, Int32)) -> String {
        let w = width, h = height
        return """
            #!/bin/sh
            S="$1"; D="$2"
            exec 3<>/dev/ttyS1
            ctl() { echo "$1" >&3; read -r answer <&3; echo "ctl $1 -> $answer"; }
            up() { i=0; while ! "$S" ping --timeout 200 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; }
            start() {
                "$D" --log-level info $1 & pid=$!
                up
                # 5 s for the daemon's answers: the other QEMU suites' guests share the two cores, and
                # a subscriber whose "subscribed" came after the default 500 ms saw no event at all.
                "$S" send --timeout 5000 \(commands.map { "'\($0)'" }.joined(separator: " ")); echo "RESULT send $?"
                "$S" subscribe --timeout 5000 > /tmp/events.$2 & sub=$!
                sleep 6   # a debug build under TCG: startup and the fade-in
            }
            finish() {
                "$S" quit; wait $pid; echo "RESULT daemon $?"
                wait $sub
                echo "EVENTS-$1-BEGIN"; cat /tmp/events.$1; echo "EVENTS-$1-END"
            }
            echo "INPUT $(ls /dev/input)"
            start "" a
            ctl "TAP \(button.0) \(button.1) \(w) \(h)"; sleep 3
            ctl "KEY ret"; sleep 3
            ctl "TAP \(outside.0) \(outside.1) \(w) \(h)"; sleep 3
            ctl "PRESS \(button.0) \(button.1) \(w) \(h)"; sleep 3
            ctl "SHOT pressed settled"
            ctl "RELEASE \(outside.0) \(outside.1) \(w) \(h)"; sleep 3
            # The tablet unplugged, another plugged in while the daemon runs.
            ctl "DEVICE_DEL tablet0"; ctl "WAIT_DELETED tablet0 20000"; sleep 2
            ctl "DEVICE_ADD tablet1 virtio-tablet-pci bus=pci.0 addr=07.0"; sleep 5
            ctl "TAP \(button.0) \(button.1) \(w) \(h)"; sleep 3
            finish a
            printf '[output]\\nrotation = 90\\n' > /tmp/rot.conf
            start "--profile /tmp/rot.conf" b
            ctl "TAP \(rotatedButton.0) \(rotatedButton.1) \(w) \(h)"; sleep 3
            finish b

            """
    }

    static func events(_ output: String, _ phase: String) -> [HUDEvent] {
        let block = output.components(separatedBy: "EVENTS-\(phase)-BEGIN").last?.components(separatedBy: "EVENTS-\(phase)-END").first ?? ""
        return block.split(whereSeparator: \.isNewline).compactMap { line in
            line.range(of: "event ").flatMap { HUDEvent(line: String(line[$0.lowerBound...])) }
        }
    }

    @Test("taps and keys on the button through virtio-input: one button event each, none outside, also rotated 90°")
    func tapsAndKeys() throws {
        try VMSelftestTests.requireQEMUTools()
        let splashhud = try GuestProgram.path(product: "splashhud")
        let daemon = try GuestProgram.path(product: "splashhudd")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-input-vm-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }

        let (layout, highlighted) = try Self.hud(width: Self.width, height: Self.height)
        let button = try #require(layout.button)
        let target = Self.pixel(button.midX, button.midY)
        let outside: (Int32, Int32) = (20, 20)
        #expect(layout.hit(Point(x: Fixed16_16(outside.0), y: Fixed16_16(outside.1))) == .outside)
        // Rotated 90°: the frame is 800x1280; where its button is lands on the scanout turned.
        let rotated = try #require(try Self.hud(width: Self.height, height: Self.width).layout.button)
        let rotatedFrame = Self.pixel(rotated.midX, rotated.midY)
        let onScanout = Rotation.r90.destinationPoint(x: rotatedFrame.0, y: rotatedFrame.1, sourceWidth: Self.height, sourceHeight: Self.width)
        try Self.script(button: target, outside: outside, rotatedButton: (onScanout.x, onScanout.y))
            .write(toFile: "\(dir)/guest.sh", atomically: true, encoding: .utf8)

        let files = try guestFiles([splashhud, daemon])
        let run = try VMRun(display: "virtio", program: "/bin/busybox", shotsDir: "\(dir)/shots", timeout: 400, verbose: true,
                            files: files + ["\(dir)/guest.sh:/input-test.sh"], input: true,
                            args: ["sh", "/input-test.sh", splashhud, daemon])
        let output = run.output
        print(output.split(whereSeparator: \.isNewline).filter {
            $0.contains("vmtest: virtio") || $0.contains("RESULT") || $0.contains("ctl ") || $0.contains("input ") || $0.contains("INPUT")
        }.joined(separator: "\n"))
        try #require(run.status == 0, "vmtest failed (\(run.status)):\n\(output)")
        #expect(!output.contains("-> ERR"), "every injection must reach QEMU:\n\(output)")
        #expect(output.contains("RESULT daemon 0"), "\(output)")
        #expect(output.contains("QEMU Virtio Tablet") && output.contains("QEMU Virtio Keyboard"), "the daemon must open both devices:\n\(output)")
        #expect(output.contains(": removed"), "the unplugged tablet must be closed:\n\(output)")

        let a = Self.events(output, "a")
        let b = Self.events(output, "b")
        let kinds = a.map(\.kind).filter { $0 != .willAppear && $0 != .didAppear }
        // tap: touch, touch-inside, button; Enter: button; tap outside: touch; press and slide off:
        // touch, touch-inside (no button); the new tablet's tap: touch, touch-inside, button.
        #expect(kinds.filter { $0 == .buttonPressed }.count == 3, "\(a.map(\.line))")
        #expect(kinds == [.touch, .touchInside, .buttonPressed, .buttonPressed, .touch, .touch, .touchInside,
                          .touch, .touchInside, .buttonPressed], "\(a.map(\.line))")
        let touches = a.filter { $0.kind == .touch }
        #expect(touches.first?.detail("x") == "\(target.0)" && touches.first?.detail("y") == "\(target.1)",
                "the tap lands on the pixel aimed at: \(touches.first?.line ?? "none")")
        #expect(touches.dropFirst().first?.detail("x") == "\(outside.0)", "\(touches.map(\.line))")
        #expect(b.filter { $0.kind == .buttonPressed }.count == 1, "rotated 90°: \(b.map(\.line))")
        #expect(b.first { $0.kind == .touch }?.detail("x") == "\(rotatedFrame.0)", "\(b.map(\.line))")

        // The held button on screen is the host's render of it, bit for bit.
        let shot = try PNGDecoder.decode(contentsOf: "\(dir)/shots/pressed.png")
        try #require(shot.width == highlighted.width && shot.height == highlighted.height)
        let off = ServiceEndToEndTests.differing(highlighted, shot)
        #expect(off == 0, "\(off) pixels of the screen with the button held differ from the host's render")
    }
}
