// SPDX-License-Identifier: MIT
// splashhudd's command line: the option table (which also writes --help) and the values read
// from it, each checked before anything is opened.
import Board
import CommandLineOptions
import HUDProtocol
import Logging
import Runtime

struct DaemonOptions {
    var display: DisplayChoice = .auto
    var profile: String?
    var socket = ControlProtocol.defaultSocketPath
    var socketGroup: String?
    var plymouth: PlymouthMode = .off
    var psplashFifo: String?
    var fbsplashFifo: String?
    var fifo: String?
    var fifoMode: UInt32 = CommandFIFO.ownerOnly
    var script: String?
    var retain = false
    var announce: String?
    var bootEstimate = false
    var stateDir = "/var/lib/splashhud"
    var out: String?
    var screenFile: String?
    var duration: Double?
    var logLevel: Logger.Level = .info
    var console = "auto"
    var input: String?
    var promptTerminal: String?
    var plymouthPidFile: String?
    var grabInput = false
    var waitForDisplay = false
    var user: String?
    var assetDir: [String] = []
    /// `--max-fps`: nil keeps the profile's (or the display's refresh); `.some(nil)` is `refresh`.
    var maxFPS: Int32??
    /// `--mode`: one of Plymouth's modes (SplashMode), shown from the start.
    var mode = "boot-up"
    var surviveFinalKill = false
    /// `--ready`: serving says READY=1 before the first frame.
    var readyWhenServing = false

    static let defaultAssetDirectories = ["/usr/share/splashhud", "/etc/splashhud", "/usr/share/fonts", "/usr/local/share/fonts",
                                          "/usr/share/pixmaps", "/usr/share/plymouth/themes"]
    static let psplashDefault = "/run/psplash_fifo"
    static let fifoModes: [String: UInt32] = ["600": CommandFIFO.ownerOnly, "0600": CommandFIFO.ownerOnly,
                                              "620": CommandFIFO.groupWritable, "0620": CommandFIFO.groupWritable]

