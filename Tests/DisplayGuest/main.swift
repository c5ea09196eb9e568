// SPDX-License-Identifier: MIT
// splashhud-display-guest: runs inside QEMU (scripts/qemu/vmtest.py) on a real kernel fbdev driver.
// It writes a line on the VT, takes the VT with Console (cursor hidden, KD_GRAPHICS, VT_PROCESS:
// fbcon draws nothing over our frames, so the host compares whole screens) and photographs the
// console. Then, once per rotation asked for (a pass), it reads the framebuffer's memory, opens
// /dev/fb0 through FBDevDisplay, presents GuestScene's frames (damage only, as the daemon will)
// with a screendump after each, closes the display (.restore, the last pass as asked), compares
// the memory with what it read before (after a restore) and photographs the result. `--pan ROW`
// first pans the device so that the page FBDevDisplay finds on screen starts at that row. `--crc
// CARD` (vkms, which has no screendump) reads the CRTC's per-vblank CRCs instead of asking for
// shots: "CRC name HEX" for what each shot would have shown, "YOFFSET name N" after each present,
// and at the end "CRCS-SEEN" with every CRC any vblank showed (VKMSCRCs.swift). `--worker PASS`
// opens the display from that pass on as the daemon does (the pan and the vsync wait on its
// worker thread) and waits for them after each present. Facts for the host test go out as "INFO"
// lines on the control channel.
//
//   splashhud-display-guest [--rotate 0|90|180|270[,...]] [--close restore|retain] [--device /dev/fb0] [--pan ROW] [--crc CARD] [--worker PASS]
//   splashhud-display-guest --console exit|sigterm      (ConsoleGuest.swift)
#if canImport(Glibc)
import Glibc
#endif
import Display
import HUD
import Raster
import VMGuestSupport

func runGuest(_ args: [String]) throws {
    var rotations = [Rotation.r0]
    var closing = CloseBehaviour.restore
    var device = "/dev/fb0"
    var panRow: UInt32?
    /// Passes from this one on open the display as the daemon does: pan and vsync on its worker.
    var workerFrom = Int.max
    var crcCard: Int?
    var i = 0
    while i < args.count {
        let value = i + 1 < args.count ? args[i + 1] : ""
        switch args[i] {
        case "--rotate":
            rotations = try value.split(separator: ",").map { word in
                guard let degrees = Int(word), let r = Rotation(rawValue: degrees) else { throw GuestError("--rotate \(value): use 0, 90, 180 or 270") }
                return r
            }
        case "--close":
            guard let c = ["restore": CloseBehaviour.restore, "retain": .retain][value] else { throw GuestError("--close \(value): use restore or retain") }
            closing = c
        case "--device":
            device = value
        case "--worker":
            guard let pass = Int(value) else { throw GuestError("--worker \(value): use a pass number") }
            workerFrom = pass
        case "--pan":
            guard let row = UInt32(value) else { throw GuestError("--pan \(value): use a row number") }
            panRow = row
        case "--crc":
            guard let card = Int(value) else { throw GuestError("--crc \(value): use a DRM card number") }
            crcCard = card
        default:
            throw GuestError("unknown argument \(args[i])")
        }
        i += 2
    }

    // The handlers first: the VT signals SIGUSR1/SIGUSR2 once in VT_PROCESS (default: death).
    let signals = try ConsoleSignals()
    let port = try ControlPort(consoleTag: "e2e")
    // Text on the console for close(.restore) to give back.
    writeToConsole("splashhud-display-guest: this console text must come back after close(.restore)\r\n"
        + "rotations \(rotations.map { "\($0.rawValue)" }.joined(separator: ",")), close \(closing)\r\n")
    if let c = consoleCursor() { port.info("CONSOLE \(c.columns) \(c.lines) \(c.x) \(c.y)") }
    let console = try Console.open()
    defer { console.restore() }
    try console.enterGraphics(releaseSignal: signals.releaseSignal, acquireSignal: signals.acquireSignal)
    port.info("VT \(console.device) graphics")
    if let row = panRow { port.info("PAN \(try pan(device, toRow: row))") }
    let crcs = try crcCard.map { try VKMSCRCs(card: $0) }
    // A screendump, or where there is none the CRC the screen settled on.
    func shot(_ name: String) throws {
        guard let crcs else { return try port.shot(name) }
        port.info("CRC \(name) \(crcs.settled().map { String($0, radix: 16) } ?? "none")")
    }
    try shot("before")

    let resources = try HUDResources.system()
    for (n, rotation) in rotations.enumerated() {
        let pass = "r\(rotation.rawValue)"
        let bytesAtOpen = try framebufferBytes(device)
        let onWorker = n >= workerFrom
        let display = try FBDevDisplay(path: device, rotation: rotation, waitsOnWorker: onWorker)
        port.info("SAVED \(pass) \(display.savedPageByteCount) of \(display.layout.pageBytes)")
        let out = display.outputs[0]
        port.info("LAYOUT \(pass) \(out.mode.width) \(out.mode.height) \(out.format.name) pages \(display.isDoubleBuffered ? 2 : 1) frame \(out.frameWidth) \(out.frameHeight)")
        let player = try GuestScene.player(width: out.frameWidth, height: out.frameHeight, resources: resources)
        for (seconds, name) in GuestScene.instants {
            let t0 = monotonicMilliseconds()
            let damage = player.render(at: .seconds(seconds))
            let t1 = monotonicMilliseconds()
            crcs?.drain()  // what showed while rendering: the queue holds only 2 s
            var timing = try display.present(player.renderer.frame.view, damage: damage)
            if onWorker {
                // Present returned with the pan and the wait queued: the timing is the vblank's
                // once they are done.
                try display.waitForPendingFlips()
                timing = display.hasVSync == true ? .vblank(nanoseconds: 0) : .timer
            }
            let t2 = monotonicMilliseconds()
            if crcs != nil { port.info("YOFFSET \(pass)-\(name) \(try currentYOffset(device))") }
            let rects = damage.map { "\($0.x),\($0.y),\($0.width)x\($0.height)" }.joined(separator: ";")
            port.info("PRESENT \(pass) \(name) damage \(rects.isEmpty ? "-" : rects) render \(Int(t1 - t0)) ms present \(Int(t2 - t1)) ms \(timing)")
            try shot("\(pass)-\(name)")
        }
        for line in display.diagnostics { port.info("DIAG \(line)") }
        let how = n == rotations.count - 1 ? closing : .restore
        display.close(how)
        if how == .restore {
            port.info("RESTORE \(pass) \(byteComparison(bytesAtOpen, try framebufferBytes(device), rowBytes: display.layout.rowBytes))")
        }
        try shot("\(pass)-after-close")
    }
    if let crcs { port.info("CRCS-SEEN \(crcs.seenSummary)") }
    if panRow != nil { port.info("PAN back \(try pan(device, toRow: 0))") }
    console.restore()
    for line in console.diagnostics { port.info("DIAG \(line)") }
    withExtendedLifetime(signals) {}
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
