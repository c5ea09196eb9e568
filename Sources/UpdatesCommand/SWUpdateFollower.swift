// SPDX-License-Identifier: MIT
// `splashhud-updates swupdate`: a client of SWUpdate's progress socket for as long as the program
// runs. It drains the socket as fast as SWUpdate writes (2022.12 sends to every client with a
// blocking send while holding its progress lock: a slow reader would stall the install), turns the
// frames into views and hands them to the HUD sink, which never makes it wait. SWUpdate not
// running yet, restarting or gone is waited out with back-off and said once; a connection whose
// bytes are not SWUpdate's frames is logged and made again; only a configuration that cannot
// match the socket (a release that does not speak what it speaks) ends the program.
import HUDClient
import HUDProtocol
import LinuxSystem
import SystemPackage
import UpdateSources

final class SWUpdateFollower {
    let settings: SWUpdateSettings
    let sink: HUDSink
    let notices: SWUpdateNotices
    private let idle: EventFd
    private var progress = SWUpdateProgress()
    private var said: String?

    init(settings: SWUpdateSettings, sink: HUDSink) throws(SystemError) {
        self.settings = settings; self.sink = sink
        notices = try SWUpdateNotices(settings: settings)
        idle = try EventFd()
    }

    /// Follows SWUpdate until the configuration proves wrong; the exit status then (78, EX_CONFIG).
    func run() -> Int32 {
        guard notices.start() else { Log.say("cannot start a thread"); return 71 }
        var backoff = Backoff(base: .milliseconds(100), cap: .seconds(5))
        while true {
            if let path = settings.progressSocket ?? SWUpdatePaths.find(SWUpdatePaths.progressName, release: settings.release) {
                do {
                    try follow(path) { backoff.reset() }
                    sayOnce("SWUpdate closed its progress socket \(path); waiting for it again")
                } catch .wire(let error) where error.isConfiguration {
                    Log.say("\(path): \(error)")
                    return 78
                } catch {
                    sayOnce("\(error); trying again")
                }
            } else {
                let places = SWUpdatePaths.candidates(SWUpdatePaths.progressName, release: settings.release)
                sayOnce("waiting for SWUpdate's progress socket (\(places.joined(separator: ", ")))")
            }
            _ = try? Poll.wait(idle.descriptor, for: .read, timeoutMilliseconds: Int32(clamping: backoff.next().nanoseconds / 1_000_000), subject: "back-off")
        }
    }

    enum FollowError: Error, CustomStringConvertible {
        case system(SystemError)
        case wire(SWUpdateWireError)
        var description: String {
            switch self {
            case .system(let e): return "\(e)"
            case .wire(let e): return "\(e)"
            }
        }
    }

    /// One connection's life: returns when SWUpdate closes it.
    private func follow(_ path: String, connected: () -> Void) throws(FollowError) {
        let fd: FileDescriptor
        do {
            fd = try UnixSocket.connect(to: path)
        } catch { throw .system(error) }
        defer { Files.close(fd) }
        connected()
        var wire = SWUpdateWire(release: settings.release)
        var announced = false
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n: Int?
            do {
                _ = try Poll.wait(fd, for: .read, timeoutMilliseconds: -1, subject: path)
                n = try chunk.withUnsafeMutableBytes { b in Result { () throws(SystemError) in try Files.read(fd, into: b, subject: path) } }.get()
            } catch { throw .system(error) }
            guard let n else { continue }
            if n == 0 { return }
            let frames: [SWUpdateFrame]
            do { frames = try wire.feed(chunk[..<n]) } catch { throw .wire(error) }
            if !announced, let layout = wire.layout, let api = wire.apiVersion {
                announced = true
                sayOnce("following SWUpdate at \(path): progress API \(api >> 16), \(layout.size)-byte frames")
            }
            for frame in frames {
                if let view = progress.view(for: frame, reason: { notices.failureReason(waitingUpTo: 300) }) { sink.show(view) }
            }
        }
    }

    /// Logs `text` unless it was the last thing said (a state, not news, while it lasts).
    private func sayOnce(_ text: String) {
        guard said != text else { return }
        said = text
        Log.say(text)
    }
}

extension SWUpdateWireError {
    /// The configuration cannot match this socket: trying again changes nothing.
    var isConfiguration: Bool {
        switch self {
        case .ambiguous, .contradicts: return true
        case .frame, .unknownAPI: return false
        }
    }
}