    /// The table, its help written out in full: the defaults it names (the socket, psplash's FIFO,
    /// the asset directories) are literals checked by DaemonOptionsTests, not interpolated, because
    /// the daemon builds this table on every start and an interpolation or `joined` costs more
    /// there than the whole parse.
    static let spec = CommandSpec(
        name: "splashhudd",
        abstract: "The SplashHUD daemon: the HUD on the best display, driven through its control socket and FIFOs.",
        discussion: """
            Clients talk to it with `splashhud VERB …` (or the Swift API) over the control socket; boot scripts may \
            also write psplash's `MSG`/`PROGRESS`/`QUIT` to --psplash-fifo and fbsplash's `NN`/`exit` to --fbsplash-fifo. \
            QUIT or exit dismisses the HUD and ends after its fade-out; `quit` ends at once, `quit --retain` keeps \
            the frame on the screen. Under systemd (Type=notify) it says READY=1 once the first frame is shown (--ready). \
            --generate-manual writes this man page, --generate-completion-script bash|zsh|fish the shell's completions.
            """,
        options: [
            .option("display", "display", help: "Display: auto (the profile's backends, else drm then fbdev, memory when no screen opens), drm[:CARD], fbdev[:DEVICE] or memory[:WxH]. Default: auto."),
            .option("profile", "profile", help: "Board profile: a name in boards/ (e.g. rpi4, qemu-bochs) or a .conf file."),
            .option("socket", "socket", help: "The control socket (`none`: no socket). When its directory cannot be used, the abstract socket @PATH is used instead. Default: /run/splashhud/control."),
            .option("socket-group", "group", help: "The group that may use the control socket (mode 0660), a name or a number."),
            OptionSpec("plymouth", value: .optional("mode", bare: "on"), help: "Also answer Plymouth's protocol on its socket (@/org/freedesktop/plymouthd), so `plymouth`, boot scripts and systemd drive the HUD: on (also a bare --plymouth), off (the default), or auto (on unless Plymouth is installed)."),
            OptionSpec("psplash-fifo", value: .optional("path", bare: psplashDefault), help: "Also read psplash's FIFO here (MSG, PROGRESS, QUIT); without a value: /run/psplash_fifo."),
            .option("fbsplash-fifo", "path", help: "Also read busybox fbsplash's FIFO here (NN, exit)."),
            .option("fifo", "path", help: "Also read command-language lines from this FIFO (`echo 'progress 0.5' > FIFO`)."),
            .option("fifo-mode", "mode", help: "The FIFOs' mode when we create them: 600 (owner only, as psplash; the default) or 620 (group may write)."),
            .option("script", "file", help: "A timed script to play from the start (`@SECONDS COMMAND` lines, as `splashhud render` takes)."),
            .flag("retain", help: "Leave the last frame on the screen when ending (else what was there before is restored)."),
            .option("announce", "console", help: "Also announce every status text on this console (e.g. /dev/ttyS0), besides the log."),
            .flag("boot-estimate", help: "Show the boot's progress estimated from the previous boot (Plymouth's boot-duration), until a client sends progress itself."),
            .option("state-dir", "dir", help: "Where the boot estimate is remembered between boots. Default: /var/lib/splashhud."),
            .option("out", "dir", help: "Memory display: write what was shown here (animated PNG with real timing, last frame, events)."),
            .option("screen-file", "path", help: "Memory display: keep the screen in this file, mapped shared, so other programs see each frame as it is drawn (as Xvfb's -fbdir): raw pixels in the output's format (XRGB8888: 4 bytes a pixel, little-endian), rows of the mode's width, no header."),
            .option("duration", "seconds", help: "Stop after this many seconds."),
            .option("log-level", "level", help: "Log level on standard error: trace, debug, info (the default), notice, warning, error, critical."),
            .option("console", "console", help: "Virtual terminal: auto (stdin's VT, else the foreground one; none for the memory display; the default), off, or a device such as /dev/tty1."),
            .option("input", "devices", help: "Input devices: auto (every touchscreen, tablet, mouse and keyboard, followed as they come and go; the default on a real screen), none (the default on the memory display), or device paths separated by commas. The profile's [input] devices unless given."),
            .option("plymouth-pid-file", "path", help: "While answering Plymouth's socket with a keyboard for its prompts, write our pid here (/run/plymouth/pid, as plymouthd does): systemd's Plymouth password agent then asks through us, and its console agent, whose prompt the splash would hide, stays off."),
            .option("prompt-tty", "terminal", help: "Read the keys of passphrase prompts (Plymouth's ask-for-password, ask-password) from this terminal, in raw mode, e.g. /dev/ttyS0. Default: the VT under the display, whose keymap gives the user's layout."),
            .flag("grab-input", help: "Take the input devices for the HUD alone (EVIOCGRAB), so nothing behind it sees their events (the profile's [input] grab)."),
            .flag("wait-for-display", help: "When no screen opens yet (early boot, before the display's driver has loaded), wait for a DRM card to appear and show on it at once, instead of falling back to the memory display. Clients are answered while it waits."),
            .option("user", "name", help: "Run as this user once the display, the sockets, the FIFOs and the input devices are open (its groups, e.g. video and input, are kept for devices plugged in later)."),
            .option("asset-dir", "dir", help: "A directory whose files commands may show or use (`image PATH`, `set font PATH`); repeat it for several. Paths are resolved (symlinks, ..) and refused outside. Default: /usr/share/splashhud, /etc/splashhud, /usr/share/fonts, /usr/local/share/fonts, /usr/share/pixmaps, /usr/share/plymouth/themes and the profile's directory."),
            .option("max-fps", "n|refresh", help: "Cap animation at N frames a second (1...1000), on every k-th refresh so steps stay even; refresh (the default) draws one per refresh. Over the profile's [hud] max-fps; `set max-fps` changes it later."),
            .option("mode", "mode", help: "Start in one of Plymouth's modes, as plymouthd --mode does: boot-up (the default), shutdown, reboot, updates, system-upgrade or firmware-upgrade. The HUD shows the mode's text (the profile's [modes] over SplashHUD's own); the update modes show a ring that progress fills."),
            .flag("survive-final-kill", help: "Stay on the screen until the machine is off: mark the process as systemd marks a root storage daemon (argv[0] beginning with '@'), so systemd-shutdown's final SIGTERM and SIGKILL spare it (root only). For the shutdown units; a daemon started so never ends by itself in a shutdown."),
            .option("ready", "when", help: "When to tell systemd READY=1 (Type=notify): first-frame (the default; units after it start with the HUD on the screen) or serving (once the sockets and FIFOs are open and the pid file is written, before the first frame: units after it, whose requests wait in the sockets, need not wait for the screen)."),
            .flag("version", help: "Show the version."),
        ])

