// splashhud-drm-guest: runs inside QEMU (scripts/qemu/vmtest.py) on a real KMS driver (bochs,
// virtio-gpu). For each commit strategy asked for it opens the card through DRMDisplay, presents
// DRMGuestFrames' three frames with a screendump after each, loses and regains DRM master and
// presents a fourth, then closes (restore, or retain for
// the last strategy when asked) and photographs the result. Facts for the host test go out as
// "INFO" lines on the control channel.
//
//   splashhud-drm-guest [--strategies atomic,legacy:1024x768@60] [--close restore|retain] [--rotate 0|90|180|270]
#if canImport(Glibc)
import Glibc
#endif
import CLinuxShim
import Display
import Raster
import VMGuestSupport

/// Switches the foreground VT to graphics (KDSETMODE KD_GRAPHICS = 1, <linux/kd.h>) so fbcon stops
/// blinking its cursor and the console's pixels before and after the run compare exactly.
func setConsoleGraphics(_ graphics: Bool) {
    let fd = open("/dev/tty0", O_RDWR | O_NOCTTY)
    guard fd >= 0 else { return }
    _ = ioctl(fd, CLinuxShim_KDSETMODE, graphics ? 1 : 0)
    close(fd)
}

func runGuest(_ args: [String]) throws {
    var strategies = ["atomic"]
    var closing = CloseBehaviour.restore
    var rotation = Rotation.r0
    var i = 0
    while i < args.count {
        let value = i + 1 < args.count ? args[i + 1] : ""
        switch args[i] {
        case "--strategies": strategies = value.split(separator: ",").map(String.init)
        case "--close":
            guard let c = ["restore": CloseBehaviour.restore, "retain": .retain][value] else { throw GuestError("--close \(value)") }
            closing = c
        case "--rotate":
            guard let degrees = Int(value), let r = Rotation(rawValue: degrees) else { throw GuestError("--rotate \(value)") }
            rotation = r
        default: throw GuestError("unknown argument \(args[i])")
        }
        i += 2
    }
    let port = try ControlPort(consoleTag: "drm-guest")
    setConsoleGraphics(true)
    defer { setConsoleGraphics(false) }
    try port.shot("before")
    for (n, pass) in strategies.enumerated() {
        // "legacy" or "legacy:1024x768@60" (a mode request, as a board profile makes).
        let parts = pass.split(separator: ":", maxSplits: 1).map(String.init)
        let strategy = parts[0]
        guard strategy == "atomic" || strategy == "legacy" else { throw GuestError("strategy \(strategy)") }
        let mode = try parts.count > 1 ? DRMModeRequest.parse(video: parts[1]) : nil
        let display = try DRMDisplay(options: DRMDisplayOptions(mode: mode, rotation: rotation, allowAtomic: strategy == "atomic"))
        let out = display.outputs[0]
        port.info("OUTPUT \(strategy) \(display.devicePath) \(display.driverName) \(display.commitStrategyName) \(out.name) "
            + "\(out.mode.width)x\(out.mode.height) \(out.mode.refreshMillihertz) \(out.format.name) r\(out.rotation.rawValue) outputs \(display.outputs.count)")
        let frame = Pixmap(width: out.frameWidth, height: out.frameHeight)
        for step in DRMGuestFrames.steps(width: out.frameWidth, height: out.frameHeight) {
            step.draw(frame.view)
            let timing = try display.present(frame.view, damage: step.damage)
            port.info("PRESENT \(strategy) \(step.name) \(timing)")
            try port.shot("\(strategy)-\(step.name)")
        }
        // DRM master: give it up (as on a VT switch), let another opener of the card take it,
        // present (must fail clearly), then present again once that opener is gone.
        try display.releaseMaster()
        let other = open(display.devicePath, O_RDWR | O_CLOEXEC)
        guard other >= 0 else { throw GuestError("second open of \(display.devicePath) failed") }
        let after = DRMGuestFrames.afterMasterLoss(width: out.frameWidth, height: out.frameHeight)
        after.draw(frame.view)
        do {
            _ = try display.present(frame.view, damage: after.damage)
            port.info("MASTER \(strategy) present succeeded while another process held master")
        } catch {
            port.info("MASTER \(strategy) refused: \(error)")
        }
        close(other)
        let timing = try display.present(frame.view, damage: after.damage)
        port.info("PRESENT \(strategy) \(after.name) \(timing) master \(display.isMasterLost ? "lost" : "held")")
        try port.shot("\(strategy)-\(after.name)")
        for line in display.diagnostics { port.info("DIAG \(line)") }
        let last = n == strategies.count - 1
        display.close(last ? closing : .restore)
        try port.shot("\(strategy)-closed")
    }
}

do {
    try runGuest(Array(CommandLine.arguments.dropFirst()))
    exit(0)
} catch {
    print("splashhud-drm-guest: \(error)")
    exit(1)
}
