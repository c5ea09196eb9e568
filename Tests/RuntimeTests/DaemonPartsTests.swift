// SPDX-License-Identifier: MIT
// The daemon's smaller parts on a real loop: coalescing rules, the self-moving progress, the
// boot-duration estimate across two "boots", sd_notify's READY after the first frame, and the
// announcer's lines on a console.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HUDProtocol
import LinuxSystem
import Raster
@testable import Runtime
import Testing

@Suite("Daemon parts", .serialized)
struct DaemonPartsTests {
    @Test func onlyAProgressValueReplacedByTheNextIsDropped() {
        let p = { (f: Double, s: String?) in Request.hud(.progress(fraction: Fixed16_16(f), status: s)) }
        let batch: [Request] = [p(0.1, "A"), p(0.2, "A"), p(0.3, "B"), .hud(.show(status: "B")), p(0.4, "B"), p(0, "B"), p(0.5, "B"),
                                .progressKeepingStatus(Fixed16_16(0.6)), .progressKeepingStatus(Fixed16_16(0.7)), .hud(.dismiss(delay: .zero))]
        #expect(RequestCoalescing.superseded(batch) == [true, false, false, false, false, false, false, true, false, false])
    }

    @Test func progressOverMovesOnItsOwnUntilAnotherProgressArrives() throws {
        let rig = try ControlRig()
        rig.runtime.post(.hud(.progress(fraction: Fixed16_16(0.2), status: "Flashing")))
        rig.runtime.post(.progressOver(fraction: Fixed16_16(0.5), seconds: .seconds(1)))
        try rig.run(for: 0.5)
        let middle = try #require(rig.runtime.currentProgress)
        #expect(middle > 0.3 && middle < 0.65, "half-way through the span: \(middle)")
        #expect(rig.runtime.state().status == "Flashing", "the text stays")
        try rig.run(for: 0.8)
        #expect(abs((rig.runtime.currentProgress ?? 0) - 0.7) < 0.001)
        // A new value stops a running span.
        rig.runtime.post(.progressOver(fraction: Fixed16_16(0.3), seconds: .seconds(5)))
        try rig.run(for: 0.3)
        rig.runtime.post(.hud(.progress(fraction: Fixed16_16(0.1), status: "Other")))
        try rig.run(for: 0.5)
        #expect(abs((rig.runtime.currentProgress ?? 0) - 0.1) < 0.001)
    }

    @Test func theBootEstimateLearnsOneBootAndShowsTheNext() throws {
        let dir = NSTemporaryDirectory() + "splashhud-estimate-\(UInt32.random(in: 0...UInt32.max))"
        // First boot: nothing remembered, nothing estimated; the texts' times are learnt.
        let first = try ControlRig()
        let e1 = BootEstimate(runtime: first.runtime, stateDirectory: dir, logger: first.log.logger)
        #expect(e1.previous == nil)
        first.runtime.post(.hud(.show(status: "Starting")))
        try first.run(for: 0.4)
        first.runtime.post(.hud(.status("Mounting")))
        try first.run(for: 0.4)
        #expect(first.runtime.state().mode == "spinner", "no estimate without a previous boot")
        e1.save(end: MonotonicClock.nanoseconds())
        let saved = try #require(BootEstimate.Record(text: String(contentsOfFile: "\(dir)/boot-duration", encoding: .utf8)))
        #expect(saved.marks.map(\.text) == ["Starting", "Mounting"])
        #expect(saved.seconds > 0.7 && saved.seconds < 5)
        let mounting = saved.marks[1].fraction
        #expect(mounting > 0.3 && mounting < 0.8, "\(saved.text)")
        // Second boot: the progress follows, and jumps to where "Mounting" was last time.
        let second = try ControlRig()
        let e2 = BootEstimate(runtime: second.runtime, stateDirectory: dir, logger: second.log.logger)
        #expect(e2.previous == saved)
        second.runtime.post(.hud(.show(status: "Starting")))
        try second.run(for: 0.1)
        second.runtime.post(.hud(.status("Mounting")))
        try second.run(for: 0.3)
        let shown = try #require(second.runtime.currentProgress)
        #expect(shown >= mounting - 0.01 && shown <= 0.99, "\(shown) vs \(mounting)")
        #expect(second.runtime.state().status == "Mounting", "the estimate keeps the text")
        // A client's own progress wins from then on.
        second.runtime.post(.hud(.progress(fraction: Fixed16_16(0.05), status: "Mine")))
        try second.run(for: 0.6)
        #expect(!e2.active && abs((second.runtime.currentProgress ?? 0) - 0.05) < 0.001)
        // A state directory that cannot be written is harmless.
        let e3 = BootEstimate(runtime: second.runtime, stateDirectory: "/proc/no-such-dir", logger: second.log.logger)
        e3.save(end: MonotonicClock.nanoseconds())
        #expect(second.log.contains("boot estimate: not remembered"))
        // A damaged file is not trusted.
        #expect(BootEstimate.Record(text: "total -1\n") == nil)
        #expect(BootEstimate.Record(text: "total 10\n2 \"x\"\n") == nil)
    }

