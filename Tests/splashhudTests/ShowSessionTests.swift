// SPDX-License-Identifier: MIT
// splashhudd's session on the memory display with a real FIFO: lines written before the loop
// runs are read from the pipe, drawn, and QUIT ends the run after the fade-out; `quit --retain`
// keeps the frame; --duration and a timed script; `splashhud send` with nobody reading.
import Display
import Foundation
import HUD
import HUDClient
import HUDProtocol
import Logging
import Raster
import Runtime
import Testing
import CommandLineOptions
@testable import ClientCommand
@testable import splashhudd

@Suite("The splash session and send --fifo", .serialized)
struct ShowSessionTests {
    func session(_ display: MemoryDisplay, dir: String, script: [TimedCommand] = [], duration: Double? = nil,
                 retain: Bool = false, record: Bool = false) throws -> SplashSession {
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let runtime = try HUDRuntime(display: display, console: .off, logger: logger)
        let session = try SplashSession(runtime: runtime, script: script, duration: duration, fifoPath: "\(dir)/fifo", fifoMode: 0o600,
                                        retain: retain, catchSignals: false, logger: logger)
        if record { try ShowRecorder(directory: "\(dir)/out", display: display).follow(session) }
        return session
    }

    /// Pixels of the screen that are not the black background.
    func litPixels(_ p: Pixmap) -> Int {
        var n = 0
        for y in 0..<p.height { for x in 0..<p.width where p.view.row(y)[Int(x)] & 0x00FF_FFFF != 0 { n += 1 } }
        return n
    }

    @Test func fifoLinesAreShownAndQUITEndsAfterTheFadeOut() throws {
        let dir = try temporaryDirectory("show")
        let display = MemoryDisplay(width: 240, height: 160)
        let s = try session(display, dir: dir, duration: 30, record: true)
        // Written before the loop runs: the pipe holds them.
        try CommandFIFOSender.send(["show \"Hello\"", "PROGRESS 40", "MSG Installing", "no-such-verb"], to: "\(dir)/fifo")
        // QUIT from another process's point of view: a writer 1.5 s later, while the loop runs
        // (well past the 0.15 s fade-in even on a loaded machine, so did-appear comes first).
        let path = "\(dir)/fifo"
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 1.5)
            try? CommandFIFOSender.send(["QUIT"], to: path)
        }
        var kinds: [String] = []
        s.runtime.addEventListener { kinds += $0.map(\.kind.rawValue) }
        let started = ContinuousClock.now
        let end = try s.run()
        #expect(end.reason == "QUIT (after the fade-out)")
        #expect(end.signal == nil && !end.retain)
        #expect(ContinuousClock.now - started < .seconds(15), "QUIT must not wait for --duration (30 s)")
        #expect(s.refusedLines == 1)
        #expect(s.runtime.controller.events.isEmpty, "handed out every turn, none kept")
        #expect(kinds == ["will-appear", "did-appear", "will-disappear", "did-disappear"], "\(kinds)")
        #expect(display.closedAs == .restore)
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/fifo"), "the FIFO we made is removed")
        // What was shown: the APNG holds the HUD's frames; the last one is the empty screen again.
        let apng = try #require(FileManager.default.contents(atPath: "\(dir)/out/shown.apng.png"))
        #expect(apng.count > 1000)
        let events = try String(contentsOfFile: "\(dir)/out/events.txt", encoding: .utf8)
        #expect(events.contains("did-appear Installing"))
        #expect(litPixels(display.shown()) == 0, "faded out: nothing left on the screen")
    }

    @Test func quitRetainKeepsTheFrameOnScreen() throws {
        let dir = try temporaryDirectory("show")
        let display = MemoryDisplay(width: 240, height: 160)
        let s = try session(display, dir: dir, script: [TimedCommand(time: .zero, command: .progress(fraction: Fixed16_16(0.5), status: "Half"), line: 1)],
                            duration: 10)
        try CommandFIFOSender.send(["quit --retain"], to: "\(dir)/fifo")
        let end = try s.run()
        #expect(end.retain && end.reason == "quit --retain")
        #expect(display.closedAs == .retain)
        #expect(s.runtime.controller.isVisible, "quit ends at once, without dismissing")
    }

    @Test func durationAndScriptTiming() throws {
        let dir = try temporaryDirectory("show")
        let display = MemoryDisplay(width: 240, height: 160)
        let script = try CommandParser.parseScript("@0 show \"A\"\n@0.3 status \"B\"\n")
        // Real time (the session's clock is CLOCK_MONOTONIC): a full second leaves the 0.15 s
        // fade-in room to finish on a loaded machine; only the lower bound is exact.
        let s = try session(display, dir: dir, script: script, duration: 1.0, retain: true)
        let started = ContinuousClock.now
        let end = try s.run()
        let took = ContinuousClock.now - started
        #expect(end.reason == "--duration reached")
        #expect(took >= .milliseconds(950) && took < .seconds(10), "\(took)")
        let statuses = s.runtime.controller.presentation().status
        #expect(statuses == "B", "the @0.3 command ran")
        #expect(display.closedAs == .retain)
        #expect(litPixels(display.shown()) > 500, "the HUD is on the retained screen")
    }

    @Test func sendWithNobodyReadingFailsAtOnceWithExitStatus1() throws {
        let dir = try temporaryDirectory("show")
        let fifo = "\(dir)/f"
        #expect(mkfifo(fifo, 0o600) == 0)
        let (status, output) = try SplashBinary.run(try SplashBinary.path(), ["send", "--fifo", fifo, "QUIT"])
        #expect(status == 1 && output.contains("ENXIO"), "\(output)")
        #expect(throws: UsageError.self) { _ = try SplashHUDClient.parse(["send", "--fifo", fifo, "progress lots"]) }
    }
}
