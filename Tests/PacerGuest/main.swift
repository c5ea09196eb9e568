// SPDX-License-Identifier: MIT
// splashhud-pacer-guest: the frame scheduler's CPU cost on a real fbdev driver under QEMU
// (scripts/qemu/vmtest.py runs it; Tests/QEMUTests/PacerEndToEndTests.swift checks the figures).
// Two phases of ~3 s wall time on /dev/fb0, each measured with getrusage(2): a static HUD (50 %
// progress ring, fully faded in: the loop must block with no timer until SIGALRM wakes it) and an
// animating spinner (the loop must keep presenting frames on its timer), and the spinner capped at
// 15 frames a second (every 4th or 5th refresh, its steps drawn once and copied). Figures go out as
//   INFO PACER <phase> wall <ms> cpu <ms> frames <n> missed <n> timers <n> waits <n> timing <t>
#if canImport(Glibc)
import LinuxSystem
import Glibc
#endif
import Display
import HUD
import HUDProtocol
import Raster
import Runtime
import VMGuestSupport

/// The waker's eventfd, for the SIGALRM handler (a C function pointer cannot capture).
nonisolated(unsafe) var pacerGuestWakeFD: Int32 = -1

func cpuNanoseconds() -> Int64 {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func ns(_ t: timeval) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_usec) * 1_000 }
    return ns(usage.ru_utime) + ns(usage.ru_stime)
}

func runPacerGuest(device: String) throws {
    let port = try ControlPort(consoleTag: "pacer")
    let display = try FBDevDisplay(path: device, waitsOnWorker: true)  // as the daemon opens it
    let out = display.outputs[0]
    let resources = try HUDResources.system()
    port.info("PACER display \(out.mode.width)x\(out.mode.height) interval \(display.frameIntervalNanoseconds) ns")

    func phase(_ name: String, script: String, offsetSeconds: Double, wakeAfterSeconds: UInt32?, maxFPS: Int32? = nil) throws {
        // Runtime's HUD scene on the one output; HUD time 0 is `offset` before now, where the
        // script's commands are applied.
        let offset = Int64(offsetSeconds * 1e9)
        let origin = MonotonicClock.nanoseconds() - offset
        let scene = HUDScene(outputs: display.outputs, origin: origin, theme: SceneTheme(screenColor: Color(rgb: 0x203040)), resources: resources)
        for c in try CommandParser.parseScript(script) { scene.apply(c.command, at: origin + c.time.nanoseconds) }
        // The first, full-screen frame is drawn and shown before measuring: the figures are the
        // steady state's, what a HUD left on screen costs.
        let first = scene.frame(at: MonotonicClock.nanoseconds())
        _ = try display.present(scene.pixels(output: 0), damage: first.outputs[0].damage)

        let poller = try EpollPoller()
        pacerGuestWakeFD = try wakeDescriptor(poller.waker)
        let loop = EventLoop(poller: poller, clock: MonotonicClock.nanoseconds)
        let pacer = FrameScheduler(display: display, scene: scene, clock: MonotonicClock.nanoseconds, log: { port.info("LOG \($0)") })
        pacer.maxFramesPerSecond = maxFPS
        try pacer.attach(to: loop)
        let seconds: Int64 = 3
        let wall0 = MonotonicClock.nanoseconds(), cpu0 = cpuNanoseconds()
        let end = wall0 + seconds * 1_000_000_000
        if let wake = wakeAfterSeconds { alarm(wake) }
        // 200 ms early is enough: SIGALRM's second granularity must not leave the static phase blocked.
        try loop.run(until: { MonotonicClock.nanoseconds() >= end - 200_000_000 })
        let wall1 = MonotonicClock.nanoseconds(), cpu1 = cpuNanoseconds()
        port.info("PACER \(name) wall \((wall1 - wall0) / 1_000_000) cpu \((cpu1 - cpu0) / 1_000_000) frames \(pacer.framesPresented) "
            + "missed \(pacer.missedFrames) timers \(loop.timedWaits) waits \(loop.turns) timing \(pacer.lastTiming.map { "\($0)" } ?? "-")")
    }

    signal(SIGALRM) { _ in
        let saved = errno
        var one: UInt64 = 1
        _ = write(pacerGuestWakeFD, &one, 8)
        errno = saved
    }
    // Static: a 50 % ring fully faded in (t = 2 s after the command); nothing scheduled.
    try phase("static", script: "@0 progress 0.5 \"Installing\"", offsetSeconds: 2, wakeAfterSeconds: 3)
    // Animating: the indefinite spinner, from the end of its fade-in.
    try phase("spinner", script: "@0 show \"Working\"", offsetSeconds: 2, wakeAfterSeconds: nil)
    try phase("spinner15", script: "@0 show \"Working\"", offsetSeconds: 2, wakeAfterSeconds: nil, maxFPS: 15)
    for line in display.diagnostics { port.info("DIAG \(line)") }
    try runtimePhase(display: display, resources: resources, port: port)
}

/// The same static HUD through the whole runtime (HUDRuntime: scene, loop, frame scheduler, the
/// display's hotplug hook; no console): once the fade-in is over it must block with no timer
/// until SIGALRM wakes it. `quit(retain:)` closes the display.
func runtimePhase(display: FBDevDisplay, resources: HUDResources, port: ControlPort) throws {
    let runtime = try HUDRuntime(display: display, resources: resources, console: .off)
    pacerGuestWakeFD = try wakeDescriptor(runtime.waker)
    runtime.submit("progress 0.5 \"Installing\"")
    // Until the frame to draw next is static; then one more turn draws it and blocks until a
    // SIGALRM a second later. The measured phase is the steady state, like the pacer's own
    // static phase: what a HUD left on screen costs, not its last fade-in frame.
    try runtime.run(until: { !runtime.isAnimating })
    alarm(1)
    try runtime.step()
    let before = runtime.counters
    let wall0 = MonotonicClock.nanoseconds(), cpu0 = cpuNanoseconds()
    let end = wall0 + 3_000_000_000
    alarm(3)
    try runtime.run(until: { MonotonicClock.nanoseconds() >= end - 200_000_000 })
    let wall1 = MonotonicClock.nanoseconds(), cpu1 = cpuNanoseconds()
    let after = runtime.counters
    port.info("PACER runtime-static wall \((wall1 - wall0) / 1_000_000) cpu \((cpu1 - cpu0) / 1_000_000) frames \(after.framesPresented - before.framesPresented) "
        + "missed \(after.missedFrames - before.missedFrames) timers \(after.timedWaits - before.timedWaits) waits \(after.turns - before.turns) "
        + "timing \(after.lastTiming.map { "\($0)" } ?? "-")")
    runtime.quit(retain: true)
}

/// The eventfd behind a real loop's waker, which the SIGALRM handler writes to.
func wakeDescriptor(_ waker: any LoopWaker) throws -> Int32 {
    guard let waker = waker as? EpollPoller.Waker else { throw GuestError.noWaker }
    return waker.descriptor
}

enum GuestError: Error { case noWaker }

do {
    try runPacerGuest(device: "/dev/fb0")
    exit(0)
} catch {
    print("splashhud-pacer-guest: \(error)")
    exit(1)
}
