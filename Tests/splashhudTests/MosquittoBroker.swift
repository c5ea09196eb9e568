// SPDX-License-Identifier: MIT
// A real Mosquitto broker for the bridge's tests (Debian's `mosquitto`, scripts/setup.sh --tests):
// started on free loopback ports with a configuration written into a fresh directory — a plain
// listener and a TLS one (a CA, the broker's and a client's certificates made here with openssl),
// a password file, a packet-size limit — and the operator's side through mosquitto_pub,
// mosquitto_sub and mosquitto_rr.
import Foundation
import Testing

final class MosquittoBroker: @unchecked Sendable {
    let dir: String
    let port: Int
    let tlsPort: Int
    let maxPacketSize: Int
    private var process: Process?
    static let user = "fleet", password = "s3cret"

    /// `start: false` leaves it stopped (its ports chosen, its files written) until `start()`.
    /// `accounts`: more users, each with the password `kioskPassword(name)`; `acl`: an ACL file's text.
    init(maxPacketSize: Int = 6000, start: Bool = true, accounts: [String] = [], acl: String? = nil) throws {
        dir = try temporaryDirectory("mqtt")
        port = try freePort()
        tlsPort = try freePort()
        self.maxPacketSize = maxPacketSize
        try makeCertificates()
        // Written in plain text and hashed in place at once (-U), as an operator loads a fleet.
        let users = ["\(Self.user):\(Self.password)"] + accounts.map { "\($0):\(Self.kioskPassword($0))" }
        try (users.joined(separator: "\n") + "\n").write(toFile: "\(dir)/passwd", atomically: true, encoding: .utf8)
        let (s, o) = try SplashBinary.run("/usr/bin/mosquitto_passwd", ["-U", "\(dir)/passwd"], timeout: 60)
        #expect(s == 0, "mosquitto_passwd: \(o)")
        if let acl { try acl.write(toFile: "\(dir)/acl", atomically: true, encoding: .utf8) }
        let config = """
            per_listener_settings false
            allow_anonymous false
            password_file \(dir)/passwd
            \(acl == nil ? "" : "acl_file \(dir)/acl")
            persistence false
            set_tcp_nodelay true
            max_packet_size \(maxPacketSize)
            user root
            listener \(port) 127.0.0.1
            listener \(tlsPort) 127.0.0.1
            cafile \(dir)/ca.crt
            certfile \(dir)/server.crt
            keyfile \(dir)/server.key
            require_certificate true

            """
        try config.write(toFile: "\(dir)/mosquitto.conf", atomically: true, encoding: .utf8)
        if start { try self.start() }
    }

    /// Its files (a CA's and a server's private keys among them) go with it.
    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Starts the broker and waits until its plain port accepts a connection.
    func start() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        p.arguments = ["-c", "\(dir)/mosquitto.conf"]
        if !FileManager.default.fileExists(atPath: "\(dir)/broker.log") { _ = FileManager.default.createFile(atPath: "\(dir)/broker.log", contents: nil) }
        let output = FileHandle(forWritingAtPath: "\(dir)/broker.log")
        output?.seekToEndOfFile()
        p.standardOutput = output
        p.standardError = output
        try p.run()
        process = p
        let deadline = Date() + 10
        while Date() < deadline {
            if canConnect(port) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("mosquitto did not listen on \(port): \(log(of: "broker.log"))")
    }

    /// SIGKILL: children of the test runner start with SIGTERM blocked, and the broker keeps
    /// nothing (persistence false) that a clean end would save.
    func stop() {
        guard let p = process else { return }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        process = nil
    }

    /// A fleet account's password (the tests' own rule).
    static func kioskPassword(_ user: String) -> String { "pw-" + user }

    func log(of name: String) -> String { (try? String(contentsOfFile: "\(dir)/\(name)", encoding: .utf8)) ?? "" }

    /// The arguments every operator tool needs.
    var auth: [String] { ["-h", "127.0.0.1", "-p", "\(port)", "-u", Self.user, "-P", Self.password] }

