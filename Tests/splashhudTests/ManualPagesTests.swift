// SPDX-License-Identifier: MIT
// The man pages scripts/install.sh installs against the programs themselves: every option the
// daemon's, the client's (each verb's) and splashhud-tools' help shows is in the generated pages,
// and every section and key a board profile may have is in the hand-written splashhud.conf(5). The
// options are read from the running programs (--help, --experimental-dump-help), not from the
// tables the pages are made from, so an option a page misses fails here.
import Foundation
import Testing
@testable import Board

@Suite struct ManualPagesTests {
    /// Every `--name` word in `text` (a help text), without the dashes.
    static func longOptions(in text: String) -> Set<String> {
        var out = Set<String>()
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i + 2 < scalars.count {
            let atWordStart = i == 0 || !(CharacterSet.alphanumerics.contains(scalars[i - 1]) || scalars[i - 1] == "-")
            if atWordStart && scalars[i] == "-" && scalars[i + 1] == "-" && CharacterSet.lowercaseLetters.contains(scalars[i + 2]) {
                var j = i + 2
                var name = ""
                while j < scalars.count, CharacterSet.lowercaseLetters.contains(scalars[j]) || CharacterSet.decimalDigits.contains(scalars[j]) || scalars[j] == "-" {
                    name.unicodeScalars.append(scalars[j]); j += 1
                }
                while name.hasSuffix("-") { name.removeLast() }
                out.insert(name)
                i = j
            } else {
                i += 1
            }
        }
        return out
    }

    /// How roff writes `--name`: each hyphen as `\-`.
    static func roff(_ option: String) -> String {
        "\\-\\-" + option.replacingOccurrences(of: "-", with: "\\-")
    }

    static func page(_ program: String) throws -> String {
        let (status, page) = try SplashBinary.run(try SplashBinary.path(program), ["--generate-manual"])
        #expect(status == 0)
        return page
    }

    @Test func bridgePageHasEveryOption() throws {
        let (status, help) = try SplashBinary.run(try SplashBinary.path("splashhud-mqtt"), ["--help"])
        #expect(status == 0)
        let page = try Self.page("splashhud-mqtt")
        #expect(page.hasPrefix(".TH SPLASHHUD-MQTT 1 "))
        let options = Self.longOptions(in: help)
        for required in ["broker", "device", "group", "heartbeat", "config"] {
            #expect(options.contains(required), "splashhud-mqtt --help lacks --\(required)")
        }
        for option in options.sorted() {
            #expect(page.contains(Self.roff(option)), "splashhud-mqtt(1) lacks --\(option)")
        }
    }

    @Test func daemonPageHasEveryOption() throws {
        let (status, help) = try SplashBinary.run(try SplashBinary.path("splashhudd"), ["--help"])
        #expect(status == 0)
        let page = try Self.page("splashhudd")
        #expect(page.hasPrefix(".TH SPLASHHUDD 8 "))
        let options = Self.longOptions(in: help)
        for required in ["display", "profile", "socket", "plymouth-pid-file", "max-fps", "generate-manual", "generate-completion-script"] {
            #expect(options.contains(required), "splashhudd --help lacks --\(required)")
        }
        for option in options.sorted() {
            #expect(page.contains(Self.roff(option)), "splashhudd(8) lacks --\(option)")
        }
    }

    /// The verbs `splashhud --help` lists, each verb's options from its own `--help` (the tools'
    /// through splashhud-tools, which the client runs for them).
    @Test func clientPageHasEveryVerbAndOption() throws {
        let client = try SplashBinary.path()
        let (status, help) = try SplashBinary.run(client, ["--help"])
        #expect(status == 0)
        let verbs = help.components(separatedBy: "VERBS:\n").last?.components(separatedBy: "\n\n").first?
            .split(separator: "\n").compactMap { line in line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.split(separator: " ").first.map(String.init) : nil } ?? []
        for verb in ["show", "progress", "state", "subscribe", "send", "ask-password", "demo", "render", "probe"] {
            #expect(verbs.contains(verb), "splashhud --help lacks \(verb): \(verbs)")
        }
        let page = try Self.page("splashhud")
        #expect(page.hasPrefix(".TH SPLASHHUD 1 "))
        for option in Self.longOptions(in: help).sorted() {
            #expect(page.contains(Self.roff(option)), "splashhud(1) lacks --\(option)")
        }
        for verb in verbs {
            #expect(page.contains(".SS \(verb.replacingOccurrences(of: "-", with: "\\-"))\n"), "splashhud(1) lacks the verb \(verb)")
            let (verbStatus, verbHelp) = try SplashBinary.run(client, [verb, "--help"])
            #expect(verbStatus == 0, "splashhud \(verb) --help: \(verbHelp)")
            for option in Self.longOptions(in: verbHelp).sorted() {
                #expect(page.contains(Self.roff(option)), "splashhud(1) lacks \(verb) --\(option)")
            }
        }
    }

    /// splashhud-tools' options as ArgumentParser describes them (what its own page, written by
    /// swift-argument-parser's generate-manual, is made from) are in the client's page too, for the
    /// verbs the client runs it for (`faces`, the initramfs helper's, is in splashhud-tools(1) only).
    @Test func toolsOptionsAreInTheClientPage() throws {
        let (status, json) = try SplashBinary.run(try SplashBinary.path("splashhud-tools"), ["--experimental-dump-help"])
        #expect(status == 0)
        let root = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let subcommands = try #require((root["command"] as? [String: Any])?["subcommands"] as? [[String: Any]])
        let page = try Self.page("splashhud")
        var seen = 0
        for command in subcommands where ["demo", "render", "probe"].contains(command["commandName"] as? String ?? "") {
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool == true {
                for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                    let option = try #require(name["name"] as? String)
                    seen += 1
                    #expect(page.contains(Self.roff(option)), "splashhud(1) lacks \(command["commandName"] ?? "?") --\(option)")
                }
            }
        }
        #expect(seen > 5)
    }

    /// splashhud.conf(5), written by hand: every section and key the profile parser knows.
    @Test func profilePageHasEverySectionAndKey() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/man/splashhud.conf.5"), encoding: .utf8)
        #expect(page.contains(".TH SPLASHHUD.CONF 5 "))
        for (section, keys) in BoardProfileParser.sections {
            let parts = page.components(separatedBy: ".SH [\(section)]\n")
            #expect(parts.count == 2, "splashhud.conf(5) lacks a section [\(section)]")
            guard parts.count == 2 else { continue }
            let body = parts[1].components(separatedBy: "\n.SH ").first ?? ""
            for key in keys {
                let written = key.replacingOccurrences(of: "-", with: "\\-")
                #expect(body.contains(".B \(written)\n") || body.contains(".BR \(written) ") || body.contains(" \(written) ") || body.contains(" \(written)\n"),
                        "splashhud.conf(5) lacks [\(section)] \(key)")
            }
        }
    }
}
