// SPDX-License-Identifier: MIT
// The console's bookkeeping without a VT: what it asks of the terminal on entering graphics mode,
// on VT switches and on every way out, through a recording ConsoleControl; the real ioctls on a
// node that is not a VT; the vt_mode marshalling; the self-pipe signals.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SystemPackage
import Testing

@testable import Display

/// Records every call as text; `failing` names calls that fail with EIO.
final class RecordingConsole: ConsoleControl {
    let device = "/dev/tty7"
    var calls: [String] = []
    var failing: Set<String> = []
    var kd: Int32 = Console.kdText
    var vt = VTMode(mode: VTMode.auto)

    private func call(_ text: String, _ name: String) throws(DisplayError) {
        calls.append(text)
        if failing.contains(name) { throw .ioctl(name, .ioError, device) }
    }

    func kdMode() throws(DisplayError) -> Int32 { try call("KDGETMODE", "KDGETMODE"); return kd }
    func setKDMode(_ mode: Int32) throws(DisplayError) { try call("KDSETMODE \(mode)", "KDSETMODE"); kd = mode }
    func vtMode() throws(DisplayError) -> VTMode { try call("VT_GETMODE", "VT_GETMODE"); return vt }
    func setVTMode(_ mode: VTMode) throws(DisplayError) {
        try call("VT_SETMODE \(mode.mode) \(mode.releaseSignal) \(mode.acquireSignal)", "VT_SETMODE")
        vt = mode
    }
    func releaseDisplay(_ value: Int32) throws(DisplayError) { try call("VT_RELDISP \(value)", "VT_RELDISP") }
    func write(_ bytes: [UInt8]) throws(DisplayError) {
        try call("write " + String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\u{1B}", with: "ESC"), "write")
    }
    func close() { calls.append("close") }
}

@Suite("Console")
struct ConsoleTests {
    let enter = ["write ESC[?25l", "KDSETMODE 1", "VT_SETMODE 1 10 12"]
    let restore = ["VT_SETMODE 0 0 0", "KDSETMODE 0", "write ESC[?25h"]

    @Test func enteringGraphicsHidesTheCursorThenAsksForSwitchesAndRestoreUndoesItOnce() throws {
        let fake = RecordingConsole()
        let console = try Console(control: fake)
        try console.enterGraphics(releaseSignal: SIGUSR1, acquireSignal: SIGUSR2)
        #expect(fake.calls == ["KDGETMODE", "VT_GETMODE"] + enter)
        #expect(fake.kd == Console.kdGraphics && fake.vt.mode == VTMode.process)
        console.restore()
        console.restore()
        #expect(fake.calls == ["KDGETMODE", "VT_GETMODE"] + enter + restore)
        #expect(fake.kd == Console.kdText && fake.vt == VTMode(mode: VTMode.auto))
        #expect(console.diagnostics.isEmpty)
    }

    @Test func restoringForARetainedSplashGivesSwitchingBackButStaysInGraphicsWithTheCursorHidden() throws {
        let fake = RecordingConsole()
        let console = try Console(control: fake)
        try console.enterGraphics(releaseSignal: SIGUSR1, acquireSignal: SIGUSR2)
        console.restore(keepingPicture: true)
        console.restore()  // already given back: nothing more
        #expect(fake.calls == ["KDGETMODE", "VT_GETMODE"] + enter + ["VT_SETMODE 0 0 0"])
        #expect(fake.kd == Console.kdGraphics && fake.vt == VTMode(mode: VTMode.auto))
    }

