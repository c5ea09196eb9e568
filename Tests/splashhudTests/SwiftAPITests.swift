// SPDX-License-Identifier: MIT
// The Swift API: the example program (docs/swift.md, the DocC article) run against a HUD it owns (LocalHUD on a memory
// display) and against a running splashhudd (RemoteHUD), and LocalHUD's answers directly.
import Foundation
import HUDClient
import HUDProtocol
import SplashHUDKit
import Testing

@Suite("The Swift API", .serialized)
struct SwiftAPITests {
    static func checkExampleOutput(_ output: String) {
        for line in ["event", "will-appear \"Preparing\"", "will-disappear \"Installed\"", "button \"Cancel\"", "cancel pressed",
                     "state: visible no mode hidden"] {
            #expect(output.contains(line), "missing \(line) in:\n\(output)")
        }
        #expect(!output.contains("error:"), "\(output)")
    }

    @Test func theExampleDrivesALocalHUD() throws {
        let (status, output) = try SplashBinary.run(try SplashBinary.path("splashhud-example"), ["--local"])
        #expect(status == 0, "\(output)")
        Self.checkExampleOutput(output)
    }

    @Test func theExampleDrivesTheDaemon() throws {
        let dir = try temporaryDirectory("api")
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: try SplashBinary.path("splashhudd"))
        daemon.arguments = ["--display", "memory:320x200", "--socket", "\(dir)/control", "--duration", "30", "--log-level", "error"]
        try daemon.run()
        defer { daemon.terminate(); daemon.waitUntilExit() }
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline, (try? SplashBinary.run(try SplashBinary.path(), ["ping", "--socket", "\(dir)/control"]).0) != 0 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let (status, output) = try SplashBinary.run(try SplashBinary.path("splashhud-example"), ["--socket", "\(dir)/control"])
        #expect(status == 0, "\(output)")
        Self.checkExampleOutput(output)
    }

    @Test func aLocalHUDAnswersEveryRequest() async throws {
        let hud = try LocalHUD(display: .memory(width: 160, height: 120))
        defer { hud.quit() }
        try await hud.send(.hud(.show(status: "Working")))
        await #expect(throws: ControlClientError.self) { try await hud.send(.hud(.image(.custom(path: "/nonexistent.png"), status: nil))) }
        await #expect(throws: ControlClientError.self) { try await hud.send(.pressButton) }
        // Requests posted from many threads all arrive, each answered once.
        let answered = Counter()
        await withTaskGroup(of: Void.self) { group in
            for t in 0..<4 {
                group.addTask {
                    for i in 1...50 { try? await hud.send(.hud(.progress(fraction: .init(Double(i) / 50), status: "thread \(t)"))); answered.add() }
                }
            }
        }
        #expect(answered.value == 200)
        try await Task.sleep(nanoseconds: 50_000_000)
        let state = try hud.state()
        #expect(state.visible && state.mode == "ring" && state.progress == 1, "\(state.line)")
        try await hud.send(.hud(.dismiss(delay: .zero)))
        await hud.waitUntilHidden()
        #expect(try hud.state().mode == "hidden")
    }

    /// MB's `showAnimated:NO` and `hideAnimated:NO afterDelay:`: did-appear with will-appear,
    /// and the delayed hide at once, though `animated` is on again by then.
    @Test func aProgressHUDShowsAndHidesWithoutAnimation() async throws {
        let hud = try LocalHUD(display: .memory(width: 160, height: 120))
        defer { hud.quit() }
        let events = hud.events()
        let box = ProgressHUD(connection: hud)
        box.mode = .bar
        box.progress = 0.5
        box.label = "Flashing"
        box.show(animated: false)
        box.hide(animated: false, afterDelay: 0.2)
        var seen: [HUDEvent] = []
        for await e in events {
            seen.append(e)
            if e.kind == .hidden { break }
        }
        let kinds = seen.map(\.kind)
        #expect(kinds == [.willAppear, .didAppear, .willDisappear, .didDisappear, .hidden], "\(seen)")
        #expect(seen.count == 5 && seen[0].time == seen[1].time && seen[2].time == seen[4].time, "\(seen)")
        #expect(seen.count == 5 && seen[2].time - seen[0].time >= .milliseconds(200), "\(seen)")
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func add() { lock.lock(); n += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return n }
    }
}
