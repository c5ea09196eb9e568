// SPDX-License-Identifier: MIT
// The program: options, then the bridge until SIGTERM. Exit status 0 after a clean end, 64 for
// a bad command line or configuration file, 71 when it cannot start (EX_OSERR).
import CommandLineOptions
import HUDProtocol

public enum BridgeCommand {
    public static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--version"] { print(SplashHUDVersion.current); return }
        if arguments == ["--generate-manual"] {
            CommandLineTool.exitWithHelp(ManPage.page(for: BridgeOptions.spec, seeAlso: ["splashhud(1)", "splashhudd(8)", "mosquitto_pub(1)"],
                                                      version: SplashHUDVersion.current))
        }
        let configuration: BridgeConfiguration
        do {
            guard let c = try BridgeOptions.parse(arguments) else {
                CommandLineTool.exitWithHelp(BridgeOptions.spec.helpText(program: "splashhud-mqtt", version: SplashHUDVersion.current))
            }
            configuration = c
        } catch {
            CommandLineTool.exitWithUsageError(error, program: "splashhud-mqtt", usage: BridgeOptions.spec.shortUsage(program: "splashhud-mqtt"))
        }
        do {
            let bridge = try Bridge(configuration)
            CommandLineTool.exit(try bridge.run())
        } catch {
            Bridge.log("cannot run: \(error)")
            CommandLineTool.exit(71)
        }
    }
}
