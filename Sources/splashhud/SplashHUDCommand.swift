// The `splashhud` command-line tool.
import ArgumentParser
import HUDProtocol

@main
struct SplashHUDCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splashhud",
        abstract: "A progress HUD for Linux displays without a window system.",
        discussion: """
            The client verbs talk to a running splashhudd over its control socket. Exit status: 0 applied, 64 bad
            arguments, 65 refused by the daemon, 69 no daemon running, 73 a file could not be written, 74 an I/O
            error, 75 no answer within --timeout, 76 not the protocol, 77 not allowed to use the socket.
            """,
        version: ControlProtocol.softwareVersion,
        subcommands: [
            Demo.self, Render.self, Probe.self,
            ShowVerb.self, ProgressVerb.self, ProgressOverVerb.self, SuccessVerb.self, ErrorVerb.self, InfoVerb.self,
            ImageVerb.self, StatusVerb.self, DismissVerb.self, PopVerb.self, ResetVerb.self, SetVerb.self, QuitVerb.self,
            PingVerb.self, VersionVerb.self, StateVerb.self, WaitVerb.self, SubscribeVerb.self, SnapshotVerb.self, SendVerb.self,
        ],
        defaultSubcommand: Demo.self)
}
