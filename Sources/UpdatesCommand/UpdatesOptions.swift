// SPDX-License-Identifier: MIT
// splashhud-updates's command line: the framework to follow, then its options. CommandLineOptions
// rather than swift-argument-parser, as for the fleet bridge: it stays resident beside the daemon.
import CommandLineOptions
import UpdateSources

struct UpdatesConfiguration: Sendable {
    /// bootc: the command to run, with its arguments (`--progress-fd 3` is appended).
    enum Source: Sendable { case swupdate(SWUpdateSettings), rauc, bootc([String]) }
    var source: Source
    /// The daemon's control socket (nil: $SPLASHHUD_SOCKET or the default, as for every client).
    var socket: String?
}

struct SWUpdateSettings: Sendable {
    /// nil: found by the release's rules (SWUpdatePaths).
    var progressSocket: String?
    var controlSocket: String?
    var release: SWUpdateRelease?
}

enum UpdatesOptions {
    static let spec = CommandSpec(
        name: "splashhud-updates",
        abstract: "Show an update framework's progress on the splash (docs/updates.md).",
        discussion: """
            SOURCE is the framework to follow: swupdate (its progress socket) or rauc (its installer on the system \
            bus, $DBUS_SYSTEM_BUS_ADDRESS or /run/dbus/system_bus_socket), which it follows until stopped, waiting \
            for the framework and for the daemon whenever either is not there; or bootc -- COMMAND..., which runs \
            the command (bootc upgrade or bootc switch IMAGE) with --progress-fd 3, shows its progress, and exits \
            with its exit status.
            """,
        options: [
            .option("socket", "path", help: "The daemon's control socket (default: $SPLASHHUD_SOCKET or /run/splashhud/control)."),
            .option("progress-socket", "path", help: "SWUpdate's progress socket (default: found as SWUpdate finds it: $RUNTIME_DIRECTORY, $TMPDIR, /tmp)."),
            .option("control-socket", "path", help: "SWUpdate's control socket, for a failed install's reason (default: beside the progress socket, sockinstctrl)."),
            .option("swupdate-version", "release", help: "The SWUpdate release installed, YEAR.MONTH (2022.12): its progress frames' layout when the socket cannot say."),
        ],
        operands: "<source> [-- <command> ...]",
        operandHelp: [OperandHelp("SOURCE", "swupdate, rauc or bootc"), OperandHelp("COMMAND", "bootc's: the command to run, after --")],
        operandCount: 1...Int.max)

    /// The configuration; nil when help was asked for.
    static func parse(_ arguments: [String]) throws(UsageError) -> UpdatesConfiguration? {
        let o = try OptionParser.parse(arguments, spec: spec)
        if o.wantsHelp { return nil }
        let source = o.operands[0]
        if source != "bootc", o.operands.count > 1 { throw UsageError("\(source) takes no command: '\(o.operands[1])'") }
        switch source {
        case "swupdate":
            var release: SWUpdateRelease?
            if let text = o.value("swupdate-version") {
                guard let r = SWUpdateRelease(text) else { throw UsageError("--swupdate-version takes a release such as 2022.12, got '\(text)'") }
                release = r
            }
            for path in ["progress-socket", "control-socket"] {
                if let p = o.value(path), p.isEmpty || p.utf8.count > 107 { throw UsageError("--\(path) must be a socket path of 1 to 107 bytes") }
            }
            // The control socket beside a progress socket given by path, as the help says; else
            // both are found by SWUpdate's rules.
            let progress = o.value("progress-socket")
            let control = o.value("control-socket") ?? progress.map { path in
                (path.lastIndex(of: "/").map { String(path[...$0]) } ?? "") + SWUpdatePaths.controlName
            }
            return UpdatesConfiguration(source: .swupdate(SWUpdateSettings(progressSocket: progress, controlSocket: control, release: release)),
                                        socket: o.value("socket"))
        case "rauc":
            for option in ["progress-socket", "control-socket", "swupdate-version"] where o.value(option) != nil {
                throw UsageError("--\(option) is SWUpdate's: rauc takes only --socket")
            }
            return UpdatesConfiguration(source: .rauc, socket: o.value("socket"))
        case "bootc":
            for option in ["progress-socket", "control-socket", "swupdate-version"] where o.value(option) != nil {
                throw UsageError("--\(option) is SWUpdate's: bootc takes only --socket")
            }
            let command = Array(o.operands.dropFirst())
            guard !command.isEmpty, !command[0].isEmpty else { throw UsageError("bootc needs the command to run after --, such as: bootc -- bootc upgrade") }
            guard !command.contains(where: { $0 == "--progress-fd" || $0.hasPrefix("--progress-fd=") }) else {
                throw UsageError("the command must not have --progress-fd: splashhud-updates gives it its own")
            }
            return UpdatesConfiguration(source: .bootc(command), socket: o.value("socket"))
        case let other:
            throw UsageError("unknown SOURCE '\(other)': swupdate, rauc or bootc")
        }
    }
}
