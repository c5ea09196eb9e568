// SPDX-License-Identifier: MIT
// Whom the client talks to on the abstract fallback "@PATH", which any local user could bind
// first: a server of another user (uid 65534, a real process through setpriv) is refused before
// the client sends a byte, with an error naming its uid and exit status 69; root's is answered, as
// is one of the user that owns PATH's directory (who could have put a socket at PATH anyway). A
// socket at the path itself is left to the filesystem's permissions, whoever serves it. With the
// binaries: `splashhud` exits 69 naming the uid, and a daemon that drops root (`--user nobody`)
// still shows root on its fallback, so a client of a third uid is answered by it.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HUDClient
import PeerSupport
import Testing

@Suite("ControlClient's trust in the abstract fallback", .serialized, .enabled(if: UnprivilegedPeers.available, "needs root, setpriv and python3"))
struct ControlClientTrustTests {
    static let nobody: UInt32 = 65534

    /// A directory for one test (root's, mode 0755 unless changed), removed at the end.
    final class Scratch {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-trust-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// A server of uid 65534 listening at `address` ("@NAME" or a path): it answers each line
    /// with `ok pong` and, once the client hangs up, prints how many bytes it received.
    final class NobodyServer {
        let process = Process()
        private let output = Pipe()
        private var text = ""

        init(address: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "/usr/bin/python3", "-c", Self.script, address]
            process.standardOutput = output
            try process.run()
            _ = try #require(line(), "the server never listened")
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        /// The next line it prints, nil at its end.
        func line() -> String? {
            while !text.contains("\n") {
                let data = output.fileHandleForReading.availableData
                guard !data.isEmpty else { return nil }
                text += String(decoding: data, as: UTF8.self)
            }
            let nl = text.firstIndex(of: "\n")!
            defer { text.removeSubrange(...nl) }
            return String(text[..<nl])
        }

        static let script = #"""
import socket, sys
address = sys.argv[1]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind("\0" + address[1:] if address.startswith("@") else address)
s.listen(4)
print("listening", flush=True)
c, _ = s.accept()
c.settimeout(10)
got = b""
while True:
    data = c.recv(4096)
    if not data:
        break
    got += data
    c.sendall(b"ok pong\n" * data.count(b"\n"))
print("received", len(got), flush=True)
"""#
    }

    @Test func anotherUsersServerIsRefusedBeforeAnyByte() throws {
        let scratch = try Scratch()
        let path = scratch.path + "/missing/control"  // no directory: nobody to trust but root and us
        let server = try NobodyServer(address: "@" + path)
        #expect(throws: ControlClientError.untrustedServer(socket: "@" + path, uid: Self.nobody)) {
            try ControlClient(socket: path, timeoutMilliseconds: 5000)
        }
        // It was connected to, and got nothing before the client hung up.
        #expect(server.line() == "received 0")
        let error = ControlClientError.untrustedServer(socket: "@" + path, uid: Self.nobody)
        #expect(error.exitStatus == 69)
        #expect(error.description.contains("uid 65534"), "\(error)")
    }

    @Test func rootsServerIsAnswered() throws {
        let scratch = try Scratch()
        let path = scratch.path + "/missing/control"
        let server = try FakeControlServer(abstract: "@" + path)  // this process: root
        let client = try ControlClient(socket: path, timeoutMilliseconds: 5000)
        #expect(client.socket == "@" + path)
        try server.accept()
        server.write("ok pong\n")
        #expect(try client.request("ping") == "pong")
        client.close()
        #expect(server.received() == Array("ping\n".utf8))
    }

    @Test func theDirectoryOwnersServerIsAnswered() throws {
        let scratch = try Scratch()
        let directory = scratch.path + "/run"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        #expect(chown(directory, Self.nobody, Self.nobody) == 0)
        let server = try NobodyServer(address: "@" + directory + "/control")
        let client = try ControlClient(socket: directory + "/control", timeoutMilliseconds: 5000)
        #expect(try client.request("ping") == "pong")
        client.close()
        #expect(server.line() == "received 5")
    }

    @Test func aPathSocketIsNotChecked() throws {
        let scratch = try Scratch()
        #expect(chmod(scratch.path, 0o1777) == 0)  // root's, but anyone may put a socket there
        let server = try NobodyServer(address: scratch.path + "/control")
        let client = try ControlClient(socket: scratch.path + "/control", timeoutMilliseconds: 5000)
        #expect(client.socket == scratch.path + "/control")
        #expect(try client.request("ping") == "pong")
        client.close()
        #expect(server.line() == "received 5")
    }

    @Test func theClientExits69NamingTheUid() throws {
        let scratch = try Scratch()
        let path = scratch.path + "/missing/control"
        let server = try NobodyServer(address: "@" + path)
        let (status, output) = try SplashBinary.run(try SplashBinary.path(), ["ping", "--socket", path, "--timeout", "5000"])
        #expect(status == 69 && output.contains("refused the server at @\(path): it runs as uid 65534"), "\(status) \(output)")
        #expect(server.line() == "received 0")
    }

    @Test func aDaemonThatDroppedRootIsAnsweredOnItsFallback() throws {
        // No directory can be made in /proc: the daemon falls back to "@PATH".
        let path = "/proc/splashhud-trust-\(getpid())-\(UInt32.random(in: 0...UInt32.max))/control"
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: try SplashBinary.path("splashhudd"))
        daemon.arguments = ["--display", "memory:200x120", "--socket", path, "--socket-group", "\(Self.nobody)",
                            "--duration", "30", "--user", "nobody"]
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer { daemon.terminate(); daemon.waitUntilExit() }
        // As uid 65533 in the socket's group: neither nobody nor root, so only the daemon showing
        // root (its listener was made before it became nobody) lets the client talk to it.
        let client = ["/usr/bin/setpriv", "--reuid=65533", "--regid=\(Self.nobody)", "--clear-groups",
                      try SplashBinary.path(), "ping", "--socket", path, "--timeout", "2000"]
        var answer: (Int32, String) = (-1, "")
        for _ in 0..<150 where answer.0 != 0 {
            answer = try SplashBinary.run(client[0], Array(client.dropFirst()))
            if answer.0 != 0 { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(answer.0 == 0, "\(answer)")
    }
}
