// SPDX-License-Identifier: MIT
// `splashhud-tools`: what runs on a workstation or in CI, never at boot — the demo, headless
// renders of scripts, and the display probe. `splashhud demo|render|probe` runs it, so the client
// that boots stays free of Foundation while these keep swift-argument-parser.
import ArgumentParser
import HUDProtocol

@main
struct SplashHUDTools: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splashhud-tools",
        abstract: "SplashHUD's tools: the demo, headless renders of scripts and the display probe.",
        discussion: "`splashhud demo|render|probe …` runs these; the other verbs of `splashhud` talk to a running splashhudd.",
        version: SplashHUDVersion.current,
        subcommands: [Demo.self, Render.self, Probe.self, Faces.self],
        defaultSubcommand: Demo.self)
}
