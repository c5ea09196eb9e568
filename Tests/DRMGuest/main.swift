// SPDX-License-Identifier: MIT
// splashhud-drm-guest: runs inside QEMU (scripts/qemu/vmtest.py) on a real KMS driver (bochs,
// virtio-gpu, cirrus, qxl). It takes the VT with Console (cursor hidden, KD_GRAPHICS, VT_PROCESS) and
// photographs the console. For each pass asked for it opens the card through DRMDisplay, presents
// DRMGuestFrames' three frames with a screendump after each, loses and regains DRM master and
// presents a fourth, optionally switches VTs away and back (DRMGuestVT.swift), then closes
// (restore, or retain for the last pass when asked) and photographs the result. At the end the
// console is given back (KD_TEXT) and photographed once more. Facts for the host test go out as
// "INFO" lines on the control channel.
//
//   splashhud-drm-guest [--passes PASS,...] [--close restore|retain]
//   PASS = atomic|legacy followed by ":"-separated words: r0|r90|r180|r270 (rotation), vt (a VT
//          round trip), 1buf (single-buffered: drawn on screen + drmModeDirtyFB), rgb565 (the
//          pixel-format override), lostflip (the third frame's flip event is read and thrown away,
//          so DRMDisplay must give the flip up after a 200 ms timeout), or a video=-style mode
//          request (800x600@60);
//          e.g. legacy:r270:800x600@60.
#if canImport(Glibc)
import Glibc
#endif
import Display
import Raster
import VMGuestSupport

/// One DRMDisplay opened in the guest.
struct GuestPass {
    var strategy: String
    var rotation = Rotation.r0
    var mode: DRMModeRequest?
    var vtSwitch = false
    var buffers = 2
    var format: PixelFormat?
    var loseFlip = false
    /// Prefix of this pass's shots and INFO lines: "atomic-r0", "atomic-r0-rgb565".
    var label: String { "\(strategy)-r\(rotation.rawValue)" + (format == .rgb565 ? "-rgb565" : "") }

    init(_ text: String) throws {
        let words = text.split(separator: ":").map(String.init)
        strategy = words.first ?? ""
        guard strategy == "atomic" || strategy == "legacy" else { throw GuestError("pass \(text): atomic or legacy first") }
        for word in words.dropFirst() {
            if word == "vt" {
                vtSwitch = true
            } else if word == "1buf" {
                buffers = 1
            } else if word == "lostflip" {
                loseFlip = true
            } else if word == "rgb565" {
                format = .rgb565
            } else if word.hasPrefix("r"), let degrees = Int(word.dropFirst()) {
                guard let r = Rotation(rawValue: degrees) else { throw GuestError("pass \(text): rotation \(word)") }
                rotation = r
            } else {
                mode = try DRMModeRequest.parse(video: word)
            }
        }
    }
}

