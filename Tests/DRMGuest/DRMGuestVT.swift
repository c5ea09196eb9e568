// SPDX-License-Identifier: MIT
// A VT switch while DRMDisplay shows a frame, as a user's Ctrl+Alt+F2 and back would make it:
// busybox chvt 2 → the VT asks by SIGUSR1 (VT_PROCESS); Console's release callback drops DRM master
// (DRMDisplay.releaseMaster) before VT_RELDISP lets the switch happen; fbcon shows VT2, and a
// program there (a second opener of the card) can become DRM master. chvt 1 → SIGUSR2, VT_ACKACQ,
// and the callback presents the whole frame again, which takes master back and sets the mode.
// The host checks both screendumps. (fbcon would show VT2 even if we kept master: entering a
// KD_TEXT VT makes the fbdev emulation force its own mode back, FB_ACTIVATE_KD_TEXT; what
// releasing gives is that a program on VT2 can take the card.)
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
    // A program on VT2 opens the card: with no master left it becomes master at open, so
    // DRM_IOCTL_SET_MASTER (_IO('d', 0x1e), stable ABI) succeeds; had we kept it: EBUSY.
    let other = open(display.devicePath, O_RDWR | O_CLOEXEC)
    guard other >= 0 else { throw GuestError("second open of \(display.devicePath) failed") }
    let setMaster: UInt = 0x641E
    let became = ioctl(other, setMaster, 0) == 0
    port.info("VT \(label) another opener \(became ? "became master" : "refused master: \(String(cString: strerror(errno)))")")
    close(other)
    draw()  // must not draw: VT2 is in front
    try port.shot("\(label)-vt2")
    let chvt1 = try spawn(["/bin/busybox", "chvt", "1"])
    port.info("VT \(label) \(try next("the acquire")) master \(display.isMasterLost ? "lost" : "held")")
    port.info("VT \(label) chvt 1 \(waitChild(chvt1))")
    port.info("VT \(label) drawn \(presents) skipped \(skipped)")
    try display.waitForPendingFlips()
    try port.shot("\(label)-vt-back")
}
