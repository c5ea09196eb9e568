// SPDX-License-Identifier: MIT
// `--console exit|sigterm`: the console end to end. The parent photographs the console, runs the
// HUD in a child (`--console-child`) and photographs the console again once the child is gone, so
// the last shot shows what the child left behind on its way out. The child takes the VT into
// graphics mode (Console), presents one HUD frame (FBDevDisplay) and then
//   exit:    switches to VT2 and back with busybox chvt (release: stop drawing, VT_RELDISP 1;
//            acquire: VT_ACKACQ, redraw), then returns normally;
//   sigterm: sends itself SIGTERM, handled on the main path (ConsoleSignals): restore, die of it.
// The display is closed with .retain, so only the console's KD_TEXT can bring the text back.
#if canImport(Glibc)
import Glibc
#endif
import Display
import HUD
import HUDProtocol
import Raster
import VMGuestSupport

/// The instant of GuestScene the console test shows (progress ring and text).
let consoleInstant = 2.6

func runConsoleParent(_ mode: String) throws {
    guard mode == "exit" || mode == "sigterm" else { throw GuestError("--console \(mode): use exit or sigterm") }
    let port = try ControlPort(consoleTag: "e2e")
    writeToConsole("splashhud-display-guest --console \(mode): this text must come back when the HUD is gone\r\n")
    if let c = consoleCursor() { port.info("CONSOLE \(c.columns) \(c.lines) \(c.x) \(c.y)") }
    try port.shot("before")
    let status = try spawnAndWait(["/proc/self/exe", "--console-child", mode])
    port.info("CHILD \(status)")
    try port.shot("after")
}

func runConsoleChild(_ mode: String) throws {
    // First: the handlers, before the VT can send SIGUSR1 (its default action kills).
    let signals = try ConsoleSignals()
    let port = try ControlPort(consoleTag: "e2e")
    let console = try Console.open()
    defer { console.restore() }  // the error way out
    port.info("VT \(console.device) kd \(console.initialKDMode) vtmode \(console.initialVTMode.mode)")
    let display = try FBDevDisplay(path: "/dev/fb0")
    try console.enterGraphics(releaseSignal: signals.releaseSignal, acquireSignal: signals.acquireSignal)

    let out = display.outputs[0]
    let player = try GuestScene.player(width: out.frameWidth, height: out.frameHeight, resources: try HUDResources.system())
    _ = player.render(at: .seconds(consoleInstant))
    let whole = [IntRect(x: 0, y: 0, width: out.frameWidth, height: out.frameHeight)]
    var presents = 0, skipped = 0
    func draw() throws {
        // The application's rule: draw only while the VT is ours.
        guard console.isForeground else { skipped += 1; return }
        _ = try display.present(player.renderer.frame.view, damage: whole)
        presents += 1
    }
    try draw()
    try port.shot("hud")

    /// Waits for the next console signal and handles it; a termination restores and dies.
    func next(_ what: String) throws -> Console.Outcome {
        guard let s = try signals.wait(timeoutMilliseconds: 15_000) else { throw GuestError("no signal while waiting for \(what)") }
        var drawError: Error?
        let outcome = try console.handle(s, onRelease: { port.info("RELEASE: stop drawing") }, onAcquire: {
            do { try draw() } catch { drawError = error }
        })
        if let drawError { throw drawError }
        if case .terminate(let number) = outcome {
            display.close(.retain)
            console.restore()
            port.info("TERMINATE \(number): console restored")
            for line in console.diagnostics { port.info("DIAG \(line)") }
            ConsoleSignals.die(of: number)
        }
        return outcome
    }

    switch mode {
    case "exit":
        writeToTerminal("/dev/tty2", "\u{1B}[2J\u{1B}[HVT2: splashhud-display-guest switched here with chvt 2\r\n")
        let chvt2 = try spawn(["/bin/busybox", "chvt", "2"])
        let released = try next("the release")
        port.info("OUTCOME \(released)")
        _ = waitChild(chvt2)
        try draw()  // must not draw: VT2 is in front
        try port.shot("vt2")
        let chvt1 = try spawn(["/bin/busybox", "chvt", "1"])
        let acquired = try next("the acquire")
        port.info("OUTCOME \(acquired)")
        _ = waitChild(chvt1)
        try port.shot("hud-again")
        port.info("DRAWN \(presents) skipped \(skipped)")
        display.close(.retain)
        console.restore()
        for line in console.diagnostics { port.info("DIAG \(line)") }
    default:
        kill(getpid(), SIGTERM)
        _ = try next("SIGTERM")
        throw GuestError("SIGTERM did not end the program")
    }
}