    /// `mosquitto_pub` with `args`; its exit status must be 0.
    func publish(_ args: [String]) throws {
        let (s, o) = try SplashBinary.run("/usr/bin/mosquitto_pub", auth + args, timeout: 20)
        #expect(s == 0, "mosquitto_pub \(args): \(o)")
    }

    /// `mosquitto_sub` for `count` messages (or `seconds`): its output.
    func subscribe(_ args: [String], count: Int, seconds: Int = 5) throws -> String {
        try SplashBinary.run("/usr/bin/mosquitto_sub", auth + ["-C", "\(count)", "-W", "\(seconds)"] + args, timeout: Double(seconds + 5)).1
    }

    /// A CA, the broker's certificate for `localhost` and a client's, signed by it (and a second
    /// CA that signed neither, for the refused handshake).
    private func makeCertificates() throws {
        let script = """
            set -e
            cd '\(dir)'
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=test-ca -keyout ca.key -out ca.crt
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=other-ca -keyout other-ca.key -out other-ca.crt
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=localhost -keyout server.key -out server.csr
            printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > san.ext
            openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile san.ext -out server.crt
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=kiosk -keyout client.key -out client.csr
            openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -out client.crt
            """
        let (s, o) = try SplashBinary.run("/bin/sh", ["-c", script], timeout: 60)
        #expect(s == 0, "openssl: \(o)")
    }
}

/// A port nothing listens on now (bound and released; the kernel does not hand it out again at once).
func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) { p in
        p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard ok else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Whether something accepts TCP connections on 127.0.0.1:`port`.
func canConnect(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) { p in
        p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}

/// A `mosquitto_sub` running in the background whose lines the test waits on.
final class LiveSubscriber: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var buffer = Data()

    /// Subscribes to `topics` with `format` (mosquitto_sub -F); returns once it is subscribed
    /// (a retained marker published first has come back).
    init(_ broker: MosquittoBroker, topics: [String], format: String = "%t %p", version: String = "mqttv5") throws {
        let marker = "test/ready/\(UInt32.random(in: 0...UInt32.max))"
        try broker.publish(["-t", marker, "-r", "-m", "ready"])
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        // Each line starts with its topic and a tab, so the marker is found whatever `format` is.
        process.arguments = broker.auth + ["-V", version, "-F", "%t\t" + format, "-t", marker] + topics.flatMap { ["-t", $0] }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            guard let self else { return }
            self.lock.lock(); self.buffer.append(d); self.lock.unlock()
        }
        try process.run()
        #expect(waitForRaw(seconds: 5) { $0.contains { $0.hasPrefix(marker + "\t") } }, "mosquitto_sub did not subscribe: \(lines)")
        try broker.publish(["-t", marker, "-r", "-n"])
    }

    deinit { end() }

    func end() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }

    /// The messages so far in `format`, without the marker.
    var lines: [String] {
        raw.filter { !$0.hasPrefix("test/ready/") }.map { String($0.drop { $0 != "\t" }.dropFirst()) }
    }

    /// Waits until `condition` holds for `lines`; false after `seconds`.
    func waitFor(seconds: Double, _ condition: ([String]) -> Bool) -> Bool {
        waitForRaw(seconds: seconds) { _ in condition(lines) }
    }

    private func waitForRaw(seconds: Double, _ condition: ([String]) -> Bool) -> Bool {
        let deadline = Date() + seconds
        while Date() < deadline {
            if condition(raw) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition(raw)
    }

    /// Every line as mosquitto_sub printed it (topic, tab, the format's fields), ended lines only:
    /// a long one (a snapshot's PNG in hex) reaches the pipe in several writes, and a test that took
    /// its first part failed under ThreadSanitizer with a truncated PNG.
    private var raw: [String] {
        lock.lock(); defer { lock.unlock() }
        guard let end = buffer.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        return String(decoding: buffer[..<end], as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
