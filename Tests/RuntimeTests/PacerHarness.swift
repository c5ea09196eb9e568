// SPDX-License-Identifier: MIT
// The frame pacer tests' harness: the old single-owner loop (draw if due, then wait) rebuilt on the
// FrameScheduler, so FramePacerTests and FramePacerOutputsTests check the scheduler's policy -
// frame boundaries, vblank pacing, missed frames, scheduled changes, hotplug, pause, master
// retries - exactly as before, wait by wait. A scripted wake-up stands for what the runtime does on
// the event loop: `.woken` is a command applied (`markDirty`), `.readable` a watched descriptor's
// callback, the display's hotplug descriptor refreshes the outputs. The loop itself is
// EventLoopTests'.
import Display
import Runtime

/// Why a `PacerSleeper.wait` returned.
enum PacerWake: Equatable {
    case deadline
    case woken
    case readable(Int32)
}

/// What the harness waits on: a fake sleeper on a fake clock.
protocol PacerSleeper: AnyObject {
    func wait(until deadline: Int64?, watching descriptors: [Int32]) throws(DisplayError) -> PacerWake
}

final class FramePacer {
    let scheduler: FrameScheduler
    let display: any Display
    let sleeper: any PacerSleeper
    private let clock: () -> Int64
    private let log: (String) -> Void
    private var hotplugFailed = false

    /// Waits that had a deadline still ahead (a timer armed), and every wait.
    private(set) var timersArmed = 0
    private(set) var waits = 0
    var onReadable: ((Int32) -> Void)?
    var watchedDescriptors: [Int32] = []

    init(display: any Display, scene: any PacedScene, sleeper: any PacerSleeper, clock: @escaping () -> Int64, log: @escaping (String) -> Void) {
        self.display = display; self.sleeper = sleeper; self.clock = clock; self.log = log
        scheduler = FrameScheduler(display: display, scene: scene, clock: clock, log: log)
    }

    var framesPresented: Int { scheduler.framesPresented }
    var missedFrames: Int { scheduler.missedFrames }
    var lastTiming: PresentTiming? { scheduler.lastTiming }
    var outputChanges: Int { scheduler.outputChanges }
    var pendingDeadline: Int64? { scheduler.pendingDeadline }
    var frameIntervalNanoseconds: Int64 { scheduler.frameIntervalNanoseconds }
    var pacing: FramePacing {
        get { scheduler.pacing }
        set { scheduler.pacing = newValue }
    }
    var frameIntervalOverride: Int64? {
        get { scheduler.frameIntervalOverride }
        set { scheduler.frameIntervalOverride = newValue }
    }
    var isPaused: Bool {
        get { scheduler.isPaused }
        set { scheduler.isPaused = newValue }
    }
    func markDirty() { scheduler.markDirty() }
    func refreshOutputs() throws { try scheduler.refreshOutputs() }

    /// Draws if a frame is due, then waits for the scheduler's next deadline or a wake-up.
    func runOnce() throws {
        try scheduler.frameIfDue(at: clock())
        waits += 1
        let wanted = scheduler.nextFrameDeadline
        let deadline = wanted.map { max($0, clock()) }
        if let wanted, wanted != .min { timersArmed += 1 }
        let hotplug = hotplugFailed ? nil : display.hotplugDescriptor
        switch try sleeper.wait(until: deadline, watching: watchedDescriptors + (hotplug.map { [$0] } ?? [])) {
        case .deadline: break
        case .woken: scheduler.markDirty()
        case .readable(let fd) where fd == hotplug:
            do { try scheduler.refreshOutputs() } catch {
                hotplugFailed = true
                log("hotplug: \(error); outputs are no longer followed")
            }
        case .readable(let fd):
            onReadable?(fd)
            scheduler.markDirty()
        }
    }
}