    /// The values of `arguments` (without the program's name), checked.
    init(arguments: [String]) throws(UsageError) {
        try self.init(OptionParser.parse(arguments, spec: Self.spec))
    }

    /// Whether the command line asks for --help or --version instead of a run.
    var wantsHelp = false
    var wantsVersion = false

    init(_ p: ParsedOptions) throws(UsageError) {
        wantsHelp = p.wantsHelp
        wantsVersion = p.flag("version")
        if let text = p.value("display") {
            guard let d = DisplayChoice(argument: text) else {
                throw UsageError("--display takes auto, drm[:CARD], fbdev[:DEVICE] or memory[:WxH] (16...8192 each), got '\(text)'")
            }
            display = d
        }
        profile = p.value("profile")
        socket = p.value("socket") ?? socket
        guard socket == "none" || !socket.isEmpty else { throw UsageError("--socket needs a path") }
        socketGroup = p.value("socket-group")
        plymouth = try p.choice("plymouth", of: PlymouthMode.names).flatMap(PlymouthMode.init) ?? .off
        psplashFifo = p.value("psplash-fifo")
        fbsplashFifo = p.value("fbsplash-fifo")
        fifo = p.value("fifo")
        // Three at most, compared in pairs (a Set of them cost more than the rest of the checks).
        guard !Self.same(fifo, psplashFifo), !Self.same(fifo, fbsplashFifo), !Self.same(psplashFifo, fbsplashFifo) else {
            throw UsageError("each FIFO needs its own path")
        }
        if let mode = p.value("fifo-mode") {
            guard let m = Self.fifoModes[mode] else { throw UsageError("--fifo-mode must be 600 or 620, got '\(mode)'") }
            fifoMode = m
        }
        script = p.value("script")
        retain = p.flag("retain")
        announce = p.value("announce")
        bootEstimate = p.flag("boot-estimate")
        stateDir = p.value("state-dir") ?? stateDir
        out = p.value("out")
        screenFile = p.value("screen-file")
        duration = try p.number("duration", above: 0, atMost: 1_000_000)
        if let level = p.value("log-level") {
            guard let l = Self.logLevel(level) else { throw UsageError("--log-level: unknown level '\(level)'") }
            logLevel = l
        }
        console = p.value("console") ?? console
        input = p.value("input")
        promptTerminal = p.value("prompt-tty")
        plymouthPidFile = p.value("plymouth-pid-file")
        if let input, input != "auto", input != "none" {
            guard input.split(separator: ",").allSatisfy({ $0.hasPrefix("/") }) else {
                throw UsageError("--input takes auto, none or device paths separated by commas, got '\(input)'")
            }
        }
        grabInput = p.flag("grab-input")
        waitForDisplay = p.flag("wait-for-display")
        user = p.value("user")
        assetDir = p.values("asset-dir")
        mode = try p.choice("mode", of: SplashMode.names) ?? mode
        surviveFinalKill = p.flag("survive-final-kill")
        readyWhenServing = try p.choice("ready", of: ["first-frame", "serving"]) == "serving"
        if let cap = p.value("max-fps") {
            do {
                guard case .hud(.set(.maxFramesPerSecond(let n)))? = try CommandParser.parseRequest("set max-fps \(cap)") else {
                    throw UsageError("")
                }
                maxFPS = .some(n)
            } catch {
                throw UsageError("--max-fps takes a number of frames a second, 1...\(CommandParser.maxFramesPerSecond), or refresh; got '\(cap)'")
            }
        }
    }

    /// Whether two optional paths are both given and the same.
    static func same(_ a: String?, _ b: String?) -> Bool { a != nil && a == b }

    /// `--log-level`'s word as `Logger.Level(rawValue:)` reads it, by a switch: the synthesized
    /// initializer looks its cases up in an array whose type the runtime builds on first use.
    static func logLevel(_ word: String) -> Logger.Level? {
        switch word {
        case "trace": return .trace
        case "debug": return .debug
        case "info": return .info
        case "notice": return .notice
        case "warning": return .warning
        case "error": return .error
        case "critical": return .critical
        default: return nil
        }
    }
}
