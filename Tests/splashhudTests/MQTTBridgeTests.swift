// SPDX-License-Identifier: MIT
// splashhud-mqtt against a real Mosquitto (MosquittoBroker) and real daemons on memory displays
// (DaemonProcessTests.Running): commands and replies in MQTT 5 (response topic, correlation data)
// and 3.1.1, group commands, the retained state and status, events in order, snapshots (the
// daemon's own bytes, and scaled to the broker's packet limit), refused privileged verbs, bad
// input, the last will, a clean exit, an expired command, broker and daemon restarts, and TLS.
import Assets
import Foundation
import HUDClient
import HUDProtocol
import Testing

@Suite("splashhud-mqtt against Mosquitto", .serialized)
struct MQTTBridgeTests {
    typealias Daemon = DaemonProcessTests.Running

    /// One splashhud-mqtt process, its output in DIR/bridge-DEVICE.log.
    final class BridgeProcess: @unchecked Sendable {
        let process = Process()
        let logPath: String

        /// `device` nil: none given (the bridge takes the user name); `user`: a fleet account of
        /// `broker` rather than the operators' shared one.
        init(_ broker: MosquittoBroker, daemon: Daemon, device: String?, user: String? = nil, extra: [String] = [], url: String? = nil) throws {
            logPath = "\(daemon.dir)/bridge-\(device ?? user ?? "default").log"
            let password = user.map(MosquittoBroker.kioskPassword) ?? MosquittoBroker.password
            let passwordFile = "\(daemon.dir)/password-\(device ?? user ?? "default")"
            try "\(password)\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
            process.executableURL = URL(fileURLWithPath: try SplashBinary.path("splashhud-mqtt"))
            process.arguments = ["--broker", url ?? "mqtt://127.0.0.1:\(broker.port)"] + (device.map { ["--device", $0] } ?? [])
                + ["--socket", daemon.socket, "--username", user ?? MosquittoBroker.user, "--password-file", passwordFile,
                   "--keepalive", "5", "--config", "/dev/null"] + extra
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
            let log = FileHandle(forWritingAtPath: logPath)
            process.standardOutput = log
            process.standardError = log
            try process.run()
        }

        deinit { end() }

        var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

        /// Waits until the log has `text`.
        @discardableResult
        func waitForLog(_ text: String, count: Int = 1, seconds: Double = 10) -> Bool {
            let deadline = Date() + seconds
            while Date() < deadline {
                if log.components(separatedBy: text).count - 1 >= count { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return false
        }

        func end(signal: Int32 = SIGTERM) {
            if process.isRunning { kill(process.processIdentifier, signal) }
            process.waitUntilExit()
        }
    }

    static func startDaemon(_ size: String = "200x120") throws -> Daemon {
        try Daemon(extra: ["--display", "memory:\(size)", "--duration", "300"])
    }

    /// The daemon's state through its own socket.
    static func state(_ d: Daemon) throws -> HUDState? {
        HUDState(line: try ControlClient(socket: d.socket, timeoutMilliseconds: 5000).request("state") ?? "")
    }

    /// Waits until `condition` holds.
    static func eventually(seconds: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date() + seconds
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return try condition()
    }

    static func json(_ text: Substring) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    @Test func commandsRepliesGroupsStateEventsSnapshotsAndRefusals() throws {
        let broker = try MosquittoBroker(maxPacketSize: 6000)
        let d1 = try Self.startDaemon(), d2 = try Self.startDaemon()
        defer { d1.end(); d2.end() }
        // k1 speaks MQTT 5; k2 speaks 3.1.1 and lets `quit` through.
        let b1 = try BridgeProcess(broker, daemon: d1, device: "k1", extra: ["--group", "lobby"])
        let b2 = try BridgeProcess(broker, daemon: d2, device: "k2", extra: ["--group", "lobby", "--protocol", "3.1.1", "--allow", "quit"])
        defer { b1.end(); b2.end() }
        #expect(b1.waitForLog("online at"), "\(b1.log)")
        #expect(b2.waitForLog("online at"), "\(b2.log)")
        #expect(b1.log.contains("packets up to 6000 bytes"), "CONNACK's Maximum Packet Size: \(b1.log)")

        // MQTT 5: the reply goes to the response topic with the request's correlation data.
        let replies = try LiveSubscriber(broker, topics: ["ops/replies", "splashhud/+/reply"], format: "%t|%D|%p")
        try broker.publish(["-V", "mqttv5", "-q", "1", "-t", "splashhud/k1/cmd", "-m", "show \"Updating\"",
                            "-D", "publish", "response-topic", "ops/replies", "-D", "publish", "correlation-data", "req-17"])
        #expect(replies.waitFor(seconds: 5) { $0.contains("ops/replies|req-17|ok") }, "\(replies.lines)")
        #expect(try Self.state(d1)?.status == "Updating")
        // 3.1.1 (no response topic): the reply goes to P/DEVICE/reply; a 3.1.1 bridge replies there too.
        try broker.publish(["-V", "mqttv311", "-q", "1", "-t", "splashhud/k1/cmd", "-m", "ping"])
        try broker.publish(["-V", "mqttv5", "-q", "1", "-t", "splashhud/k2/cmd", "-m", "version", "-D", "publish", "response-topic", "ops/replies"])
        #expect(replies.waitFor(seconds: 5) { $0.contains("splashhud/k1/reply||ok pong") && $0.contains { $0.hasPrefix("splashhud/k2/reply||ok protocol 1") } },
                "\(replies.lines)")

        // A group command reaches both daemons; each bridge replies for itself.
        try broker.publish(["-q", "1", "-t", "splashhud/group/lobby/cmd", "-m", "progress 0.4 \"Group\""])
        #expect(try Self.eventually { try Self.state(d1)?.progress == 0.4 && Self.state(d2)?.progress == 0.4 })
        #expect(try Self.state(d2)?.status == "Group")

        // The retained state, read by a subscriber that comes later.
        #expect(try Self.eventually {
            let s = try broker.subscribe(["-t", "splashhud/k1/state"], count: 1)
            guard let j = Self.json(s.dropLast()) else { return false }
            return j["visible"] as? Bool == true && j["status"] as? String == "Group" && j["progress"] as? Double == 0.4
                && j["mode"] as? String == "ring" && (j["outputs"] as? [[String: Any]])?.first?["width"] as? Int == 200
        })
        #expect(try broker.subscribe(["-t", "splashhud/k2/status"], count: 1) == "online\n")

