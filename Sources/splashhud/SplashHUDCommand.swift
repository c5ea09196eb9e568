// The `splashhud` command-line tool.
import ArgumentParser
import HUDProtocol

@main
struct SplashHUDCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splashhud",
        abstract: "A progress HUD for Linux displays without a window system.",
        subcommands: [Demo.self, Render.self, Probe.self, Show.self, Send.self],
        defaultSubcommand: Demo.self)
}
