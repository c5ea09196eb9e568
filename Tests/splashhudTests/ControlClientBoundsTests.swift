// SPDX-License-Identifier: MIT
// What the client reads is bounded: a server that sends an endless line, a flood of events instead
// of a reply, or a snapshot header longer than any PNG of its picture gets a clear protocol error
// at once, never a client that grows its memory until the timeout; a real snapshot of noise (the
// largest PNG a picture makes) is still read whole.
#if canImport(Glibc)
import Glibc
#endif
import Assets
import Foundation
import HUDClient
import HUDProtocol
import LinuxSystem
import Testing

@Suite("ControlClient's bounds", .serialized)
struct ControlClientBoundsTests {
    /// A client of `server` with a long timeout (the bounds, not the timeout, must end each test)
    /// and the server's end of its connection.
    func connected(_ server: FakeControlServer) throws -> ControlClient {
        let client = try ControlClient(socket: server.address, timeoutMilliseconds: 20_000)
        try server.accept()
        return client
    }

    /// Runs `body`, returning its error and how long it took in seconds.
    func failure(_ body: () throws -> Void) -> (ControlClientError?, Double) {
        let start = MonotonicClock.nanoseconds()
        do { try body() } catch { return (error as? ControlClientError, Double(MonotonicClock.nanoseconds() - start) / 1e9) }
        return (nil, Double(MonotonicClock.nanoseconds() - start) / 1e9)
    }

    @Test func anEndlessLineFailsAtItsBound() throws {
        let server = try FakeControlServer()
        let client = try connected(server)
        // A writer that never sends a newline, until the client hangs up.
        let written = LockedCounter()
        let done = DispatchSemaphore(value: 0)
        Thread {
            let block = [UInt8](repeating: UInt8(ascii: "x"), count: 16384)
            while server.write(block) { written.add(block.count) }
            done.signal()
        }.start()
        let (error, seconds) = failure { try client.request("ping") }
        client.close()
        #expect(done.wait(timeout: .now() + 10) == .success, "the writer never saw the client go")
        guard case .protocolError(let detail)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(detail.contains("\(ControlClient.maxReplyLineBytes) bytes"), "\(detail)")
        #expect(seconds < 5, "took \(seconds) s: the timeout, not the bound, ended it")
        #expect(written.value > ControlClient.maxReplyLineBytes, "the server wrote only \(written.value) bytes")
        #expect(error?.exitStatus == 76)
    }

    @Test func subscribeExits76OnAnEndlessLineAnd0WhenTheDaemonEnds() throws {
        for endless in [true, false] {
            let server = try FakeControlServer()
            let done = DispatchSemaphore(value: 0)
            Thread {
                defer { done.signal() }
                guard (try? server.accept()) != nil else { return }
                // As the daemon does, the request is read before the reply: a hang-up before the
                // client has written it would fail its write (EPIPE), not test the reading.
                guard server.requestLine() == "subscribe" else { return }
                server.write("ok subscribed\nevent 1.000 hidden\n")
                if endless {
                    while server.write([UInt8](repeating: UInt8(ascii: "x"), count: 16384)) {}
                } else {
                    server.close()
                }
            }.start()
            let (status, output) = try SplashBinary.run(try SplashBinary.path(), ["subscribe", "--socket", server.address, "--timeout", "5000"], timeout: 20)
            #expect(done.wait(timeout: .now() + 10) == .success)
            if endless {
                #expect(status == 76 && output.contains("a line of over \(ControlClient.maxReplyLineBytes) bytes"), "\(status) \(output)")
            } else {
                #expect(status == 0 && output == "event 1.000 hidden\n", "\(status) \(output)")
            }
        }
    }

    @Test func aLineJustWithinTheBoundIsRead() throws {
        let server = try FakeControlServer()
        let client = try connected(server)
        let data = String(repeating: "y", count: ControlClient.maxReplyLineBytes - 3)
        Thread { server.write("ok \(data)\n") }.start()
        #expect(try client.request("ping") == data)
    }

    @Test func eventsInsteadOfAReplyAreBounded() throws {
        let server = try FakeControlServer()
        let client = try connected(server)
        let event = "event 1.000 hidden\n"
        try #require(HUDEvent(line: String(event.dropLast())) != nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            while server.write(String(repeating: event, count: 256)) {}
            done.signal()
        }.start()
        let (error, seconds) = failure { try client.request("ping") }
        client.close()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(error == .protocolError("over \(ControlClient.maxPendingEvents) events before a reply"))
        #expect(seconds < 5, "took \(seconds) s")
    }

    @Test func aSnapshotOverItsPNGsSizeFailsBeforeItsBytes() throws {
        let most = ControlClient.maxSnapshotBytes(width: 1024, height: 768)
        for length in [most + 1, 2_000_000_000] {
            let server = try FakeControlServer()
            let client = try connected(server)
            server.write("ok png \(length) Virtual-1 1024x768\n")  // and no PNG: the client must not wait for it
            let (error, seconds) = failure { _ = try client.snapshot() }
            #expect(error == .protocolError("a snapshot of \(length) bytes for 1024x768, over the \(most) its PNG can take"))
            #expect(seconds < 5, "took \(seconds) s")
        }
    }

    @Test(arguments: ["ok png 100 Virtual-1 16385x16", "ok png 100 Virtual-1 0x16", "ok png 100 Virtual-1 16x", "ok png -1 Virtual-1 16x16"])
    func aSnapshotHeaderOutsideTheProtocolFails(header: String) throws {
        let server = try FakeControlServer()
        let client = try connected(server)
        server.write(header + "\n")
        let (error, _) = failure { _ = try client.snapshot() }
        #expect(error == .protocolError("unexpected snapshot reply '\(header)'"))
    }

    @Test func theLargestPNGOfAPictureIsWithinItsBoundAndRead() throws {
        // Noise does not compress: the biggest PNG a picture of this size makes.
        var generator = SystemRandomNumberGenerator()
        let (width, height) = (397, 211)
        let samples = (0..<(width * height * 4)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let png = try PNGEncoder.encode(samples: samples, width: UInt32(width), height: UInt32(height), colorType: .rgba)
        #expect(png.count > width * height * 4, "the noise compressed to \(png.count) bytes")
        #expect(png.count <= ControlClient.maxSnapshotBytes(width: width, height: height))
        let server = try FakeControlServer()
        let client = try connected(server)
        Thread { server.write(Array("ok png \(png.count) Virtual-1 \(width)x\(height)\n".utf8) + png) }.start()
        let shot = try client.snapshot()
        #expect(shot.png == png && shot.output == "Virtual-1" && shot.size == "\(width)x\(height)")
    }
}

/// A count shared with a writer thread.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ n: Int) { lock.lock(); count += n; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