        // Events, in order.
        let events = try LiveSubscriber(broker, topics: ["splashhud/k1/event"], format: "%p")
        try broker.publish(["-q", "1", "-t", "splashhud/k1/cmd", "-m", "dismiss"])
        #expect(events.waitFor(seconds: 5) { $0.count >= 2 }, "\(events.lines)")
        try broker.publish(["-q", "1", "-t", "splashhud/k1/cmd", "-m", "show \"Again\""])
        let kinds = ["will-disappear", "did-disappear", "will-appear", "did-appear"]
        #expect(events.waitFor(seconds: 5) { $0.count >= 4 }, "\(events.lines)")
        let seen = events.lines.compactMap { Self.json($0[...])?["kind"] as? String }
        #expect(seen == kinds, "\(events.lines)")
        #expect(events.lines.last.flatMap { Self.json($0[...])?["status"] as? String } == "Again")

        // Refused and bad input get error replies; the bridge carries on.
        try broker.publish(["-q", "1", "-t", "splashhud/k1/cmd", "-m", "quit"])
        try broker.publish(["-q", "1", "-t", "splashhud/k1/cmd", "-m", "progress lots"])
        try "\u{FF}show".data(using: .isoLatin1)!.write(to: URL(fileURLWithPath: "\(d1.dir)/latin1"))
        try broker.publish(["-q", "1", "-t", "splashhud/k1/cmd", "-f", "\(d1.dir)/latin1"])
        try broker.publish(["-q", "1", "-t", "splashhud/k1/cmd", "-m", "status " + String(repeating: "x", count: 5000)])
        try broker.publish(["-q", "1", "-t", "splashhud/k1/cmd", "-m", "ping"])
        // Earlier: ping, the group's progress, dismiss and show; then these five.
        #expect(replies.waitFor(seconds: 5) { $0.filter { $0.hasPrefix("splashhud/k1/reply") }.count >= 9 }, "\(replies.lines)")
        let k1 = replies.lines.filter { $0.hasPrefix("splashhud/k1/reply||") }.map { $0.dropFirst("splashhud/k1/reply||".count) }
        #expect(k1.suffix(5).map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
                == ["error denied", "error syntax", "error bad-line", "error bad-line", "ok pong"], "\(k1)")
        #expect(d1.process.isRunning && b1.process.isRunning)

        // Snapshots: k1's fits and is the daemon's own PNG (taken once the HUD is hidden, so both
        // are of the same picture).
        _ = try ControlClient(socket: d1.socket, timeoutMilliseconds: 5000).request("dismiss 0")
        #expect(try Self.eventually { try Self.state(d1)?.visible == false })
        #expect(events.waitFor(seconds: 5) { $0.last.map { $0.contains("did-disappear") } == true }, "\(events.lines)")
        let own = try ControlClient(socket: d1.socket, timeoutMilliseconds: 5000).snapshot().png
        let (s1, png1) = try SplashBinary.runBytes("/usr/bin/mosquitto_rr", broker.auth + ["-V", "mqttv5", "-t", "splashhud/k1/snapshot/get", "-e", "ops/shot1", "-n", "-N", "-W", "5"])
        #expect(s1 == 0 && png1 == own, "\(png1.count) bytes against the daemon's \(own.count)")
        // A 3.1.1 request names no response topic: the PNG goes to P/DEVICE/snapshot.
        let shots = try LiveSubscriber(broker, topics: ["splashhud/k2/snapshot"], format: "%x", version: "mqttv311")
        try broker.publish(["-V", "mqttv311", "-q", "1", "-t", "splashhud/k2/snapshot/get", "-n"])
        #expect(shots.waitFor(seconds: 5) { !$0.isEmpty }, "\(b2.log)")
        let hex = shots.lines.first ?? ""
        let bytes = stride(from: 0, to: hex.count - 1, by: 2).compactMap { UInt8(hex.dropFirst($0).prefix(2), radix: 16) }
        #expect(try PNGDecoder.decodeRaw(bytes).width == 200)

        // k2 allows `quit`: its daemon ends.
        try broker.publish(["-q", "1", "-t", "splashhud/k2/cmd", "-m", "quit"])
        #expect(Self.eventually { !d2.process.isRunning }, "quit --allow'd did not end the daemon")
    }

    @Test func snapshotScaledToTheBrokersPacketLimitSaysSo() throws {
        let broker = try MosquittoBroker(maxPacketSize: 6000)
        let d = try Self.startDaemon("640x480")
        defer { d.end() }
        let b = try BridgeProcess(broker, daemon: d, device: "big")
        defer { b.end() }
        #expect(b.waitForLog("online at"), "\(b.log)")
        _ = try ControlClient(socket: d.socket, timeoutMilliseconds: 5000).request("progress 0.5 \"Installing 3 of 7 packages\"")
        // Once faded in, the 640x480 picture's PNG is over the broker's 6000 bytes.
        #expect(try Self.eventually { try ControlClient(socket: d.socket, timeoutMilliseconds: 5000).snapshot().png.count > broker.maxPacketSize })
        let props = try LiveSubscriber(broker, topics: ["ops/big"], format: "%P|%l")
        let (s, png) = try SplashBinary.runBytes("/usr/bin/mosquitto_rr", broker.auth + ["-V", "mqttv5", "-t", "splashhud/big/snapshot/get", "-e", "ops/big", "-n", "-N", "-W", "5"])
        #expect(s == 0 && png.count < broker.maxPacketSize && !png.isEmpty, "\(png.count) \(b.log)")
        let image = try PNGDecoder.decodeRaw(png)
        #expect(props.waitFor(seconds: 5) { !$0.isEmpty })
        let line = props.lines.first ?? ""
        #expect(line.contains("output:memory") && line.contains("original-size:640x480")
                && line.contains("size:\(image.width)x\(image.height)") && line.contains("scale:1/\(640 / image.width)"), "\(line)")
        #expect(image.width < 640 && 640 % image.width == 0 && image.height * 640 == 480 * image.width)
    }

    @Test func lastWillCleanExitExpiryAndRestartsOfBrokerAndDaemon() throws {
        let broker = try MosquittoBroker()
        var d = try Self.startDaemon()
        defer { d.end() }
        var b = try BridgeProcess(broker, daemon: d, device: "k3")
        #expect(b.waitForLog("online at"), "\(b.log)")
        let status = try LiveSubscriber(broker, topics: ["splashhud/k3/status"], format: "%p")
        #expect(status.waitFor(seconds: 5) { $0 == ["online"] }, "\(status.lines)")

        // SIGKILL: the broker publishes the retained last will.
        b.end(signal: SIGKILL)
        #expect(status.waitFor(seconds: 10) { $0.last == "offline" }, "\(status.lines)")

        // Commands published while the kiosk is away wait in its session, unless expired: the
        // stale "show" (1 s) is never applied, the fresh progress (60 s) is.
        let daemonEvents = try ControlClient(socket: d.socket, timeoutMilliseconds: 5000)
        _ = try daemonEvents.request("subscribe")
        try broker.publish(["-V", "mqttv5", "-q", "1", "-t", "splashhud/k3/cmd", "-m", "show \"Stale\"", "-D", "publish", "message-expiry-interval", "1"])
        try broker.publish(["-V", "mqttv5", "-q", "1", "-t", "splashhud/k3/cmd", "-m", "progress 0.3 \"Fresh\"", "-D", "publish", "message-expiry-interval", "60"])
        // Mosquitto counts expiry in whole seconds (dropped once its clock passes publish second + 1):
        // 2.1 s is past it wherever within a second the publish fell.
        Thread.sleep(forTimeInterval: 2.1)
        b = try BridgeProcess(broker, daemon: d, device: "k3")
        #expect(try Self.eventually { try Self.state(d)?.status == "Fresh" }, "\(b.log)")
        var statuses: [String?] = []
        while let e = try daemonEvents.nextEvent(timeoutMilliseconds: 300) { statuses.append(e.status) }
        #expect(!statuses.isEmpty && !statuses.contains("Stale"), "\(statuses)")
        #expect(status.waitFor(seconds: 5) { $0.last == "online" }, "\(status.lines)")

        // A broker restart (retained messages gone: persistence is off): the bridge reconnects
        // and publishes its status and state again.
        broker.stop()
        try broker.start()
        #expect(b.waitForLog("online at", count: 2, seconds: 15), "\(b.log)")
        let state = try broker.subscribe(["-t", "splashhud/k3/state", "-t", "splashhud/k3/status", "-v"], count: 2)
        #expect(state.contains("splashhud/k3/status online") && state.contains("\"status\":\"Fresh\""), "\(state)")

        // The daemon restarted: absent meanwhile, then its new state.
        let states = try LiveSubscriber(broker, topics: ["splashhud/k3/state"], format: "%p")
        let dir = d.dir
        d.end()
        #expect(states.waitFor(seconds: 5) { $0.contains { $0.contains("\"mode\":\"absent\"") } }, "\(states.lines)")
        d = try Daemon(extra: ["--display", "memory:200x120", "--duration", "300"], dir: dir)
        _ = try ControlClient(socket: d.socket, timeoutMilliseconds: 5000).request("show \"Back\"")
        #expect(states.waitFor(seconds: 10) { $0.last?.contains("\"status\":\"Back\"") == true }, "\(states.lines)")

        // A clean exit (SIGTERM) says offline itself, retained.
        b.end(signal: SIGTERM)
        #expect(b.process.terminationStatus == 0, "\(b.log)")
        #expect(try broker.subscribe(["-t", "splashhud/k3/status"], count: 1) == "offline\n")
    }

    @Test func tlsWithClientCertificatesAndAWrongCARefused() throws {
        let broker = try MosquittoBroker()
        let d = try Self.startDaemon()
        defer { d.end() }
        let url = "mqtts://localhost:\(broker.tlsPort)"
        let good = try BridgeProcess(broker, daemon: d, device: "tls1", extra: [
            "--ca-file", "\(broker.dir)/ca.crt", "--cert-file", "\(broker.dir)/client.crt", "--key-file", "\(broker.dir)/client.key"], url: url)
        defer { good.end() }
        #expect(good.waitForLog("online at \(url)"), "\(good.log)")
        let (s, reply) = try SplashBinary.run("/usr/bin/mosquitto_rr", broker.auth + ["-V", "mqttv5", "-t", "splashhud/tls1/cmd", "-e", "ops/tls", "-m", "ping", "-W", "5"], timeout: 10)
        #expect(s == 0 && reply == "ok pong\n", "\(reply)")
        // A CA that did not sign the broker's certificate: never online, and it says why.
        let wrong = try BridgeProcess(broker, daemon: d, device: "tls2", extra: [
            "--ca-file", "\(broker.dir)/other-ca.crt", "--cert-file", "\(broker.dir)/client.crt", "--key-file", "\(broker.dir)/client.key"], url: url)
        defer { wrong.end() }
        #expect(wrong.waitForLog("cannot connect", seconds: 10), "\(wrong.log)")
        #expect(!wrong.log.contains("online at"), "\(wrong.log)")
        #expect(try broker.subscribe(["-t", "splashhud/tls2/status"], count: 1, seconds: 1).isEmpty)
    }
}

extension SplashBinary {
    /// Runs `program` and returns its exit status and standard output as bytes (standard error apart).
    static func runBytes(_ program: String, _ arguments: [String], timeout: Double = 30) throws -> (Int32, [UInt8]) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        p.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try p.run()
        let pid = p.processIdentifier
        let killer = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        killer.cancel()
        return (p.terminationStatus, [UInt8](data))
    }
}