    @Test func releaseRunsTheCallbackBeforeAllowingTheSwitchAndAcquireAcknowledgesBeforeRedrawing() throws {
        let fake = RecordingConsole()
        let console = try Console(control: fake)
        try console.enterGraphics(releaseSignal: SIGUSR1, acquireSignal: SIGUSR2)
        fake.calls = []
        let released = try console.handle(.release, onRelease: { fake.calls.append("drop master") }, onAcquire: { fake.calls.append("redraw") })
        #expect(released == .released && !console.isForeground)
        #expect(fake.calls == ["drop master", "VT_RELDISP 1"])
        let acquired = try console.handle(.acquire, onRelease: { fake.calls.append("drop master") }, onAcquire: { fake.calls.append("redraw") })
        #expect(acquired == .acquired && console.isForeground)
        #expect(fake.calls == ["drop master", "VT_RELDISP 1", "VT_RELDISP 2", "redraw"])
    }

    @Test func terminationIsReportedAndLeavesTheRestoreToTheCallerAfterItClosesTheDisplay() throws {
        let fake = RecordingConsole()
        let console = try Console(control: fake)
        try console.enterGraphics(releaseSignal: SIGUSR1, acquireSignal: SIGUSR2)
        fake.calls = []
        let outcome = try console.handle(.terminate(SIGTERM), onRelease: {}, onAcquire: {})
        #expect(outcome == .terminate(SIGTERM))
        #expect(fake.calls.isEmpty && console.isInGraphicsMode)
        console.restore()
        #expect(fake.calls == restore)
        #expect(!console.isInGraphicsMode)
    }

    @Test func restoreTriesEveryStepWhenOneFailsAndSaysWhich() throws {
        let fake = RecordingConsole()
        let console = try Console(control: fake)
        try console.enterGraphics(releaseSignal: SIGUSR1, acquireSignal: SIGUSR2)
        fake.calls = []
        fake.failing = ["VT_SETMODE"]
        console.restore()
        #expect(fake.calls == restore)
        #expect(console.diagnostics == ["ioctl VT_SETMODE on /dev/tty7 failed: \(Errno.ioError) (errno \(Errno.ioError.rawValue)) while restoring VT_AUTO"])
    }

    @Test func aFailureHalfwayIntoGraphicsModeRestoresWhatWasChanged() throws {
        let fake = RecordingConsole()
        fake.failing = ["VT_SETMODE"]
        let console = try Console(control: fake)
        #expect(throws: DisplayError.ioctl("VT_SETMODE", .ioError, "/dev/tty7")) {
            try console.enterGraphics(releaseSignal: SIGUSR1, acquireSignal: SIGUSR2)
        }
        // KD_GRAPHICS was set: it is undone, and the cursor shown again.
        #expect(fake.kd == Console.kdText)
        #expect(Array(fake.calls.suffix(3)) == restore)
    }

    @Test func deinitRestoresAndCloses() throws {
        let fake = RecordingConsole()
        do {
            let console = try Console(control: fake)
            try console.enterGraphics(releaseSignal: SIGUSR1, acquireSignal: SIGUSR2)
        }
        #expect(fake.calls == ["KDGETMODE", "VT_GETMODE"] + enter + restore + ["close"])
    }

    @Test func aNodeThatIsNotAVTFailsWithKDGETMODEAndENOTTY() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-not-a-tty-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: DisplayError.ioctl("KDGETMODE", .inappropriateIOCTLForDevice, path)) { try Console.open(path: path) }
        let message = "\(DisplayError.ioctl("KDGETMODE", .inappropriateIOCTLForDevice, path))"
        #expect(message.contains("ioctl KDGETMODE on \(path) failed") && message.contains("right kind of device"))
    }

    @Test func vtModeMarshalsAsCharCharShortShortShort() {
        var mode = VTMode(mode: VTMode.process, releaseSignal: 10, acquireSignal: 0x0102)
        mode.forcedReleaseSignal = -2
        let b = mode.bytes
        #expect(b.count == 8 && b[0] == 1 && b[1] == 0)
        let host16 = { (v: Int16) in withUnsafeBytes(of: v) { Array($0) } }
        #expect(Array(b[2..<4]) == host16(10) && Array(b[4..<6]) == host16(0x0102) && Array(b[6..<8]) == host16(-2))
        #expect(VTMode(bytes: b) == mode)
    }
}