func runGuest(_ args: [String]) throws {
    var passes = [try GuestPass("atomic")]
    var closing = CloseBehaviour.restore
    var i = 0
    while i < args.count {
        let value = i + 1 < args.count ? args[i + 1] : ""
        switch args[i] {
        case "--passes": passes = try value.split(separator: ",").map { try GuestPass(String($0)) }
        case "--close":
            guard let c = ["restore": CloseBehaviour.restore, "retain": .retain][value] else { throw GuestError("--close \(value)") }
            closing = c
        default: throw GuestError("unknown argument \(args[i])")
        }
        i += 2
    }
    // The handlers first: the VT signals SIGUSR1/SIGUSR2 once in VT_PROCESS (default: death).
    let signals = try ConsoleSignals()
    let port = try ControlPort(consoleTag: "drm-guest")
    // KD_GRAPHICS with the cursor hidden: fbcon stops drawing, so the console's pixels before and
    // after a pass compare exactly.
    let console = try Console.open()
    defer { console.restore() }
    try console.enterGraphics(releaseSignal: signals.releaseSignal, acquireSignal: signals.acquireSignal)
    try port.shot("before")
    for (n, pass) in passes.enumerated() {
        let label = pass.label
        let display = try DRMDisplay(options: DRMDisplayOptions(mode: pass.mode, rotation: pass.rotation, format: pass.format, allowAtomic: pass.strategy == "atomic",
                                                                flipTimeoutMilliseconds: pass.loseFlip ? 200 : 1000, buffers: pass.buffers))
        let out = display.outputs[0]
        port.info("OUTPUT \(label) \(display.devicePath) \(display.driverName) \(display.commitStrategyName) \(out.name) "
            + "\(out.mode.width)x\(out.mode.height) \(out.mode.refreshMillihertz) \(out.format.name) r\(out.rotation.rawValue) outputs \(display.outputs.count)")
        let frame = Pixmap(width: out.frameWidth, height: out.frameHeight)
        for (i, step) in DRMGuestFrames.steps(width: out.frameWidth, height: out.frameHeight).enumerated() {
            step.draw(frame.view)
            // The second buffer is made by the second present, not before the first frame.
            if i == 0 || i == 2 { port.info("BUFFERS-\(i == 0 ? "BEFORE" : "AFTER") \(label) \(display.buffersPerOutput[0])") }
            let timing = try display.present(frame.view, damage: step.damage)
            port.info("PRESENT \(label) \(step.name) \(timing)")
            if pass.loseFlip && step.name == "frame-3" {
                port.info("LOSTFLIP \(label) swallowed \(swallowEvents(display.eventDescriptors[0])) timeouts \(display.flipTimeouts + 1)")
            }
            try display.waitForPendingFlips()  // present returns once the flip is queued
            // No event waits on the card now: reading them finds none (EAGAIN, the card being
            // open non-blocking), which is no error and must not block.
            try display.handleEvents(on: display.eventDescriptors[0])
            if pass.loseFlip && display.flipTimeouts != (step.name == "frame-3" ? 1 : 0) {
                throw GuestError("\(step.name): \(display.flipTimeouts) flip timeouts")
            }
            try port.shot("\(label)-\(step.name)")
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
            port.info("MASTER \(label) present succeeded while another process held master")
        } catch {
            port.info("MASTER \(label) refused: \(error)")
        }
        close(other)
        let timing = try display.present(frame.view, damage: after.damage)
        port.info("PRESENT \(label) \(after.name) \(timing) master \(display.isMasterLost ? "lost" : "held")")
        try display.waitForPendingFlips()
        try port.shot("\(label)-\(after.name)")
        if pass.vtSwitch {
            try switchVTAwayAndBack(display: display, frame: frame, console: console, signals: signals, port: port, label: label)
        }
        port.info("BUFFERS \(label) \(display.buffersPerOutput.map(String.init).joined(separator: ",")) dirtyfb \(display.dirtyFBCalls) "
            + "flipwait \(display.flipWaitNanoseconds / 1000) us")
        for line in display.diagnostics { port.info("DIAG \(line)") }
        display.close(n == passes.count - 1 ? closing : .restore)
        try port.shot("\(label)-closed")
    }
    // KD_TEXT: fbcon takes the screen back (even from a retained frame) and redraws the text.
    // The cursor is hidden again so the picture compares exactly with "before".
    console.restore()
    for line in console.diagnostics { port.info("DIAG console: \(line)") }
    writeToTerminal(console.device, "\u{1B}[?25l")
    try port.shot("text")
    withExtendedLifetime(signals) {}
}

/// Reads and throws away the DRM events waiting on `fd` (within a second): a driver that lost them.
func swallowEvents(_ fd: Int32) -> Int {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&p, 1, 1000) > 0 else { return 0 }
    var buffer = [UInt8](repeating: 0, count: 4096)
    return max(0, read(fd, &buffer, buffer.count))
}

do {
    try runGuest(Array(CommandLine.arguments.dropFirst()))
    exit(0)
} catch {
    print("splashhud-drm-guest: \(error)")
    exit(1)
}
