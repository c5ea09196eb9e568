// SPDX-License-Identifier: MIT
// `splashhudd`: the HUD manager. One event loop owns the HUD and every output; the control socket,
// the FIFOs (ours, psplash's, fbsplash's), a timed script, signals and hotplug all reach it as
// messages in its queue. Everything that can be wrong with the options, the profile or the socket
// is reported before the screen is touched.
import Board
import CEarlyStart
import ClientCommand
import CommandLineOptions
import Display
import HUD
import HUDProtocol
import LinuxSystem
import Logging
import Runtime
import SystemPackage

@main
enum Daemon {
    static func main() {
        // Called through a link named splashhud (the initramfs holds one binary, not two), this is
        // the client; through one named plymouth, Plymouth's client (PlymouthPersonality).
        if let name = CommandLine.arguments.first,
           name == "splashhud" || name.hasSuffix("/splashhud") || name == "plymouth" || name.hasSuffix("/plymouth") {
            SplashHUDClient.main()
            return
        }
        let timeline = StartupTimeline(clock: MonotonicClock.nanoseconds, cpuBeforeMain: ProcessCPUClock.nanoseconds(),
                                       execAt: Environment.value("SPLASHHUD_EXEC_NS").flatMap { Int64($0) })
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.count == 2, arguments[0] == "--generate-completion-script" {
            guard let script = Completions.script(for: arguments[1], command: DaemonOptions.spec) else {
                CommandLineTool.exitWithUsageError(UsageError("--generate-completion-script takes bash, zsh or fish"), program: "splashhudd",
                                                   usage: "splashhudd --generate-completion-script bash|zsh|fish")
            }
            CommandLineTool.exitWithHelp(script)
        }
        if arguments == ["--generate-manual"] {
            CommandLineTool.exitWithHelp(ManPage.page(for: DaemonOptions.spec, section: 8,
                                                      seeAlso: ["splashhud(1)", "splashhud-tools(1)", "splashhud.conf(5)"],
                                                      version: SplashHUDVersion.current))
        }
        let options: DaemonOptions
        do { options = try DaemonOptions(arguments: arguments) } catch {
            CommandLineTool.exitWithUsageError(error, program: "splashhudd", usage: DaemonOptions.spec.shortUsage(program: "splashhudd"))
        }
        if options.wantsHelp { CommandLineTool.exitWithHelp(DaemonOptions.spec.helpText(program: "splashhudd")) }
        if options.wantsVersion { print(SplashHUDVersion.current); return }
        timeline.mark("options")
        do { try DaemonRun(options: options, timeline: timeline).run() } catch let error as UsageError {
            CommandLineTool.exitWithUsageError(error, program: "splashhudd", usage: DaemonOptions.spec.shortUsage(program: "splashhudd"))
        } catch {
            CommandLineTool.printError("\(error)")
            CommandLineTool.exit(1)
        }
    }
}

/// One run of the daemon with its options.
struct DaemonRun {
    let options: DaemonOptions
    let timeline: StartupTimeline

    func makeLogger() -> Logger {
        var logger = Logger(label: "splashhudd") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = options.logLevel
        return logger
    }

