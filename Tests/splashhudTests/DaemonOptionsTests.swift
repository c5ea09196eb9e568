// SPDX-License-Identifier: MIT
// splashhudd's command line, read by CommandLineOptions: values, the options that may stand alone,
// the frame rate cap, and mistakes worded as written (exit 64 in the daemon).
import CommandLineOptions
import HUDProtocol
import Logging
import Testing
@testable import splashhudd

@Suite struct DaemonOptionsTests {
    @Test func valuesAndBareOptions() throws {
        let o = try DaemonOptions(arguments: ["--display", "memory:320x240", "--plymouth", "--psplash-fifo", "--retain",
                                              "--asset-dir", "/a", "--asset-dir=/b", "--fifo-mode", "620", "--duration", "2.5"])
        #expect(o.display == DisplayChoice(backend: .memory, size: (320, 240)))
        #expect(o.plymouth == .on && o.psplashFifo == DaemonOptions.psplashDefault && o.retain)
        #expect(o.assetDir == ["/a", "/b"] && o.fifoMode == 0o620 && o.duration == 2.5)
        #expect(try DaemonOptions(arguments: ["--psplash-fifo", "/run/x"]).psplashFifo == "/run/x")
        #expect(try DaemonOptions(arguments: ["--plymouth=auto"]).plymouth == .auto)
    }

    @Test func theFrameRateCap() throws {
        #expect(try DaemonOptions(arguments: []).maxFPS == nil)
        #expect(try DaemonOptions(arguments: ["--max-fps", "15"]).maxFPS == .some(15))
        #expect(try DaemonOptions(arguments: ["--max-fps=refresh"]).maxFPS == .some(nil))
        for bad in ["0", "1001", "fast", "-3"] {
            #expect(throws: UsageError.self, "\(bad)") { try DaemonOptions(arguments: ["--max-fps=\(bad)"]) }
        }
    }

    @Test func whenSystemdHearsReady() throws {
        #expect(try !DaemonOptions(arguments: []).readyWhenServing)
        #expect(try !DaemonOptions(arguments: ["--ready", "first-frame"]).readyWhenServing)
        #expect(try DaemonOptions(arguments: ["--ready=serving"]).readyWhenServing)
        #expect(throws: UsageError.self) { try DaemonOptions(arguments: ["--ready", "soon"]) }
    }

    @Test func mistakes() {
        #expect(throws: UsageError("--fifo-mode must be 600 or 620, got '666'")) { try DaemonOptions(arguments: ["--fifo-mode", "666"]) }
        #expect(throws: UsageError("each FIFO needs its own path")) { try DaemonOptions(arguments: ["--fifo", "/f", "--fbsplash-fifo", "/f"]) }
        #expect(throws: UsageError("--duration must be above 0 and at most 1000000, got '0'")) { try DaemonOptions(arguments: ["--duration", "0"]) }
        #expect(throws: UsageError("unexpected argument 'extra'")) { try DaemonOptions(arguments: ["extra"]) }
        #expect(throws: UsageError("--log-level: unknown level 'loud'")) { try DaemonOptions(arguments: ["--log-level", "loud"]) }
    }

    /// The help's defaults are written out (the table is built on every start); they must name
    /// the values the daemon uses.
    @Test func theHelpNamesTheDefaults() {
        func help(_ name: String) -> String { DaemonOptions.spec.options.first { $0.name == name }?.help ?? "" }
        #expect(help("socket").hasSuffix("Default: \(ControlProtocol.defaultSocketPath)."))
        #expect(help("psplash-fifo").hasSuffix("without a value: \(DaemonOptions.psplashDefault)."))
        #expect(help("asset-dir").hasSuffix("Default: \(DaemonOptions.defaultAssetDirectories.joined(separator: ", ")) and the profile's directory."))
    }

    @Test func wordsWrittenOutMatchTheirTypes() {
        #expect(PlymouthMode.names == PlymouthMode.allCases.map(\.rawValue))
        for level in Logger.Level.allCases { #expect(DaemonOptions.logLevel(level.rawValue) == level) }
        for word in ["", "Info", "warn", "info "] { #expect(DaemonOptions.logLevel(word) == nil, "\(word)") }
    }

    /// `--display` is read as `split(separator: ":", maxSplits: 1)` read it, odd inputs included.
    @Test func displayArgumentsReadAsSplitReadThem() {
        func bySplit(_ argument: String) -> DisplayChoice? {
            let parts = argument.split(separator: ":", maxSplits: 1).map(String.init)
            let value = parts.count == 2 ? parts[1] : nil
            switch parts.first ?? "" {
            case "auto" where value == nil: return DisplayChoice(backend: nil)
            case "drm": return DisplayChoice(backend: .drm, device: value)
            case "fbdev": return DisplayChoice(backend: .fbdev, device: value)
            case "memory":
                guard let value else { return DisplayChoice(backend: .memory) }
                return DisplayChoice.size(value).map { DisplayChoice(backend: .memory, size: $0) }
            default: return nil
            }
        }
        for argument in ["", ":", "::", "auto", "auto:", "auto:x", ":auto", "drm", "drm:", "drm:/dev/dri/card1", "::drm:a:b", "drm::",
                         "fbdev:/dev/fb1", "memory", "memory:320x240", "memory:", "memory:1x1", "memory::320x240", "nope", "DRM"] {
            #expect(DisplayChoice(argument: argument) == bySplit(argument), "\(argument)")
        }
    }
}
