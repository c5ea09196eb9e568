// splashhud-display-guest: runs inside QEMU (scripts/qemu/vmtest.py) on a real kernel fbdev driver.
// It photographs the console, opens /dev/fb0 through FBDevDisplay, presents GuestScene's frames
// (damage only, as the daemon will) with a screendump after each, closes the display as asked and
// photographs the result. Facts for the host test go out as "INFO" lines on the control channel.
//
//   splashhud-display-guest [--rotate 0|90|180|270] [--close restore|retain] [--device /dev/fb0]
//   splashhud-display-guest --console exit|sigterm      (ConsoleGuest.swift)
#if canImport(Glibc)
import Glibc
#endif
import Display
import HUD
import Raster
import VMGuestSupport

func runGuest(_ args: [String]) throws {
    var rotation = Rotation.r0
    var closing = CloseBehaviour.restore
    var device = "/dev/fb0"
    var i = 0
    while i < args.count {
        let value = i + 1 < args.count ? args[i + 1] : ""
        switch args[i] {
        case "--rotate":
            guard let degrees = Int(value), let r = Rotation(rawValue: degrees) else { throw GuestError("--rotate \(value): use 0, 90, 180 or 270") }
            rotation = r
        case "--close":
            guard let c = ["restore": CloseBehaviour.restore, "retain": .retain][value] else { throw GuestError("--close \(value): use restore or retain") }
            closing = c
        case "--device":
            device = value
        default:
            throw GuestError("unknown argument \(args[i])")
        }
        i += 2
    }

    let port = try ControlPort(consoleTag: "e2e")
    // Text on the console for close(.restore) to give back; then fbcon's geometry and cursor cell
    // (it keeps blinking over our frames until the VT is switched to KD_GRAPHICS).
    writeToConsole("splashhud-display-guest: this console text must come back after close(.restore)\r\n"
        + "rotation \(rotation.rawValue), close \(closing)\r\n")
    if let c = consoleCursor() { port.info("CONSOLE \(c.columns) \(c.lines) \(c.x) \(c.y)") }
    try port.shot("before")

    let display = try FBDevDisplay(path: device, rotation: rotation)
    let out = display.outputs[0]
    port.info("LAYOUT \(out.mode.width) \(out.mode.height) \(out.format.name) pages \(display.isDoubleBuffered ? 2 : 1) frame \(out.frameWidth) \(out.frameHeight)")

    let player = try GuestScene.player(width: out.frameWidth, height: out.frameHeight, resources: try HUDResources.system())
    for (seconds, name) in GuestScene.instants {
        let t0 = monotonicMilliseconds()
        let damage = player.render(at: .seconds(seconds))
        let t1 = monotonicMilliseconds()
        let timing = try display.present(player.renderer.frame.view, damage: damage)
        let t2 = monotonicMilliseconds()
        let rects = damage.map { "\($0.x),\($0.y),\($0.width)x\($0.height)" }.joined(separator: ";")
        port.info("PRESENT \(name) damage \(rects.isEmpty ? "-" : rects) render \(Int(t1 - t0)) ms present \(Int(t2 - t1)) ms \(timing)")
        try port.shot(name)
    }
    for line in display.diagnostics { port.info("DIAG \(line)") }
    display.close(closing)
    try port.shot("after-close")
}

do {
    let args = Array(CommandLine.arguments.dropFirst())
    // The console end-to-end test (ConsoleGuest.swift).
    if args.count == 2 && args[0] == "--console" { try runConsoleParent(args[1]); exit(0) }
    if args.count == 2 && args[0] == "--console-child" { try runConsoleChild(args[1]); exit(0) }
    try runGuest(args)
    exit(0)
} catch {
    print("splashhud-display-guest: \(error)")
    exit(1)
}
