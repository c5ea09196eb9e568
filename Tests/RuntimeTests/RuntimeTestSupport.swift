// SPDX-License-Identifier: MIT
// Shared by the runtime tests: a fake monotonic clock, a poller that jumps the clock to each
// deadline but first reports watched descriptors that are really readable (poll with timeout 0, so
// the memory display's hotplug eventfd is seen exactly as the real poller would see it), a log
// capture, and a reference renderer: the HUD drawn from scratch at one instant for one frame size.
#if canImport(Glibc)
import Glibc
import GoldenSupport
#endif
import Display
import HUD
import HUDProtocol
import Logging
import Raster
import Runtime
import Testing

final class FakeClock: @unchecked Sendable {
    var now: Int64
    init(_ now: Int64) { self.now = now }
}

/// A loop poller on the fake clock that first reports registered descriptors that are really
/// readable (poll(2) with timeout 0, so the memory display's hotplug eventfd and real FIFOs are
/// seen as the real poller would see them), else jumps the clock to the deadline.
final class PollingPoller: LoopPoller {
    final class Waker: LoopWaker, @unchecked Sendable {
        func wake() {}
    }

    let clock: FakeClock
    var deadlines: [Int64?] = []
    /// Times a wait had neither a deadline nor a readable descriptor (the loop would block).
    var blocked = 0
    private var watched: [Int32] = []
    init(_ clock: FakeClock) { self.clock = clock }

    var waker: any LoopWaker { Waker() }
    func add(_ descriptor: Int32, interest: LoopInterest) throws { watched.append(descriptor) }
    func modify(_ descriptor: Int32, interest: LoopInterest) throws {}
    func remove(_ descriptor: Int32) { watched.removeAll { $0 == descriptor } }

    func poll(until deadline: Int64?, into ready: inout [LoopReadiness]) throws {
        ready = try pollOnce(until: deadline)
    }

    private func pollOnce(until deadline: Int64?) throws -> [LoopReadiness] {
        deadlines.append(deadline)
        var fds = watched.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        if !fds.isEmpty, Glibc.poll(&fds, nfds_t(fds.count), 0) > 0 {
            return fds.filter { $0.revents != 0 }.map { LoopReadiness(descriptor: $0.fd, readable: true) }
        }
        guard let deadline else { blocked += 1; return [] }
        clock.now = max(clock.now, deadline)
        return []
    }
}

final class LogLines: @unchecked Sendable {
    var lines: [(level: Logger.Level, text: String)] = []
    var logger: Logger { Logger(label: "test") { _ in Capture(box: self) } }
    func contains(_ text: String, level: Logger.Level? = nil) -> Bool {
        lines.contains { $0.text.contains(text) && (level == nil || $0.level == level) }
    }

    struct Capture: LogHandler {
        let box: LogLines
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { box.lines.append((event.level, "\(event.message)")) }
    }
}

enum Fixtures {
    /// Fonts for one test. Never shared: a FontFace and its glyph cache are not thread-safe, and
    /// Swift Testing runs tests in parallel (a shared set corrupted the heap once in CI).
    static var resources: HUDResources { try! HUDResources.system() }
    static let t0: Int64 = 7_000_000_000

    /// The HUD after `script` at HUD time `t`, drawn from scratch on a `width x height` frame.
    static func reference(
        _ script: String, at t: Instant, width: Int32, height: Int32, scale: Fixed16_16 = .one,
        background: SceneBackground = .color(.black), appearance: HUDAppearance = HUDAppearance()
    ) throws -> Pixmap {
        let renderer = HUDSceneRenderer(width: width, height: height, scale: scale, background: background, resources: resources)
        let player = ScriptPlayer(script: try CommandParser.parseScript(script), renderer: renderer, appearance: appearance)
        player.render(at: t)
        return renderer.frame
    }

    /// Pixels that differ between two same-size pixmaps.
    static func differences(_ a: Pixmap, _ b: Pixmap) -> Int {
        precondition(a.width == b.width && a.height == b.height, "\(a.width)x\(a.height) vs \(b.width)x\(b.height)")
        return differingPixels(a, b)
    }

    /// The bounding box of pixels that differ from `background`.
    static func box(of p: Pixmap, background: PremultipliedColor) -> IntRect {
        var x0 = p.width, y0 = p.height, x1: Int32 = -1, y1: Int32 = -1
        for y in 0..<p.height { for x in 0..<p.width where p.view[x, y] != background {
            x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
        } }
        return x1 < 0 ? .zero : IntRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }
}
