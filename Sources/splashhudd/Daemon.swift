// `splashhudd`: the HUD manager. One event loop owns the HUD and every output; the control socket,
// the FIFOs (ours, psplash's, fbsplash's), a timed script, signals and hotplug all reach it as
// messages in its queue. Everything that can be wrong with the options, the profile or the socket
// is reported before the screen is touched.
import ArgumentParser
import Board
import Display
import Foundation
import HUD
import HUDProtocol
import LinuxSystem
import Logging
import Runtime
import SystemPackage

@main
struct Daemon: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splashhudd",
        abstract: "The SplashHUD daemon: the HUD on the best display, driven through its control socket and FIFOs.",
        discussion: """
            Clients talk to it with `splashhud VERB …` (or the Swift API) over the control socket; boot scripts may
            also write psplash's `MSG`/`PROGRESS`/`QUIT` to --psplash-fifo and fbsplash's `NN`/`exit` to --fbsplash-fifo.
            QUIT or exit dismisses the HUD and ends after its fade-out; `quit` ends at once, `quit --retain` keeps
            the frame on the screen. Under systemd (Type=notify) it says READY=1 once the first frame is shown.
            """,
        version: ControlProtocol.softwareVersion)

    @Option(help: "Display: auto (the profile's backends, else drm then fbdev, memory when no screen opens), drm[:CARD], fbdev[:DEVICE] or memory[:WxH].")
    var display: DisplayChoice = .auto

    @Option(help: "Board profile: a name in boards/ (e.g. rpi4, qemu-bochs) or a .conf file.")
    var profile: String?

    @Option(help: "The control socket (`none`: no socket). When its directory cannot be used, the abstract socket @PATH is used instead.")
    var socket: String = ControlProtocol.defaultSocketPath

    @Option(help: "The group that may use the control socket (mode 0660), a name or a number.")
    var socketGroup: String?

    @Option(help: "Also answer Plymouth's protocol on its socket (@/org/freedesktop/plymouthd), so `plymouth`, boot scripts and systemd drive the HUD: on (also a bare --plymouth), off, or auto (on unless Plymouth is installed).")
    var plymouth: PlymouthMode = .off

    @Option(help: "Also read psplash's FIFO here (MSG, PROGRESS, QUIT); without a value: \(Daemon.psplashDefault).")
    var psplashFifo: String?

    @Option(help: "Also read busybox fbsplash's FIFO here (NN, exit).")
    var fbsplashFifo: String?

    @Option(help: "Also read command-language lines from this FIFO (`echo 'progress 0.5' > FIFO`).")
    var fifo: String?

    @Option(help: "The FIFOs' mode when we create them: 600 (owner only, as psplash) or 620 (group may write).")
    var fifoMode: String = "600"

    @Option(help: "A timed script to play from the start (`@SECONDS COMMAND` lines, as `splashhud render` takes).")
    var script: String?

    @Flag(help: "Leave the last frame on the screen when ending (else what was there before is restored).")
    var retain = false

    @Option(help: "Also announce every status text on this console (e.g. /dev/ttyS0), besides the log.")
    var announce: String?

    @Flag(help: "Show the boot's progress estimated from the previous boot (Plymouth's boot-duration), until a client sends progress itself.")
    var bootEstimate = false

    @Option(help: "Where the boot estimate is remembered between boots.")
    var stateDir: String = "/var/lib/splashhud"

    @Option(help: "Memory display: write what was shown here (animated PNG with real timing, last frame, events).")
    var out: String?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @Option(help: "Log level on standard error: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Option(help: "Virtual terminal: auto (stdin's VT, else the foreground one; none for the memory display), off, or a device such as /dev/tty1.")
    var console: String = "auto"

    @Option(help: "Input devices: auto (every touchscreen, tablet, mouse and keyboard, followed as they come and go; the default on a real screen), none (the default on the memory display), or device paths separated by commas. The profile's [input] devices unless given.")
    var input: String?

    @Flag(help: "Take the input devices for the HUD alone (EVIOCGRAB), so nothing behind it sees their events (the profile's [input] grab).")
    var grabInput = false

    @Flag(help: "When no screen opens yet (early boot, before the display's driver has loaded), wait for a DRM card to appear and show on it at once, instead of falling back to the memory display. Clients are answered while it waits.")
    var waitForDisplay = false

    @Option(help: "Run as this user once the display, the sockets, the FIFOs and the input devices are open (its groups, e.g. video and input, are kept for devices plugged in later).")
    var user: String?

    @Option(help: "A directory whose files commands may show or use (`image PATH`, `set font PATH`); repeat it for several. Paths are resolved (symlinks, ..) and refused outside. Default: \(Daemon.defaultAssetDirectories.joined(separator: ", ")) and the profile's directory.")
    var assetDir: [String] = []

    static let defaultAssetDirectories = ["/usr/share/splashhud", "/etc/splashhud", "/usr/share/fonts", "/usr/local/share/fonts",
                                          "/usr/share/pixmaps", "/usr/share/plymouth/themes"]

    static let psplashDefault = "/run/psplash_fifo"

    /// `--psplash-fifo` may come without a value: it then names psplash's own FIFO.
    static func main() {
        var args = Array(CommandLine.arguments.dropFirst())
        for (i, a) in args.enumerated() where a == "--psplash-fifo" || a == "--plymouth" {
            let next = i + 1 < args.count ? args[i + 1] : nil
            guard next == nil || next!.hasPrefix("-") else { continue }
            args[i] = a == "--plymouth" ? "--plymouth=on" : "--psplash-fifo=\(psplashDefault)"
        }
        do {
            var command = try parseAsRoot(args)
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    func validate() throws {
        if let duration { guard duration > 0 && duration <= 1_000_000 else { throw ValidationError("--duration must be above 0 and at most 1000000 s") } }
        guard Self.fifoModes[fifoMode] != nil else { throw ValidationError("--fifo-mode must be 600 or 620, got '\(fifoMode)'") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level: unknown level '\(logLevel)'") }
        let fifos = [fifo, psplashFifo, fbsplashFifo].compactMap { $0 }
        guard Set(fifos).count == fifos.count else { throw ValidationError("each FIFO needs its own path") }
        guard socket == "none" || !socket.isEmpty else { throw ValidationError("--socket needs a path") }
        if let input, input != "auto", input != "none" {
            guard input.split(separator: ",").allSatisfy({ $0.hasPrefix("/") }) else {
                throw ValidationError("--input takes auto, none or device paths separated by commas, got '\(input)'")
            }
        }
    }

    static let fifoModes: [String: UInt32] = ["600": CommandFIFO.ownerOnly, "0600": CommandFIFO.ownerOnly,
                                              "620": CommandFIFO.groupWritable, "0620": CommandFIFO.groupWritable]

    func makeLogger() -> Logger {
        var logger = Logger(label: "splashhudd") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        return logger
    }

    func run() throws {
        let logger = makeLogger()
        // Everything that can be refused, before the screen is touched.
        let commands = try script.map(Self.loadScript) ?? []
        let profile = display.apply(to: try self.profile.map(Self.loadProfile))
        var account: Users.Account?
        if let user {
            do { account = try Users.account(named: user) } catch { throw DaemonFailure("--user \(user): \(error)") }
            guard account != nil else { throw ValidationError("--user: no user called '\(user)'") }
        }
        if let profile { do { _ = try profile.hudSettings() } catch { throw DaemonFailure("\(error)") } }
        var control: ControlSocket?
        if socket != "none" {
            do { control = try ControlSocket.bind(path: socket, group: socketGroup) } catch { throw DaemonFailure("\(error)") }
        }
        var plymouthListener: FileDescriptor?
        if plymouth.isOn(logger: logger) {
            do { plymouthListener = try PlymouthServer.bind() } catch {
                control?.close()
                throw DaemonFailure(error == .alreadyRunning(path: PlymouthProtocol.socketName)
                    ? "Plymouth's socket \(PlymouthProtocol.socketName) is taken: plymouthd (or another splashhudd --plymouth) runs" : "\(error)")
            }
        }
        var opener = DisplayOpener(profile: profile, logger: logger)
        if let size = display.size { (opener.memoryWidth, opener.memoryHeight) = size }
        opener.waitForDisplay = waitForDisplay && display.backend != .memory
        let opened = opener.open()
        func giveUp(_ message: String) -> DaemonFailure {
            opened.display.close(.restore)
            control?.close()
            if let plymouthListener { Files.close(plymouthListener) }
            return DaemonFailure(message)
        }
        if let backend = display.backend, backend != .memory, opened.backend == .memory {
            throw giveUp("--display \(backend.rawValue) could not be opened: \(opened.failures.joined(separator: "; "))")
        }
        let consoleMode: ConsoleMode = console == "auto" ? .automatic : console == "off" ? .off : .device(console)
        let runtime: HUDRuntime
        do { runtime = try HUDRuntime(display: opened.display, profile: profile, console: consoleMode, logger: logger) } catch {
            throw giveUp("\(error)")
        }
        var recorder: ShowRecorder?
        if let out {
            if opened.display.presentCount(output: 0) != nil {
                do { recorder = try ShowRecorder(directory: out, display: opened.display) } catch {
                    runtime.quit(retain: false); control?.close()
                    throw DaemonFailure("--out \(out): \(error)")
                }
            } else {
                logger.warning("--out records the memory display only; \(opened.backend.rawValue) shows on a real screen")
            }
        }
        let session: SplashSession
        do {
            session = try SplashSession(runtime: runtime, script: commands, duration: duration,
                                        fifoPaths: [fifo, psplashFifo, fbsplashFifo].compactMap { $0 },
                                        fifoMode: Self.fifoModes[fifoMode]!, retain: retain, logger: logger)
        } catch {
            runtime.quit(retain: false); control?.close()
            throw DaemonFailure("\(error)")
        }
        var server: ControlServer?
        if let control {
            do { server = try ControlServer(socket: control, runtime: runtime) } catch {
                runtime.quit(retain: false); control.close()
                throw DaemonFailure("control socket: \(error)")
            }
        }
        var plymouthServer: PlymouthServer?
        if let plymouthListener {
            do { plymouthServer = try PlymouthServer(runtime: runtime, listener: plymouthListener) } catch {
                runtime.quit(retain: false); control?.close()
                throw DaemonFailure("Plymouth's socket: \(error)")
            }
        }
        let inputHub = InputHub(runtime: runtime, configuration: inputConfiguration(profile: profile, memory: opened.backend == .memory))
        runtime.assetDirectories = assetDir.isEmpty
            ? Self.defaultAssetDirectories + [profile.map { $0.resolve(path: ".") } ?? ""].filter { !$0.isEmpty } : assetDir
        if let account {
            // Everything is open; what is left needs no root. Devices plugged in later need the
            // user's groups (video, input).
            do { try Users.become(account) } catch {
                runtime.quit(retain: false); control?.close()
                throw DaemonFailure("--user \(account.name): \(error)")
            }
            logger.info("running as \(account.name) (uid \(account.uid), gid \(account.gid))")
        }
        let notifier = ServiceNotifier(logger: logger)
        notifier.sendReady(when: runtime, status: "showing on \(opened.backend.rawValue)")
        let announcer = Announcer(runtime: runtime, consolePath: announce, logger: logger)
        let estimate = bootEstimate ? BootEstimate(runtime: runtime, stateDirectory: stateDir, logger: logger) : nil
        plymouthServer?.bootEstimate = estimate
        recorder?.follow(session)
        session.addFinishStep { end in
            // Only a boot that reached its end is worth remembering (not one killed by a signal).
            if end.signal == nil { estimate?.save(end: runtime.loop.clock()) }
            notifier.notify(["STOPPING=1", "STATUS=ending: \(end.reason)"])
            server?.close()
            plymouthServer?.close()
            inputHub.close()
        }
        let ending = try withExtendedLifetime((announcer, inputHub)) { try session.run() }
        if let signal = ending.signal { ConsoleSignals.die(of: signal) }
    }

    /// The profile's `[input]`, with `--input` and `--grab-input` over it. Without either, the
    /// memory display reads no input (there is no screen to touch).
    func inputConfiguration(profile: BoardProfile?, memory: Bool) -> InputConfiguration {
        var c = InputConfiguration(profile: profile)
        switch input {
        case "auto": c.devices = .auto
        case "none": c.devices = .none
        case let list?: c.devices = .paths(list.split(separator: ",").map(String.init))
        case nil: if memory && profile?.inputDevices ?? .auto == .auto { c.devices = .none }
        }
        if grabInput { c.grab = true }
        return c
    }

    /// The profile `--profile` names; a lookup failure is a usage error (exit status 64).
    static func loadProfile(_ nameOrPath: String) throws -> BoardProfile {
        do { return try ProfileLocator.load(nameOrPath) } catch { throw ValidationError(error.message) }
    }

    static func loadScript(_ path: String) throws -> [TimedCommand] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("--script: cannot read \(path)") }
        do { return try CommandParser.parseScript(bytes: [UInt8](data)) } catch { throw ValidationError("--script \(path): \(error)") }
    }
}

/// `--plymouth on|off|auto`.
enum PlymouthMode: String, ExpressibleByArgument, CaseIterable {
    case on, off, auto

    /// Where Plymouth's daemon is installed, when it is.
    static let daemons = ["/usr/sbin/plymouthd", "/sbin/plymouthd", "/usr/bin/plymouthd"]

    /// auto: on unless plymouthd is installed (then Plymouth itself answers there).
    func isOn(logger: Logger) -> Bool {
        switch self {
        case .on: return true
        case .off: return false
        case .auto:
            guard let installed = Self.daemons.first(where: { (try? Files.status(atPath: $0)) != nil }) else { return true }
            logger.info("--plymouth=auto: Plymouth is installed (\(installed)); leaving its socket to it")
            return false
        }
    }
}

/// A failure the user reads as one line (exit status 1).
struct DaemonFailure: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = "splashhudd: " + message }
    var description: String { message }
}