    func run() throws {
        let o = options
        let logger = makeLogger()
        // Everything that can be refused, before the screen is touched.
        let commands = try o.script.map(Self.loadScript) ?? []
        let profile = o.display.apply(to: try o.profile.map(Self.loadProfile))
        var account: Users.Account?
        if let user = o.user {
            do { account = try Users.account(named: user) } catch { throw DaemonFailure("--user \(user): \(error)") }
            guard account != nil else { throw UsageError("--user: no user called '\(user)'") }
        }
        if let profile { do { _ = try profile.hudSettings() } catch { throw DaemonFailure("\(error)") } }
        timeline.mark("profile")
        var control: ControlSocket?
        if o.socket != "none" {
            do { control = try ControlSocket.bind(path: o.socket, group: o.socketGroup) } catch { throw DaemonFailure("\(error)") }
        }
        var plymouthListener: FileDescriptor?
        if o.plymouth.isOn(logger: logger) {
            do { plymouthListener = try PlymouthServer.bind() } catch {
                control?.close()
                throw DaemonFailure(error == .alreadyRunning(path: PlymouthWire.socketName)
                    ? "Plymouth's socket \(PlymouthWire.socketName) is taken: plymouthd (or another splashhudd --plymouth) runs" : "\(error)")
            }
        }
        timeline.mark("sockets")
        var opener = DisplayOpener(profile: profile, logger: logger)
        if let size = o.display.size { (opener.memoryWidth, opener.memoryHeight) = size }
        opener.waitForDisplay = o.waitForDisplay && o.display.backend != .memory
        opener.continuesOnMemory = o.display.backend == nil || o.display.backend == .memory
        let opened = opener.open()
        timeline.mark("display (\(opened.backend.rawValue): open, modeset)")
        func giveUp(_ message: String) -> DaemonFailure {
            opened.display.close(.restore)
            control?.close()
            if let plymouthListener { Files.close(plymouthListener) }
            return DaemonFailure(message)
        }
        if let backend = o.display.backend, backend != .memory, opened.backend == .memory {
            throw giveUp("--display \(backend.rawValue) could not be opened: \(opened.failures.joined(separator: "; "))")
        }
        let consoleMode: ConsoleMode = o.console == "auto" ? .automatic : o.console == "off" ? .off : .device(o.console)
        let runtime: HUDRuntime
        do { runtime = try HUDRuntime(display: opened.display, profile: profile, console: consoleMode, logger: logger) } catch {
            throw giveUp("\(error)")
        }
        if let cap = options.maxFPS { runtime.maxFramesPerSecond = cap }
        runtime.promptTerminal = o.promptTerminal
        timeline.mark("runtime (scene, console)")
        if let path = o.screenFile {
            if let memory = opened.display as? MemoryDisplay {
                do { try memory.shareScanout(atPath: path) } catch {
                    runtime.quit(retain: false); control?.close()
                    throw DaemonFailure("--screen-file \(path): \(error)")
                }
            } else {
                logger.warning("--screen-file shares the memory display only; \(opened.backend.rawValue) shows on a real screen")
            }
        }
        var recorder: ShowRecorder?
        if let out = o.out {
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
            session = try SplashSession(runtime: runtime, script: commands, duration: o.duration,
                                        fifoPaths: [o.fifo, o.psplashFifo, o.fbsplashFifo].compactMap { $0 },
                                        fifoMode: o.fifoMode, retain: o.retain, logger: logger)
        } catch {
            runtime.quit(retain: false); control?.close()
            throw DaemonFailure("\(error)")
        }
        session.cpuClock = ProcessCPUClock.nanoseconds
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
        if o.mode != "boot-up" {
            if let plymouthServer { plymouthServer.enter(mode: o.mode, from: "--mode") }
            else if let look = SplashMode.look(o.mode, profile: profile) { runtime.enqueue(look.request, from: "--mode") }
        }
        if o.surviveFinalKill { Self.spareFromFinalKill(logger: logger) }
        let inputHub = InputHub(runtime: runtime, configuration: inputConfiguration(profile: profile, memory: opened.backend == .memory))
        runtime.assetDirectories = o.assetDir.isEmpty
            ? DaemonOptions.defaultAssetDirectories + [profile.map { $0.resolve(path: ".") } ?? ""].filter { !$0.isEmpty } : o.assetDir
        if let account {
            // The prompts' terminal too: a VT is root's and the tty group's.
            runtime.openPromptTerminalEarly()
            // Everything is open; what is left needs no root. Devices plugged in later need the
            // user's groups (video, input).
            do { try Users.become(account) } catch {
                runtime.quit(retain: false); control?.close()
                throw DaemonFailure("--user \(account.name): \(error)")
            }
            logger.info("running as \(account.name) (uid \(account.uid), gid \(account.gid))")
        }
        if CEarlyStart_answeredBeforePoolReady() != 0 {
            logger.info("the kernel's random pool was not ready at start: the hashing seed took best-effort bytes rather than waiting")
        }
        timeline.mark("session, servers, input")
        timeline.reportAtFirstFrame(of: runtime, logger: logger)
        // The pid file before READY=1: units ordered after ours test for it (the ask-password paths).
        let pidFile = plymouthServer == nil ? nil : o.plymouthPidFile.flatMap { PidFile(path: $0, runtime: runtime, logger: logger) }
        let notifier = ServiceNotifier(logger: logger)
        if o.readyWhenServing { notifier.sendReady(status: "serving on \(opened.backend.rawValue)") }
        else { notifier.sendReady(when: runtime, status: "showing on \(opened.backend.rawValue)") }
        let announcer = Announcer(runtime: runtime, consolePath: o.announce, logger: logger)
        let estimate = o.bootEstimate ? BootEstimate(runtime: runtime, stateDirectory: o.stateDir, logger: logger) : nil
        plymouthServer?.bootEstimate = estimate
        recorder?.follow(session)
        session.addFinishStep { end in
            // Only a boot that reached its end is worth remembering (not one killed by a signal).
            if end.signal == nil { estimate?.save(end: runtime.now) }
            notifier.notify(["STOPPING=1", "STATUS=ending: \(end.reason)"])
            server?.close()
            plymouthServer?.close()
            pidFile?.remove()
            inputHub.close()
        }
        let ending = try withExtendedLifetime((announcer, inputHub)) { try session.run() }
        if let signal = ending.signal { ConsoleSignals.die(of: signal) }
    }

