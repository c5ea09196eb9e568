// SPDX-License-Identifier: MIT
// `splashhud` called `plymouth` (a link, as busybox's applets are): Debian 12's plymouth 22.02
// client, for initramfs images without Plymouth, so cryptsetup-initramfs's askpass, dracut's crypt
// module and every `plymouth …` line in boot scripts work unchanged against splashhudd --plymouth.
// Same command line, same bytes on the wire, same output and exit statuses (checked against the
// real client by PlymouthPersonalityTests). The path of a call: PlymouthArguments reads the line
// as ply-command-parser does; `action` picks what main() and the first command would do; the
// session connects and runs it, the prompts in PlymouthPrompts.
//
// Where it parts from the real client on purpose: an argument over 254 bytes is refused with a
// message (the real one asserts); with nothing to send and no daemon it exits 1 (the real one
// blocks for ever); only the first action of the line runs (the real one may start a second
// command 10 ms later if the first has not been answered yet).
import CommandLineOptions
import HUDProtocol
import LinuxSystem

enum PlymouthPersonality {
    /// What the command line asks for.
    enum Action {
        /// A request answered by ACK (any reply but NAK counts, as the real handlers see it).
        case acknowledged(UInt8, [UInt8]?, then: UInt8? = nil)
        case ping
        case password(PlymouthPasswordRequest)
        case question(command: String?, prompt: [UInt8]?, pause: Bool)
        case keystroke(keys: [UInt8]?, command: String?)
        /// An error message and exit 1 (change-mode without a mode, a percentage out of range).
        case refuse(String)
        /// Nothing to send.
        case none
    }

    /// `plymouth ARGUMENTS` (without the program name).
    static func main(_ arguments: [String]) -> Never {
        Files.ignoreBrokenPipe()  // a daemon gone mid-write is EPIPE, as the real client ignores SIGPIPE
        let line = PlymouthArguments.parse(arguments)
        guard line.understood else {
            CommandLineTool.printError(PlymouthHelpText.text)
            CommandLineTool.exit(1)
        }
        if arguments.isEmpty {
            CommandLineTool.printError(String(PlymouthHelpText.text.dropLast()))  // printed as is, no newline added
            CommandLineTool.exit(0)
        }
        if line.global.flag("help") { CommandLineTool.exitWithHelp(PlymouthHelpText.text) }
        if line.global.flag("get-splash-plugin-path") { CommandLineTool.exitWithHelp(pluginPath + "\n") }
        let action: Action
        do { action = try Self.action(line) } catch {
            CommandLineTool.printError("error: \(error.message)")
            CommandLineTool.exit(1)
        }
        let connection = PlymouthConnection.connect()
        if connection == nil {
            if line.global.flag("ping") || line.global.flag("has-active-vt") { CommandLineTool.exit(1) }
            if line.global.flag("wait") { CommandLineTool.exit(0) }
        }
        run(action, PlymouthSession(connection: connection, waiting: line.global.flag("wait")))
    }

    static func run(_ action: Action, _ session: PlymouthSession) -> Never {
        switch action {
        case .acknowledged(let command, let argument, let then):
            switch session.ask(command, argument, also: then) {
            case .reply(.nak), .reply(.unknown), .failed: session.requestExit(1)
            case .reply: session.requestExit(0)
            }
            session.finish()
        case .ping:
            // PLY_PING_TIMEOUT: a daemon that never answers is as good as none.
            switch session.ask(UInt8(ascii: "P"), deadline: MonotonicClock.nanoseconds() + 30_000_000_000) {
            case .reply(.nak), .reply(.unknown), .failed: session.requestExit(1)
            case .reply: session.requestExit(0)
            }
            session.finish()
        case .password(let request): session.askForPassword(request)
        case .question(let command, let prompt, let pause): session.askQuestion(command: command, prompt: prompt, pause: pause)
        case .keystroke(let keys, let command): session.watchKeystroke(keys: keys, command: command)
        case .refuse(let message):
            CommandLineTool.printError(message)
            CommandLineTool.exit(1)
        case .none: session.idle()
        }
    }

    /// Debian's PLYMOUTH_PLUGIN_PATH for this architecture (there are no plugins: SplashHUD draws).
    static var pluginPath: String {
        #if arch(x86_64)
        "/usr/lib/x86_64-linux-gnu/plymouth/"
        #elseif arch(arm64)
        "/usr/lib/aarch64-linux-gnu/plymouth/"
        #elseif arch(arm)
        "/usr/lib/arm-linux-gnueabihf/plymouth/"
        #elseif arch(i386)
        "/usr/lib/i386-linux-gnu/plymouth/"
        #else
        "/usr/lib/plymouth/"
        #endif
    }
}
