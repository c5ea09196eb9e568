// SPDX-License-Identifier: MIT
// What `splashhudd --out DIR` writes for a memory display: every output's presented frames as
// an animated PNG with their real timing (at most `maxFPS` frames a second, so encoding does not
// starve the frame loop), its last frame as a PNG, and the HUD's event log, appended as the
// runtime hands events out at the end of each loop turn.
import Assets
import Display
import HUD
import HUDProtocol
import LinuxSystem
import Raster
import Runtime
import SystemPackage

final class ShowRecorder {
    let directory: String
    let display: any Display
    let minimumGap: Int64
    private var tracks: [String: Track] = [:]
    private var order: [String] = []
    private let eventLog: FileDescriptor
    private var eventCount = 0

    /// One output's animation: frames added once the next one (or the end) says how long it stayed.
    struct Track {
        var apng: APNGEncoder
        var pending: Pixmap?
        var pendingAt: Int64 = 0
        var seenPresents = 0
    }

    init(directory: String, display: any Display, maxFPS: Int64 = 30) throws {
        self.directory = directory
        self.display = display
        minimumGap = 1_000_000_000 / maxFPS
        try Files.makeDirectories(directory)
        eventLog = try Files.open("\(directory)/events.txt", flags: OpenFlag.writeOnly | OpenFlag.create | OpenFlag.truncate, mode: 0o644)
    }

    deinit { Files.close(eventLog) }

    /// Records `session`'s screens after every loop turn, its events as they come, and writes the
    /// files when it ends (before the display is closed). The session's runtime keeps the recorder.
    func follow(_ session: SplashSession) {
        let runtime = session.runtime
        runtime.atTurnEnd { [self, unowned runtime] in
            do { try capture(at: runtime.now) } catch { runtime.logger.error("--out: \(error)") }
        }
        runtime.addEventListener { [self, unowned runtime] events in
            do { try record(events) } catch { runtime.logger.error("--out \(directory)/events.txt: \(error)") }
        }
        session.onFinish = { [self, unowned runtime] _ in
            do {
                for line in try finish(at: runtime.now) { runtime.logger.notice("wrote \(line)") }
            } catch { runtime.logger.error("--out \(directory): \(error)") }
        }
    }

    /// Appends `events` to events.txt, one line each.
    func record(_ events: [HUDEvent]) throws {
        try Files.writeAll(eventLog, Array(events.map { $0.description + "\n" }.joined().utf8), subject: "\(directory)/events.txt")
        eventCount += events.count
    }

    /// Looks at every screen after a loop turn: a screen presented since the last capture (and not
    /// captured within the last 1/maxFPS s) is captured.
    func capture(at now: Int64, force: Bool = false) throws {
        for (index, output) in display.outputs.enumerated() {
            guard let presents = display.presentCount(output: index) else { continue }
            let name = output.name
            if tracks[name] == nil {
                tracks[name] = Track(apng: APNGEncoder(width: output.mode.width, height: output.mode.height, delay: .fps(30)))
                order.append(name)
            }
            var t = tracks[name]!
            guard presents != t.seenPresents else { continue }
            if !force && t.pending != nil && now - t.pendingAt < minimumGap { continue }
            t.seenPresents = presents
            try flush(&t, until: now)
            t.pending = display.shownPicture(output: index)
            t.pendingAt = now
            tracks[name] = t
        }
    }

    /// Adds the pending frame with the time it stayed on screen (APNG delays are ms, at most 65.5 s).
    private func flush(_ t: inout Track, until now: Int64) throws {
        guard let frame = t.pending else { return }
        let ms = UInt16(clamping: max((now - t.pendingAt) / 1_000_000, 1))
        try t.apng.addFrame(frame.view, delay: .init(numerator: ms, denominator: 1000))
        t.pending = nil
    }

    /// Writes the files; returns what was written, one line each.
    func finish(at now: Int64) throws -> [String] {
        try capture(at: now, force: true)
        var written: [String] = []
        let single = order.count == 1
        for name in order {
            var t = tracks[name]!
            let last = t.pending
            try flush(&t, until: max(now, t.pendingAt + 1_000_000_000))
            let base = single ? "\(directory)/shown" : "\(directory)/shown-\(name)"
            if t.apng.frameCount > 0 {
                try t.apng.write(to: "\(base).apng.png")
                written.append("\(base).apng.png (\(t.apng.frameCount) frames as shown, real timing)")
            }
            if let last {
                try PNGEncoder.write(last.view, to: "\(base)-last.png")
                written.append("\(base)-last.png (the last frame)")
            }
        }
        try Files.fsync(eventLog, subject: "\(directory)/events.txt")
        written.append("\(directory)/events.txt (\(eventCount) HUD events)")
        return written
    }
}
