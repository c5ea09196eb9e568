// SPDX-License-Identifier: MIT
// The control socket's costs, measured against a bare Unix-socket echo in the same run: the round
// trip of a request (median and p99) with the spinner animating, sustained requests a second
// (pipelined progress updates), and the daemon's peak RSS. Not a test: run it and quote it.
// The release splashhudd is the one built beside it (the main package's product, built through this one):
//   swift build -c release --package-path Benchmarks --product splashhudd
//   swift build -c release --package-path Benchmarks --product splashhud-control-bench
//   Benchmarks/.build/release/splashhud-control-bench [--requests N] [--seconds S] [--flood-clients N] [--flood-seconds S]
import Foundation
import HUDClient
import LinuxSystem
import SystemPackage

let args = CommandLine.arguments
func option(_ name: String, _ fallback: Int) -> Int {
    args.firstIndex(of: name).flatMap { args.count > $0 + 1 ? Int(args[$0 + 1]) : nil } ?? fallback
}
let requests = option("--requests", 5000)
let seconds = option("--seconds", 5)
let dir = NSTemporaryDirectory() + "splashhud-control-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: dir) }

func percentile(_ samples: [Int64], _ p: Double) -> Double {
    let sorted = samples.sorted()
    return Double(sorted[min(Int(Double(sorted.count - 1) * p), sorted.count - 1)]) / 1000
}

/// Round trips of `line` through `client`, in ns (sequential: one request in flight).
func roundTrips(_ client: ControlClient, _ line: (Int) -> String, count: Int) throws -> [Int64] {
    var out: [Int64] = []
    out.reserveCapacity(count)
    for i in 0..<count {
        let t0 = MonotonicClock.nanoseconds()
        try client.request(line(i))
        out.append(MonotonicClock.nanoseconds() - t0)
    }
    return out
}

// The floor: a thread answering "ok pong" to every line on a Unix socket, nothing else.
let echoPath = "\(dir)/echo"
let listener = try UnixSocket.listen(at: echoPath)
Threads.detach {
    guard (try? Poll.wait(listener, for: .read, timeoutMilliseconds: 10_000, subject: "echo")) == true,
          let fd = try? UnixSocket.accept(listener, subject: "echo") else { return }
    var buffer = [UInt8](repeating: 0, count: 65536)
    let reply = Array("ok pong\n".utf8)
    while true {
        guard (try? Poll.wait(fd, for: .read, timeoutMilliseconds: -1, subject: "echo")) == true else { return }
        let count = (try? buffer.withUnsafeMutableBytes { try Files.read(fd, into: $0, subject: "echo") }) ?? 0
        guard count > 0 else { return }
        let lines = buffer[..<count].filter { $0 == 0x0A }.count
        for _ in 0..<lines { _ = reply.withUnsafeBytes { try? UnixSocket.send(fd, $0, subject: "echo") } }
    }
}
let echo = try ControlClient(socket: echoPath, timeoutMilliseconds: 2000)
_ = try roundTrips(echo, { _ in "ping" }, count: 200)
let floor = try roundTrips(echo, { _ in "ping" }, count: requests)

// The daemon (release build beside this one) on a memory display, its spinner animating.
let daemonPath = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("splashhudd").path
let daemon = Process()
daemon.executableURL = URL(fileURLWithPath: daemonPath)
daemon.arguments = ["--display", "memory:1280x720", "--socket", "\(dir)/control", "--log-level", "error", "--duration", "600"]
try daemon.run()
defer { daemon.terminate(); daemon.waitUntilExit() }
var client: ControlClient?
for _ in 0..<200 where client == nil {
    client = try? ControlClient(socket: "\(dir)/control", timeoutMilliseconds: 2000)
    if client == nil { usleep(50_000) }
}
guard let hud = client else { fatalError("splashhudd at \(daemonPath) did not start") }
func rssKB() -> String {
    let status = (try? String(contentsOfFile: "/proc/\(daemon.processIdentifier)/status", encoding: .utf8)) ?? ""
    return status.split(separator: "\n").first { $0.hasPrefix("VmHWM") }?.split(separator: " ").dropFirst().joined(separator: " ") ?? "?"
}
let rssStart = rssKB()
try hud.request("show \"Spinning\"")
_ = try roundTrips(hud, { _ in "ping" }, count: 200)
let pings = try roundTrips(hud, { _ in "ping" }, count: requests)
let progress = try roundTrips(hud, { "progress \(Double($0 % 1000) / 1000 + 0.0005) \"Copying\"" }, count: requests)

// Sustained: batches of 100 pipelined status changes for `seconds`, the spinner animating.
try hud.request("show \"Spinning\"")
var sent = 0
let end = MonotonicClock.nanoseconds() + Int64(seconds) * 1_000_000_000
let t0 = MonotonicClock.nanoseconds()
while MonotonicClock.nanoseconds() < end {
    let batch = (0..<100).map { "status \"Step \($0 + sent)\"" }
    _ = try hud.pipeline(batch, timeoutMilliseconds: 5000)
    sent += batch.count
}
let rate = Double(sent) / (Double(MonotonicClock.nanoseconds() - t0) / 1e9)
let state = try hud.request("state") ?? ""