    /// `--survive-final-kill`: spared by systemd-shutdown, and never killed by a log that has
    /// gone (journald ends before us: writing to its socket would raise SIGPIPE).
    static func spareFromFinalKill(logger: Logger) {
        Files.ignoreBrokenPipe()
        switch FinalKill.spare() {
        case .spared:
            logger.notice("--survive-final-kill: argv[0] begins with '@': systemd-shutdown's final kill spares this daemon, whose last frame stays until the machine is off")
        case .notRoot(let uid):
            logger.warning("--survive-final-kill: running as uid \(uid), not root: systemd-shutdown spares only root's processes")
        case .noCommandLine:
            logger.warning("--survive-final-kill: no command line to mark")
        }
    }

    /// The profile's `[input]`, with `--input` and `--grab-input` over it. Without either, the
    /// memory display reads no input (there is no screen to touch).
    func inputConfiguration(profile: BoardProfile?, memory: Bool) -> InputConfiguration {
        var c = InputConfiguration(profile: profile)
        switch options.input {
        case "auto": c.devices = .auto
        case "none": c.devices = .none
        case let list?: c.devices = .paths(list.split(separator: ",").map(String.init))
        case nil: if memory && profile?.inputDevices ?? .auto == .auto { c.devices = .none }
        }
        if options.grabInput { c.grab = true }
        return c
    }

    /// The profile `--profile` names; a lookup failure is a usage error (exit status 64).
    static func loadProfile(_ nameOrPath: String) throws -> BoardProfile {
        do { return try ProfileLocator.load(nameOrPath) } catch { throw UsageError(error.message) }
    }

    static func loadScript(_ path: String) throws -> [TimedCommand] {
        let bytes: [UInt8]
        do { bytes = try Files.readFile(path, limit: 1 << 20) } catch { throw UsageError("--script: cannot read \(path): \(error)") }
        do { return try CommandParser.parseScript(bytes: bytes) } catch { throw UsageError("--script \(path): \(error)") }
    }
}

/// `--plymouth on|off|auto`.
enum PlymouthMode: String, CaseIterable {
    case on, off, auto

    /// The raw values, written out (DaemonOptionsTests checks them against `allCases`): mapping
    /// `allCases` built two arrays on every start.
    static let names = ["on", "off", "auto"]

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
