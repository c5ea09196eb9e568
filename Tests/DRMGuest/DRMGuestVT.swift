// A VT switch while DRMDisplay shows a frame, as a user's Ctrl+Alt+F2 and back would make it:
// busybox chvt 2 → the VT asks by SIGUSR1 (VT_PROCESS); Console's release callback drops DRM master
// (DRMDisplay.releaseMaster) before VT_RELDISP lets the switch happen, so fbcon can put its own
// framebuffer back and show VT2; chvt 1 → SIGUSR2, VT_ACKACQ, and the callback presents the whole
// frame again, which takes master back and sets the mode. The host checks both screendumps.
#if canImport(Glibc)
import Glibc
#endif
import Display
import Raster
import VMGuestSupport

func switchVTAwayAndBack(display: DRMDisplay, frame: Pixmap, console: Console, signals: ConsoleSignals, port: ControlPort, label: String) throws {
    let whole = [IntRect(x: 0, y: 0, width: frame.width, height: frame.height)]
    var presents = 0, skipped = 0
    var callbackError: Error?
    func draw() {
        // The application's rule: draw only while the VT is ours.
        guard console.isForeground else { skipped += 1; return }
        do { _ = try display.present(frame.view, damage: whole); presents += 1 } catch { callbackError = error }
    }
    func next(_ what: String) throws -> Console.Outcome {
        guard let s = try signals.wait(timeoutMilliseconds: 15_000) else { throw GuestError("no signal while waiting for \(what)") }
        let outcome = try console.handle(s, onRelease: {
            do { try display.releaseMaster() } catch { callbackError = error }
        }, onAcquire: draw)
        if let e = callbackError { throw GuestError("\(what): \(e)") }
        return outcome
    }

    writeToTerminal("/dev/tty2", "\u{1B}[2J\u{1B}[HVT2: splashhud-drm-guest switched here with chvt 2\r\n")
    let chvt2 = try spawn(["/bin/busybox", "chvt", "2"])
    port.info("VT \(label) \(try next("the release")) master \(display.isMasterLost ? "dropped" : "held")")
    port.info("VT \(label) chvt 2 \(waitChild(chvt2))")
    draw()  // must not draw: VT2 is in front
    try port.shot("\(label)-vt2")
    let chvt1 = try spawn(["/bin/busybox", "chvt", "1"])
    port.info("VT \(label) \(try next("the acquire")) master \(display.isMasterLost ? "lost" : "held")")
    port.info("VT \(label) chvt 1 \(waitChild(chvt1))")
    port.info("VT \(label) drawn \(presents) skipped \(skipped)")
    try port.shot("\(label)-vt-back")
}