func show(_ name: String, _ s: [Int64]) {
    print(name.padding(toLength: 36, withPad: " ", startingAt: 0)
          + String(format: "median %7.1f µs   p99 %7.1f µs", percentile(s, 0.5), percentile(s, 0.99)))
}
print("control socket round trips, \(requests) each (release build, memory display 1280x720; pings with the spinner animating):")
show("bare Unix-socket echo (the floor)", floor)
show("splashhudd ping", pings)
show("splashhudd progress (applied)", progress)
print(String(format: "ratio to the floor: ping %.2fx, progress %.2fx (median)", percentile(pings, 0.5) / percentile(floor, 0.5),
             percentile(progress, 0.5) / percentile(floor, 0.5)))
print(String(format: "sustained: %.0f status changes/s pipelined in batches of 100 for %d s, the spinner animating (each answered)", rate, seconds))
print("daemon peak RSS: \(rssStart) after start, \(rssKB()) at the end")
print("state at the end: \(state)")

// Flood: `floodClients` clients send progress as fast as the socket takes it (pipelined batches of
// 200) for `floodSeconds` while the spinner animates and one more client sends lifecycle commands
// (show, success, dismiss) and must get every reply, in order. A fresh daemon, so its frame count
// and peak RSS are the flood's.
let floodClients = option("--flood-clients", 8), floodSeconds = option("--flood-seconds", 10)
let flooded = Process()
flooded.executableURL = URL(fileURLWithPath: daemonPath)
flooded.arguments = ["--display", "memory:1280x720", "--socket", "\(dir)/flood", "--log-level", "info"]
guard FileManager.default.createFile(atPath: "\(dir)/flood.log", contents: nil) else { fatalError("cannot create \(dir)/flood.log") }
flooded.standardError = FileHandle(forWritingAtPath: "\(dir)/flood.log")
try flooded.run()
var lifecycle: ControlClient?
for _ in 0..<200 where lifecycle == nil {
    lifecycle = try? ControlClient(socket: "\(dir)/flood", timeoutMilliseconds: 5000)
    if lifecycle == nil { usleep(50_000) }
}
guard let life = lifecycle else { fatalError("the flood's splashhudd did not start") }
func floodRSS() -> String {
    let status = (try? String(contentsOfFile: "/proc/\(flooded.processIdentifier)/status", encoding: .utf8)) ?? ""
    return status.split(separator: "\n").first { $0.hasPrefix("VmHWM") }?.split(separator: " ").dropFirst().joined(separator: " ") ?? "?"
}
try life.request("show \"Spinning\"")
usleep(500_000)
let floodRSSBefore = floodRSS()
final class Counter: @unchecked Sendable { let lock = Lock(); var sent = 0; var failures: [String] = []; var running = 0; var lifecycleDone = false }
let counter = Counter()
let floodEnd = MonotonicClock.nanoseconds() + Int64(floodSeconds) * 1_000_000_000
for i in 0..<floodClients {
    counter.lock.withLock { counter.running += 1 }
    Threads.detach {
        defer { counter.lock.withLock { counter.running -= 1 } }
        guard let c = try? ControlClient(socket: "\(dir)/flood", timeoutMilliseconds: 10_000) else {
            counter.lock.withLock { counter.failures.append("flooder \(i) could not connect") }; return
        }
        var n = 0
        // Until the lifecycle client is done too: the last values must come after its last command.
        while MonotonicClock.nanoseconds() < floodEnd || !counter.lock.withLock({ counter.lifecycleDone }) {
            let batch = (0..<200).map { "progress \(Double(($0 + n) % 997) / 1000) \"flood \(i)\"" }
            guard (try? c.pipeline(batch)) != nil else { counter.lock.withLock { counter.failures.append("flooder \(i) lost its replies") }; return }
            n += batch.count
        }
        // Each flooder's last value and text, so the one shown at the end must be some flooder's last.
        _ = try? c.request("progress \(Double(50 + i) / 100) \"last \(i)\"")
        counter.lock.withLock { counter.sent += n + 1 }
    }
}
var rounds = 0, lifecycleOK = true
while MonotonicClock.nanoseconds() < floodEnd {
    let replies = try life.pipeline(["show \"Round \(rounds)\"", "success \"Done \(rounds)\"", "dismiss", "status \"after \(rounds)\""])
    for r in replies { if case .failure = r { lifecycleOK = false } }
    rounds += 1
    usleep(20_000)
}
counter.lock.withLock { counter.lifecycleDone = true }
while counter.lock.withLock({ counter.running }) > 0 { usleep(10_000) }
let floodState = try life.request("state") ?? ""
let floodRSSAfter = floodRSS()
try life.request("quit")
flooded.waitUntilExit()
let floodLog = (try? String(contentsOfFile: "\(dir)/flood.log", encoding: .utf8)) ?? ""
let ended = floodLog.split(separator: "\n").last { $0.contains("frames presented") } ?? "no end line"
let lastShown = (0..<floodClients).contains { floodState.contains("status \"last \($0)\"") && floodState.contains("progress \(Double(50 + $0) / 100)") }
print("flood: \(floodClients) clients sent \(counter.sent) progress updates in \(floodSeconds) s (\(counter.sent / max(floodSeconds, 1))/s) "
      + "while \(rounds) lifecycle rounds (show, success, dismiss, status) each got their 4 replies in order: \(lifecycleOK ? "yes" : "NO")")
print("flood: daemon peak RSS \(floodRSSBefore) before, \(floodRSSAfter) after; \(ended.split(separator: "ended: ").last ?? "")")
print("flood: the end shows a flooder's last value and text: \(lastShown ? "yes" : "NO") (\(floodState))")
if !counter.failures.isEmpty { print("flood failures: \(counter.failures)") }
