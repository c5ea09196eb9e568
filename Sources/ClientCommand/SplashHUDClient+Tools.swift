// SPDX-License-Identifier: MIT
// The verbs of splashhud-tools (`demo`, `render`, `probe`), which the client runs in its place.
// The client never reads their options, but lists them for completions and the man page: the
// table below is a copy of splashhud-tools' ArgumentParser definitions (the client links no
// ArgumentParser), which ToolVerbTests compares with them, so a change on either side fails
// until the other follows. `render`'s outputs (`--at`, `--apng`, `--out`) are read by
// RenderOutput rather than ArgumentParser, and checked against it.
import CommandLineOptions
import LinuxSystem

extension SplashHUDClient {
    /// The verbs of splashhud-tools.
    static let toolVerbs = ["demo", "render", "probe"]

    static var toolsList: [CommandSpec] {
        let version = OptionSpec.flag("version", help: "Show the version.")
        return [
            CommandSpec(
                name: "demo", abstract: "Play a HUD update sequence and write its pictures (splashhud-tools; the default without a verb).",
                options: [
                    .option("out", "out", letter: "o", help: "Folder for the pictures (created if missing)."),
                    .option("size", "size", help: "Screen size in pixels, WxH."),
                    .option("fps", "fps", help: "Frames per second of the animated PNG."),
                    .flag("no-screen", help: "Only the memory framebuffer: do not try to play the demo on a real screen."),
                    .option("profile", "profile", help: "Board profile for the real screen (a name in boards/ or a .conf file)."),
                    version,
                ]),
            CommandSpec(
                name: "render", abstract: "Render a timed script headless to PNGs (splashhud-tools).",
                options: [
                    .option("profile", "profile", help: "Board profile whose look the frames take (a name in boards/ or a .conf file)."),
                    .option("size", "size", help: "Screen size in pixels, WxH (default: the profile's mode, else 1280x720)."),
                    .option("scale", "scale", help: "Pixels per point (default: the profile's, else 1)."),
                    .option("format", "format", help: "Scanout pixel format the frames are shown in (ARGB8888, XRGB8888, ABGR8888, XBGR8888, RGB888, BGR888, RGB565, BGR565; default: the profile's, else XRGB8888)."),
                    .option("rotate", "rotate", help: "Panel rotation: 0, 90, 180 or 270 (clockwise; default: the profile's, else 0)."),
                    .option("background", "background", help: "What lies behind the HUD: a colour #RRGGBB[AA] or a PNG file (scaled to fill; default: the profile's screen and logo, else #000000)."),
                    .option("events", "events", help: "Write the event log here (`-` for standard output)."),
                    version,
                    .option("at", "seconds", help: "Write the frame at this many seconds to the --out file that follows."),
                    .option("apng", "from:to:fps", help: "Write an animated PNG of that range, at FPS frames a second, to the --out file that follows."),
                    .option("out", "file", help: "The PNG file for the --at or --apng before it."),
                ],
                operands: "<script>", operandHelp: [OperandHelp("script", "The script of timed commands (`-` for standard input).")]),
            CommandSpec(
                name: "probe", abstract: "List the displays this machine has and what each can do (splashhud-tools).",
                options: [.flag("all-formats", help: "List every format of every plane (default: at most 12 per plane)."), version]),
        ]
    }

    /// Runs splashhud-tools from beside this program (the demo when no verb is given).
    static func runTools(_ arguments: [String]) -> Never {
        let here = ProcessImage.executablePath() ?? CommandLine.arguments[0]
        let tools = String(here[..<(here.lastIndex(of: "/") ?? here.startIndex)]) + "/splashhud-tools"
        let error = ProcessImage.replace(with: tools, arguments: [tools] + arguments)
        CommandLineTool.printError("splashhud: \(arguments.first ?? "demo") is a verb of splashhud-tools, which could not be run (\(error)); "
            + "install it beside splashhud, or use the client's verbs (splashhud --help)")
        CommandLineTool.exit(69)  // EX_UNAVAILABLE
    }
}
