// SPDX-License-Identifier: MIT
// The display handed to the program that comes after the splash (a kiosk's compositor, a Qt or
// Flutter app) and taken back: `deactivate` (ours, Plymouth's) stops drawing and gives DRM master
// up with the last frame left on the CRTC, so the next master's first frame replaces ours with no
// black between; `reactivate` takes it back. The profile's `[handover] watchdog = SECONDS` guards
// the gap: when, that long after the release, no other program's picture is on the screen (the
// app crashed, hangs, or never started), the runtime takes the display back and draws the splash
// again, so a kiosk is never left with a frozen or black screen.
import Logging

final class DisplayHandover {
    private unowned let runtime: HUDRuntime
    private var timer: LoopTimer?

    init(runtime: HUDRuntime) { self.runtime = runtime }

    private var watchdog: Double? { runtime.profile?.handoverWatchdog }

    func handOver() {
        stopWatching()
        runtime.deactivate()
        guard let seconds = watchdog else {
            return runtime.logger.info("display handed over (no watchdog: `reactivate` takes it back)")
        }
        runtime.logger.info("display handed over; taken back unless another program draws within \(seconds) s")
        timer = runtime.schedule(at: runtime.now + Int64(seconds * 1e9)) { [unowned self] in check(after: seconds) }
    }

    func takeBack() {
        stopWatching()
        runtime.reactivate()
    }

    private func stopWatching() {
        if let timer { _ = runtime.cancel(timer) }
        timer = nil
    }

    private func check(after seconds: Double) {
        timer = nil
        switch runtime.display.othersDrawn() {
        case true?:
            runtime.logger.info("handover: another program draws on the screen; it is theirs")
        case false?:
            runtime.logger.warning("handover watchdog: no other program drew within \(seconds) s of the release; taking the display back")
            runtime.reactivate()
        case nil:
            runtime.logger.info("handover watchdog: this display cannot tell who draws on it; left handed over")
        }
    }
}
