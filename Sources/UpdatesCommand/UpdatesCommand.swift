// SPDX-License-Identifier: MIT
// The program: the source the command line names, the sink to the daemon, until stopped (bootc's:
// until its command ends, with its exit status). Exit status 64 for a bad command line, 71 when it
// cannot start (EX_OSERR), 78 when the configured release cannot be what the socket speaks (EX_CONFIG).
import CommandLineOptions
import HUDProtocol
import LinuxSystem

public enum UpdatesCommand {
    static let program = "splashhud-updates"

    public static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--version"] { print(SplashHUDVersion.current); return }
        let configuration: UpdatesConfiguration
        do {
            guard let c = try UpdatesOptions.parse(arguments) else {
                CommandLineTool.exitWithHelp(UpdatesOptions.spec.helpText(program: program, version: SplashHUDVersion.current))
            }
            configuration = c
        } catch {
            CommandLineTool.exitWithUsageError(error, program: program, usage: UpdatesOptions.spec.shortUsage(program: program))
        }
        Files.ignoreBrokenPipe()
        do {
            let sink = try HUDSink(socket: configuration.socket)
            guard sink.start() else { Log.say("cannot start a thread"); CommandLineTool.exit(71) }
            switch configuration.source {
            case .swupdate(let settings):
                CommandLineTool.exit(try SWUpdateFollower(settings: settings, sink: sink).run())
            case .rauc:
                CommandLineTool.exit(try RAUCFollower(sink: sink).run())
            case .bootc(let command):
                CommandLineTool.exit(BootcRunner(command: command, sink: sink).run())
            }
        } catch {
            Log.say("cannot run: \(error)")
            CommandLineTool.exit(71)
        }
    }
}

enum Log {
    /// One line on standard error (the journal, under systemd).
    static func say(_ text: String) { CommandLineTool.printError("\(UpdatesCommand.program): \(text)") }
}