    /// A datagram socket standing for systemd's $NOTIFY_SOCKET: its path and descriptor.
    func notifySocket() throws -> (path: String, fd: Int32) {
        let dir = NSTemporaryDirectory() + "splashhud-notify-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = "\(dir)/notify"
        let receiver = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(receiver, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        if bound != 0 { close(receiver) }
        try #require(bound == 0)
        return (path, receiver)
    }

    @Test func readyIsSentOnceTheFirstFrameIsOnScreen() throws {
        let (path, receiver) = try notifySocket()
        defer { close(receiver) }
        let rig = try ControlRig()
        let notifier = ServiceNotifier(socketPath: path, logger: rig.log.logger)
        notifier.sendReady(when: rig.runtime, status: "showing on memory")
        try rig.run(for: 2) { notifier.sentReady }
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = recv(receiver, &buffer, buffer.count, 0)
        let message = n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : ""
        #expect(message == "READY=1\nMAINPID=\(getpid())\nSTATUS=showing on memory", "\(message)")
        #expect(rig.runtime.frames.framesPresented > 0)
        // Only once.
        try rig.run(for: 0.1)
        #expect(recv(receiver, &buffer, buffer.count, 0) < 0)
        // No $NOTIFY_SOCKET: nothing to send, nothing fails.
        ServiceNotifier(socketPath: nil, logger: rig.log.logger).notify(["READY=1"])
    }

    /// `--ready serving`: READY=1 at once, before any frame, and only once.
    @Test func readyWhenServingComesBeforeTheFirstFrame() throws {
        let (path, receiver) = try notifySocket()
        defer { close(receiver) }
        let rig = try ControlRig()
        let notifier = ServiceNotifier(socketPath: path, logger: rig.log.logger)
        notifier.sendReady(status: "serving on memory")
        #expect(notifier.sentReady)
        #expect(rig.runtime.frames.framesPresented == 0)
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = recv(receiver, &buffer, buffer.count, 0)
        let message = n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : ""
        #expect(message == "READY=1\nMAINPID=\(getpid())\nSTATUS=serving on memory", "\(message)")
        #expect(rig.log.contains("serving; told systemd READY=1"))
        // Neither again nor once the first frame comes.
        notifier.sendReady(status: "serving on memory")
        notifier.sendReady(when: rig.runtime, status: "showing on memory")
        try rig.run(for: 0.3)
        #expect(rig.runtime.frames.framesPresented > 0)
        #expect(recv(receiver, &buffer, buffer.count, 0) < 0)
    }

    /// An announcer on `rig`'s runtime writing to a console file in the rig's directory.
    func announcing(_ rig: ControlRig) throws -> (announcer: Announcer, console: String) {
        let console = rig.dir + "/console"
        try #require(creat(console, 0o600) >= 0)
        return (Announcer(runtime: rig.runtime, consolePath: console, logger: rig.log.logger), console)
    }

    @Test func everyStatusTextIsAnnouncedInTheLogAndOnTheConsole() throws {
        let rig = try ControlRig()
        let (announcer, console) = try announcing(rig)
        rig.runtime.post(.hud(.show(status: "Booting")))
        try rig.run(for: 0.2)
        rig.runtime.post(.hud(.progress(fraction: Fixed16_16(0.5), status: "Copying")))
        try rig.run(for: 0.2)
        rig.runtime.post(.hud(.progress(fraction: Fixed16_16(0.6), status: "Copying")))  // the same text: said once
        try rig.run(for: 0.1)
        rig.runtime.post(.hud(.dismiss(delay: .zero)))
        try rig.run(for: 0.6)
        withExtendedLifetime(announcer) {}
        let written = try String(contentsOfFile: console, encoding: .utf8)
        #expect(written == "HUD: Booting\r\nHUD: Copying\r\nHUD: hidden\r\n", "\(written)")
        #expect(rig.log.contains("HUD: Booting", level: .notice) && rig.log.contains("HUD: hidden", level: .notice))
    }

    /// A client changing the status every turn: the console gets each text (it drops only when
    /// full), the log 20 in a window and then the count of the others.
    @Test func aFloodOfStatusTextsIsAnnouncedWithinTheLogsBudget() throws {
        let rig = try ControlRig()
        let (announcer, console) = try announcing(rig)
        rig.runtime.post(.hud(.show(status: "Step 0")))
        try rig.run(for: 0.05)
        for i in 1...99 {
            rig.runtime.post(.hud(.status("Step \(i)")))
            // One text a turn (each turn ends with the announcer's look).
            try rig.run(for: 5) { rig.runtime.controller.status == "Step \(i)" }
        }
        let announced = rig.log.lines.filter { $0.text.contains("HUD: Step") }.count
        #expect(announced == 20, "\(announced) status lines in the log")
        announcer.logLimiter.flush()
        #expect(rig.log.contains("… and 80 more announcements from the HUD's status"), "\(rig.log.lines.suffix(3).map(\.text))")
        let written = try String(contentsOfFile: console, encoding: .utf8)
        #expect(written.split(separator: "\r\n").count == 100, "every text on the console")
        withExtendedLifetime(announcer) {}
    }
}
