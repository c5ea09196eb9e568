// The control socket's costs, measured against a bare Unix-socket echo in the same run: the round
// trip of a request (median and p99) with the spinner animating, sustained requests a second
// (pipelined progress updates), and the daemon's peak RSS. Not a test: run it and quote it.
//   swift build -c release && .build/release/splashhud-control-bench [--requests N] [--seconds S]
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
