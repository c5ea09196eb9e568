// SPDX-License-Identifier: MIT
// `splashhud-updates swupdate`: a client of SWUpdate's progress socket for as long as the program
// runs. It drains the socket as fast as SWUpdate writes (2022.12 sends to every client with a
// blocking send while holding its progress lock: a slow reader would stall the install), turns the
// frames into views and hands them to the HUD sink, which never makes it wait. SWUpdate not
// running yet, restarting or gone is waited out with back-off and said once; a connection whose
// bytes are not SWUpdate's frames is logged and made again; only a configuration that cannot
// match the socket (a release that does not speak what it speaks) ends the program.
import LinuxSystem
import UpdateSources

final class SWUpdateFollower {
    let settings: SWUpdateSettings
    let sink: HUDSink
    let notices: SWUpdateNotices
    private var progress = SWUpdateProgress()
    private var retrying: Retrying

    init(settings: SWUpdateSettings, sink: HUDSink) throws(SystemError) {
        self.settings = settings; self.sink = sink
        notices = try SWUpdateNotices(settings: settings)
        retrying = try Retrying()
    }

    /// Follows SWUpdate until the configuration proves wrong; the exit status then (78, EX_CONFIG).
    func run() -> Int32 {
        guard notices.start() else { Log.say("cannot start a thread"); return 71 }
        while true {
            if let path = settings.progressSocket ?? SWUpdatePaths.find(SWUpdatePaths.progressName, release: settings.release) {
                do {
                    try follow(path)
                    retrying.say("SWUpdate closed its progress socket \(path); waiting for it again")
                } catch .wire(let error) where error.isConfiguration {
                    Log.say("\(path): \(error)")
                    return 78
                } catch {
                    retrying.say("\(error); trying again")
                }
            } else {
                let places = SWUpdatePaths.candidates(SWUpdatePaths.progressName, release: settings.release)
                retrying.say("waiting for SWUpdate's progress socket (\(places.joined(separator: ", ")))")
            }
            retrying.pause()
        }
    }

    /// One connection's life: returns when SWUpdate closes it.
    private func follow(_ path: String) throws(SourceError) {
        var reader: SocketReader
        do { reader = try SocketReader(connectingTo: path) } catch { throw .system(error) }
        retrying.connected()
        var wire = SWUpdateWire(release: settings.release)
        var announced = false
        while true {
            let bytes: ArraySlice<UInt8>?
            do { bytes = try reader.next() } catch { throw .system(error) }
            guard let bytes else { return }
            let frames: [SWUpdateFrame]
            do { frames = try wire.feed(bytes) } catch { throw .wire(error) }
            if !announced, let layout = wire.layout, let api = wire.apiVersion {
                announced = true
                retrying.say("following SWUpdate at \(path): progress API \(api >> 16), \(layout.size)-byte frames")
            }
            for frame in frames {
                // Up to 2 s for the reason's last message: usually a millisecond, but a loaded
                // machine (a sanitizer's test run) once showed a reason cut short after 300 ms and
                // once after 2 s. Cut short, it is shown again whole when the message comes.
                var cutShort = false
                let view = progress.view(for: frame) {
                    let (reason, complete) = notices.failureReason(waitingUpTo: 2_000)
                    cutShort = !complete
                    return reason
                }
                if let view { sink.show(view) }
                if cutShort { notices.whenReasonCompletes { [sink] in sink.show(.failed(reason: $0)) } }
            }
        }
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
