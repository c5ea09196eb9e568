// SPDX-License-Identifier: MIT
// `splashhud`, the client: each verb talks to a running splashhudd over its control socket. It
// runs in early boot (from an initramfs, a unit, a script), so it links no Foundation: a bare
// client verb is loading, one connect and one round trip. `demo`, `render` and `probe` are
// splashhud-tools, installed beside it, which this runs in its place. A module of its own so that
// the daemon's binary can be the client too (called `splashhud`, as in the initramfs).
import CEarlyStart
import CommandLineOptions
import HUDProtocol

public enum SplashHUDClient {
    static let spec = CommandSpec(
        name: "splashhud",
        abstract: "A progress HUD for Linux displays without a window system.",
        discussion: """
            The verbs talk to a running splashhudd over its control socket; `demo`, `render` and `probe` run \
            splashhud-tools (the demo on the best display, headless renders of scripts, the display probe). Exit \
            status: 0 applied, 64 bad arguments, 65 refused by the daemon, 69 no daemon running (or another user's \
            server at the abstract fallback), 73 a file could not be written, 74 an I/O error, 75 no answer within \
            --timeout, 76 not the protocol, 77 not allowed to use the socket. \
            --generate-manual writes this man page, --generate-completion-script bash|zsh|fish the shell's completions.
            """,
        options: [.flag("version", help: "Show the version.")], operands: "[<arguments> ...]", operandCount: nil)

    /// Every verb's table, the tools' first, for the help, the man page and completions.
    static var allVerbs: [CommandSpec] { toolsList + ClientVerb.all.map(\.spec) }

    /// Runs the verb that `CommandLine.arguments` names; returns when it succeeded, else exits with
    /// its status.
    public static func main() {
        _ = CEarlyStart_answeredBeforePoolReady()  // links CEarlyStart: no waiting for the random pool
        let arguments = Array(CommandLine.arguments.dropFirst())
        // Called `plymouth` (a link in an initramfs without Plymouth): Plymouth's own client.
        if let name = CommandLine.arguments.first, name.split(separator: "/").last == "plymouth" { PlymouthPersonality.main(arguments) }
        guard let first = arguments.first, !toolVerbs.contains(first) else { runTools(arguments) }
        if first == "--help" || first == "-h" || first == "help" {
            CommandLineTool.exitWithHelp(spec.helpText(program: "splashhud", verbs: allVerbs))
        }
        if first == "--version" { print(SplashHUDVersion.current); return }
        if arguments == ["--generate-manual"] {
            CommandLineTool.exitWithHelp(ManPage.page(for: spec, verbs: allVerbs,
                                                      seeAlso: ["splashhudd(8)", "splashhud-tools(1)", "splashhud.conf(5)", "plymouth(1)"],
                                                      version: SplashHUDVersion.current))
        }
        if first == "--generate-completion-script" {
            guard arguments.count == 2, let script = Completions.script(for: arguments[1], command: spec, verbs: allVerbs) else {
                CommandLineTool.exitWithUsageError(UsageError("--generate-completion-script takes bash, zsh or fish"), program: "splashhud",
                                                   usage: "splashhud --generate-completion-script bash|zsh|fish")
            }
            CommandLineTool.exitWithHelp(script)
        }
        let verb: ClientVerb, options: ParsedOptions, connection: ClientOptions
        do { (verb, options, connection) = try parse(arguments) } catch {
            let known = ClientVerb.named(first)
            CommandLineTool.exitWithUsageError(error, program: known.map { "splashhud \($0.name)" } ?? "splashhud",
                                               usage: known?.spec.shortUsage(program: "splashhud \(first)") ?? spec.shortUsage(program: "splashhud", verbs: true))
        }
        if options.wantsHelp { CommandLineTool.exitWithHelp(verb.spec.helpText(program: "splashhud \(verb.name)")) }
        do { try verb.run(options, connection) } catch {
            CommandLineTool.printError(error.message)
            CommandLineTool.exit(error.status)
        }
    }

    /// The verb `arguments` names, its options read and checked, and where its daemon is.
    static func parse(_ arguments: [String]) throws(UsageError) -> (ClientVerb, ParsedOptions, ClientOptions) {
        guard let name = arguments.first else { throw UsageError("no verb") }
        guard let verb = ClientVerb.named(name) else {
            throw UsageError("unknown verb '\(name)'; the verbs are \((toolVerbs + ClientVerb.names).joined(separator: ", "))")
        }
        let options = try OptionParser.parse(Array(arguments.dropFirst()), spec: verb.spec)
        if options.wantsHelp { return (verb, options, ClientOptions()) }
        let connection = try ClientOptions(options)
        try verb.check(options)
        return (verb, options, connection)
    }
}
