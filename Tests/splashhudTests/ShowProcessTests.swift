// The real `splashhud` executable as boot scripts use it: `show` in the background on the memory
// display, `send` from other processes, and the ways it ends (QUIT, SIGTERM); and `demo` saying
// which display it used when no real screen opens.
import Board
import Display
import Foundation
import HUDProtocol
import Testing
@testable import splashhud

@Suite("splashhud show as a process", .serialized)
struct ShowProcessTests {
    /// Starts `splashhud show` on the memory display and waits until its FIFO has a reader (a
    /// non-blocking open for writing succeeds only then; the FIFO alone exists a moment earlier).
    func startShow(_ dir: String, extra: [String] = []) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try SplashBinary.path())
        p.arguments = ["show", "--display", "memory", "--size", "200x120", "--fifo", "\(dir)/fifo", "--out", "\(dir)/out",
                       "--duration", "20", "--log-level", "error"] + extra
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try p.run()
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let fd = open("\(dir)/fifo", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 { close(fd); break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return p
    }

    func send(_ dir: String, _ lines: [String]) throws -> (Int32, String) {
        try SplashBinary.run(try SplashBinary.path(), ["send", "--fifo", "\(dir)/fifo"] + lines)
    }

    @Test func sendThenQUITEndsTheSplashWithStatus0() throws {
        let dir = try temporaryDirectory("proc")
        let show = try startShow(dir)
        #expect(try send(dir, ["show \"Booting\"", "PROGRESS 30", "MSG Starting services"]).0 == 0)
        // Past the 0.15 s fade-in even on a loaded machine, so did-appear is logged before QUIT.
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try send(dir, ["QUIT"]).0 == 0)
        let start = ContinuousClock.now
        show.waitUntilExit()
        // Far below --duration 20: QUIT did not wait for it (the fade-out and the APNG take the rest).
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(show.terminationReason == .exit && show.terminationStatus == 0)
        let events = try String(contentsOfFile: "\(dir)/out/events.txt", encoding: .utf8)
        #expect(events.contains("did-appear Starting services") && events.contains("did-disappear"), "\(events)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/fifo"))
        // Nobody reads any more: send fails at once, exit 1, and says why.
        let (status, output) = try send(dir, ["QUIT"])
        #expect(status == 1 && output.contains("no FIFO at"), "\(output)")
    }

    @Test func sigtermRestoresAndDiesOfTheSignal() throws {
        let dir = try temporaryDirectory("proc")
        let show = try startShow(dir)
        #expect(try send(dir, ["show \"Spinning\""]).0 == 0)
        Thread.sleep(forTimeInterval: 0.4)
        show.terminate()  // SIGTERM
        show.waitUntilExit()
        #expect(show.terminationReason == .uncaughtSignal && show.terminationStatus == SIGTERM)
        // It cleaned up before dying: the FIFO is gone and what was shown is written.
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/fifo"))
        #expect(FileManager.default.fileExists(atPath: "\(dir)/out/shown.apng.png"))
        let events = try String(contentsOfFile: "\(dir)/out/events.txt", encoding: .utf8)
        #expect(events.contains("will-appear Spinning"))
    }

    @Test func aForcedScreenThatDoesNotOpenIsAnError() throws {
        let dir = try temporaryDirectory("proc")
        try "[device]\nbackend = drm\ncard = \(dir)/card9\n".write(toFile: "\(dir)/p.conf", atomically: true, encoding: .utf8)
        let (status, output) = try SplashBinary.run(try SplashBinary.path(),
            ["show", "--profile", "\(dir)/p.conf", "--display", "drm", "--fifo", "none", "--duration", "1", "--log-level", "critical"])
        #expect(status == 1)
        #expect(output.contains("--display drm could not be opened: drm: "), "\(output)")
    }

    @Test func demoSaysWhyNoRealScreenWasUsed() throws {
        let dir = try temporaryDirectory("proc")
        var p = BoardProfile(file: "test")
        p.card = .path("\(dir)/card9")
        p.fbdevPath = "\(dir)/fb9"
        let outcome = try DemoScreen.play(script: [], duration: 0.1, profile: p, logLevel: .critical)
        #expect(outcome.played == nil)
        #expect(outcome.notUsed.count == 2)
        #expect(outcome.notUsed.first?.hasPrefix("drm: ") == true, "\(outcome.notUsed)")
        #expect(outcome.notUsed.last?.hasPrefix("fbdev:") == true && outcome.notUsed.last?.contains("fb9") == true, "\(outcome.notUsed)")
    }
}
