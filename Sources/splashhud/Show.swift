// `splashhud show`: the splash itself. Opens the best display (a board profile's backends in order,
// else DRM, fbdev, and the memory framebuffer when there is no screen), runs the HUD on it through
// HUDRuntime, and takes commands from the FIFO (`splashhud send`, psplash/fbsplash words) and/or a
// timed script. Ends on QUIT/exit/quit from the FIFO, SIGTERM/SIGINT or --duration; the screen and
// the console are given back (or the last frame retained with --retain).
import Board
import ArgumentParser
import Display
import Foundation
import HUD
import HUDProtocol
import Logging
import Runtime

enum DisplayChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, drm, fbdev, memory
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HUD on the best display, taking commands from a FIFO and/or a timed script.",
        discussion: """
            Commands arrive through the FIFO (`splashhud send LINE...`, or any writer: `echo 'progress 0.5' > FIFO`,
            psplash's `MSG`/`PROGRESS`/`QUIT`, fbsplash's `NN`/`exit`). QUIT or exit dismisses the HUD and ends
            after its fade-out; `quit` ends at once, `quit --retain` keeps the frame on screen.
            """)

    @Option(help: "Board profile: a name in boards/ (e.g. rpi4, qemu-bochs) or a .conf file.")
    var profile: String?

    @Option(help: "Display backend: auto (the profile's order, else drm then fbdev, memory when no screen opens), drm, fbdev or memory.")
    var display: DisplayChoice = .auto

    @Option(help: "A timed script to play from the start (`@SECONDS COMMAND` lines, as `splashhud render` takes).")
    var script: String?

    @Option(help: "The command FIFO (created if missing; `none` for no FIFO). Default: \(CommandFIFO.defaultPath).")
    var fifo: String?

    @Option(help: "The FIFO's mode when we create it: 600 (owner only, as psplash) or 620 (group may write).")
    var fifoMode: String = "600"

    @Flag(help: "Leave the last frame on the screen when ending (else what was there before is restored).")
    var retain = false

    @Option(help: "Memory display: write what was shown here (animated PNG with real timing, last frame, events).")
    var out: String?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @Option(help: "Memory display size WxH when the profile names no mode.")
    var size: String = "1280x720"

    @Option(help: "Log level on standard error: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Option(help: "Virtual terminal: auto (stdin's VT, else the foreground one; none for the memory display), off, or a device such as /dev/tty1.")
    var console: String = "auto"

    func validate() throws {
        if let duration { guard duration > 0 && duration <= 1_000_000 else { throw ValidationError("--duration must be above 0 and at most 1000000 s") } }
        guard Self.fifoModes[fifoMode] != nil else { throw ValidationError("--fifo-mode must be 600 or 620, got '\(fifoMode)'") }
        _ = try memorySize()
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level: unknown level '\(logLevel)'") }
    }

    static let fifoModes: [String: UInt32] = ["600": CommandFIFO.ownerOnly, "0600": CommandFIFO.ownerOnly,
                                              "620": CommandFIFO.groupWritable, "0620": CommandFIFO.groupWritable]

    func memorySize() throws -> (Int32, Int32) {
        let parts = size.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int32(parts[0]), let h = Int32(parts[1]), (16...8192).contains(w), (16...8192).contains(h) else {
            throw ValidationError("--size must be WxH with each 16...8192, got '\(size)'")
        }
        return (w, h)
    }

    func makeLogger() -> Logger {
        var logger = Logger(label: "splashhud") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        return logger
    }

    func run() throws {
        let logger = makeLogger()
        let commands = try script.map(Self.loadScript) ?? []
        var profile = try self.profile.map(Self.loadProfile)
        if display != .auto {
            if profile == nil { profile = BoardProfile(file: "(--display \(display.rawValue))") }
            profile!.backends = [BoardProfile.Backend(rawValue: display.rawValue)!]
        }
        var opener = DisplayOpener(profile: profile, logger: logger)
        (opener.memoryWidth, opener.memoryHeight) = try memorySize()
        let opened = opener.open()
        if display != .auto && display != .memory && opened.backend == .memory {
            opened.display.close(.restore)
            throw ShowFailure(message: "splashhud show: --display \(display.rawValue) could not be opened: \(opened.failures.joined(separator: "; "))")
        }
        let consoleMode: ConsoleMode = console == "auto" ? .automatic : console == "off" ? .off : .device(console)
        let runtime: HUDRuntime
        do { runtime = try HUDRuntime(display: opened.display, profile: profile, console: consoleMode, logger: logger) } catch {
            opened.display.close(.restore)
            throw ShowFailure(message: "splashhud show: \(error)")
        }
        var recorder: ShowRecorder?
        if let out {
            if opened.display.presentCount(output: 0) != nil { recorder = try ShowRecorder(directory: out, display: opened.display) } else {
                logger.warning("--out records the memory display only; \(opened.backend.rawValue) shows on a real screen")
            }
        }
        let fifoPath = fifo == "none" ? nil : (fifo ?? CommandFIFO.defaultPath)
        let session: SplashSession
        do {
            session = try SplashSession(runtime: runtime, script: commands, duration: duration, fifoPath: fifoPath,
                                        fifoMode: Self.fifoModes[fifoMode]!, retain: retain, logger: logger)
        } catch let error as CommandFIFOError where fifo == nil {
            // The default FIFO is a convenience: without /run access the splash still runs its script.
            logger.warning("no command FIFO: \(error)")
            session = try SplashSession(runtime: runtime, script: commands, duration: duration, fifoPath: nil,
                                        fifoMode: CommandFIFO.ownerOnly, retain: retain, logger: logger)
        } catch {
            runtime.quit(retain: false)
            throw ShowFailure(message: "splashhud show: \(error)")
        }
        recorder?.follow(session)
        let ending = try session.run()
        if let signal = ending.signal { ConsoleSignals.die(of: signal) }
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

/// A failure the user reads as one line (exit status 1).
struct ShowFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
