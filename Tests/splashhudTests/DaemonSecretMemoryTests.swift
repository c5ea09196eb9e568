// SPDX-License-Identifier: MIT
// Where a passphrase is left in the daemon's memory once it has been answered: nowhere but the
// secrets' own pages (locked, MADV_DONTDUMP: the prompt's cache). The client pipelines a snapshot
// behind its ask-password, so the large PNG is queued right after the secret reply on the same
// connection: an output buffer that held the reply and grew for the PNG would free its old storage
// with the passphrase still in it. The real daemon runs; its memory is read through
// /proc/PID/mem, every readable mapping but the secrets' own, which needs root (the daemon is not
// dumpable while it holds a secret).
import Assets
import Foundation
import GoldenSupport
import Testing

extension DaemonProcessTests {
    /// The mappings of `pid` that may be read and, unless `secrets`, are not a secret's
    /// (MADV_DONTDUMP: `dd`), as address ranges, with their names for the failure message.
    static func readableMappings(_ pid: Int32, secrets: Bool) throws -> [(range: Range<UInt64>, name: String)] {
        // Read to its end: Foundation's String(contentsOfFile:) stops at a procfs file's first page.
        let fd = open("/proc/\(pid)/smaps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        var text: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
        while case let n = chunk.withUnsafeMutableBytes({ Glibc.read(fd, $0.baseAddress, $0.count) }), n > 0 { text += chunk[..<n] }
        let smaps = String(decoding: text, as: UTF8.self)
        var found: [(Range<UInt64>, String, readable: Bool)] = []
        var result: [(range: Range<UInt64>, name: String)] = []
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
                let bounds = first.split(separator: "-").compactMap { UInt64($0, radix: 16) }
                guard bounds.count == 2 else { continue }
                found.append((bounds[0]..<bounds[1], fields.count > 5 ? String(fields[5]) : "", fields[1].hasPrefix("r")))
            } else if fields.first == "VmFlags:", let last = found.last {
                if last.readable && (secrets || !fields.contains("dd")) && last.1 != "[vvar]" && last.1 != "[vsyscall]" {
                    result.append((last.0, last.1))
                }
            }
        }
        return result
    }

    /// Where any of `needles` occurs in `pid`'s mappings (a secret's own pages only with
    /// `secrets`), and how many bytes were read.
    static func occurrences(of needles: [[UInt8]], in pid: Int32, secrets: Bool = false) throws -> (places: [String], bytesRead: Int) {
        let mem = open("/proc/\(pid)/mem", O_RDONLY | O_CLOEXEC)
        guard mem >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(mem) }
        var places: [String] = [], total = 0
        // Not the sanitizers' shadow and reserved ranges (terabytes when the daemon is an ASan or
        // TSan build): the daemon's own heap, stacks and pages are far below 1 GiB a mapping.
        for m in try readableMappings(pid, secrets: secrets) where m.range.count <= 1 << 30 {
            var buffer = [UInt8](repeating: 0, count: Int(m.range.count))
            let n = buffer.withUnsafeMutableBytes { pread(mem, $0.baseAddress, $0.count, off_t(m.range.lowerBound)) }
            guard n > 0 else { continue }
            total += n
            buffer.withUnsafeBytes { b in
                for needle in needles {
                    needle.withUnsafeBytes { w in
                        // memchr for the first byte, memcmp for the rest (Glibc's module has no memmem).
                        let start = b.baseAddress!, end = start + n
                        var from = start
                        while end - from >= w.count, let hit = memchr(from, CInt(needle[0]), end - from).map(UnsafeRawPointer.init) {
                            if end - hit >= w.count && memcmp(hit, w.baseAddress!, w.count) == 0 {
                                places.append("\(m.name.isEmpty ? "anonymous" : m.name) at 0x\(String(m.range.lowerBound + UInt64(hit - start), radix: 16))")
                                return
                            }
                            from = hit + 1
                        }
                    }
                }
            }
        }
        return (places, total)
    }

    /// A blocking connection to the socket at `path` whose reads give up after 10 s.
    static func connectBlocking(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { p in
            for (i, b) in path.utf8.enumerated() { p[i] = b }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { close(fd); throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    @Test(.enabled(if: getuid() == 0, "reading another process's memory needs root"))
    func aPassphraseReplyLeavesNoCopyWhenASnapshotFollowsIt() throws {
        let dir = try temporaryDirectory("secret-memory")
        let tty = try PseudoTerminal()
        // A logo of noise, so the screen's PNG is far larger than the reply: the queue behind the
        // secret grows by much more than any slack an output buffer keeps.
        var noise = SystemRandomNumberGenerator()
        let samples = (0..<256 * 256 * 3).map { _ in UInt8.random(in: 0...255, using: &noise) }
        try Data(try PNGEncoder.encode(samples: samples, width: 256, height: 256, colorType: .rgb)).write(to: URL(fileURLWithPath: "\(dir)/noise.png"))
        try "[theme]\nlogo = \(dir)/noise.png\n".write(toFile: "\(dir)/board.conf", atomically: true, encoding: .utf8)
        // No --out and few log lines: recording frames and logging could take freed memory and
        // overwrite what it held, hiding a copy this test is there to find.
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: try SplashBinary.path("splashhudd"))
        daemon.arguments = ["--display", "memory:800x600", "--profile", "\(dir)/board.conf", "--socket", "\(dir)/control",
                            "--prompt-tty", tty.path, "--duration", "30", "--log-level", "warning"]
        try daemon.run()
        defer { if daemon.isRunning { daemon.terminate() }; daemon.waitUntilExit() }
        let socketPath = "\(dir)/control"
        func client(_ args: [String]) throws -> (Int32, String) {
            try SplashBinary.run(try SplashBinary.path(), args + ["--socket", socketPath])
        }
        let up = Date().addingTimeInterval(15)
        while Date() < up, (try? client(["ping"]).0) != 0 { Thread.sleep(forTimeInterval: 0.05) }
        // Long (1,560 bytes) and looked for in pieces, so that a freed buffer whose head was taken
        // again is found by the rest: every 12 bytes start with the same 8, rare in any memory.
        let marker = "Qm7vZr4L"
        let passphrase = (0..<130).map { marker + String(1000 + $0) }.joined()
        let fd = try Self.connectBlocking(socketPath)
        defer { close(fd) }
        let requests = Array("ask-password \"Disk\"\nsnapshot\n".utf8)
        #expect(requests.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == requests.count)
        // The snapshot is taken while the prompt is up and waits, answered, behind the prompt's reply.
        let end = Date().addingTimeInterval(10)
        while Date() < end, !((try? client(["state"]).1) ?? "").contains("mode prompt") { Thread.sleep(forTimeInterval: 0.05) }
        Thread.sleep(forTimeInterval: 0.3)
        tty.type(passphrase + "\r")

        var received: [UInt8] = []
        func readLine() -> String? {
            while true {
                if let nl = received.firstIndex(of: 10) {
                    let line = String(decoding: received[..<nl], as: UTF8.self)
                    received.removeSubrange(...nl)
                    return line
                }
                var chunk = [UInt8](repeating: 0, count: 65536)
                let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { return nil }
                received += chunk[..<n]
            }
        }
        #expect(readLine() == "ok \"\(passphrase)\"")
        let header = try #require(readLine())
        let words = header.split(separator: " ")
        let length = try #require(words.count >= 3 && words[0] == "ok" && words[1] == "png" ? Int(words[2]) : nil, "\(header)")
        #expect(length > 16384, "the PNG is not much larger than the reply: \(header)")
        while received.count < length {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            received += chunk[..<n]
        }
        #expect(received.count == length && received.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(received.count) of \(length) bytes")
        Thread.sleep(forTimeInterval: 0.2)

        let pid = daemon.processIdentifier
        let bytes = Array(passphrase.utf8)
        let secret = try Self.occurrences(of: [Array(marker.utf8)], in: pid)
        #expect(secret.places.isEmpty, "the passphrase is in the daemon's memory: \(secret.places)")
        // The scan sees what it looks for: the passphrase in the prompt cache's own pages, the
        // socket's path in ordinary memory.
        #expect(!(try Self.occurrences(of: [bytes], in: pid, secrets: true).places.isEmpty), "the cache's copy")
        let known = try Self.occurrences(of: [Array(socketPath.utf8)], in: pid)
        #expect(!known.places.isEmpty && secret.bytesRead > 1 << 20, "\(known.places), \(secret.bytesRead) bytes read")
    }
}
