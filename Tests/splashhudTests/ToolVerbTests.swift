// SPDX-License-Identifier: MIT
// The client's table of splashhud-tools' verbs (SplashHUDClient.toolsList, for completions and the
// man page) against the tools' own definitions: ArgumentParser's description of each subcommand
// (`_dumpHelp`, the JSON of --experimental-dump-help), and RenderOutput for render's outputs.
import CommandLineOptions
import Foundation
import Testing
@testable import ClientCommand
@testable import splashhud_tools

@Suite struct ToolVerbTests {
    /// One option as both sides describe it: `--name`, `-l`, `<value>` (nil for a flag) and its help.
    struct Listed: Equatable, CustomStringConvertible {
        let name: String
        let letter: String?
        let value: String?
        let help: String
        var description: String { "--\(name)" + (letter.map { " -\($0)" } ?? "") + (value.map { " <\($0)>" } ?? "") + ": \(help)" }
    }

    /// What ArgumentParser shows for each subcommand: its options but --help (every client table
    /// gets --help), and its displayed operands.
    static func toolsArguments() throws -> [String: (options: [Listed], operands: [String])] {
        let root = try #require(JSONSerialization.jsonObject(with: Data(SplashHUDTools._dumpHelp().utf8)) as? [String: Any])
        let subcommands = try #require((root["command"] as? [String: Any])?["subcommands"] as? [[String: Any]])
        var out: [String: (options: [Listed], operands: [String])] = [:]
        for command in subcommands {
            let name = try #require(command["commandName"] as? String)
            var options: [Listed] = [], operands: [String] = []
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool == true {
                let kind = argument["kind"] as? String
                let valueName = argument["valueName"] as? String ?? ""
                if kind == "positional" { operands.append(valueName); continue }
                let names = argument["names"] as? [[String: String]] ?? []
                guard let long = names.first(where: { $0["kind"] == "long" })?["name"], long != "help" else { continue }
                options.append(Listed(name: long, letter: names.first { $0["kind"] == "short" }?["name"],
                                      value: kind == "option" ? valueName : nil, help: argument["abstract"] as? String ?? ""))
            }
            out[name] = (options, operands)
        }
        return out
    }

    static func listed(_ o: OptionSpec) -> Listed {
        switch o.value {
        case .none: Listed(name: o.name, letter: o.letter.map(String.init), value: nil, help: o.help)
        case .required(let v), .optional(let v, _): Listed(name: o.name, letter: o.letter.map(String.init), value: v, help: o.help)
        }
    }

    @Test func theClientListsEachToolsOptionsAsTheToolDefinesThem() throws {
        let tools = try Self.toolsArguments()
        #expect(SplashHUDClient.toolsList.map(\.name) == SplashHUDClient.toolVerbs)
        for spec in SplashHUDClient.toolsList {
            let tool = try #require(tools[spec.name], "splashhud-tools has no \(spec.name)")
            let listed = spec.options.map(Self.listed).filter { spec.name != "render" || !RenderOutput.Option.allCases.map(\.rawValue).contains($0.name) }
            #expect(listed == tool.options, "\(spec.name): the client lists \(listed), splashhud-tools defines \(tool.options)")
            #expect(spec.operandHelp.map(\.name) == tool.operands, "\(spec.name)")
        }
    }

    /// Render's outputs are read by RenderOutput, in order: the client lists them all, and each
    /// one it lists is one RenderOutput reads (it wants the option's value rather than refusing it).
    @Test func renderListsItsOutputOptions() throws {
        let render = try #require(SplashHUDClient.toolsList.first { $0.name == "render" })
        for name in RenderOutput.Option.allCases.map(\.rawValue) {
            let option = try #require(render.options.first { $0.name == name }, "render's table lacks --\(name)")
            #expect(option.value != .none)
            #expect(throws: RenderOutputError.missingValue("--\(name)")) { try RenderOutput.parse(["--\(name)"]) }
        }
        #expect(throws: RenderOutputError.unexpected("--nope")) { try RenderOutput.parse(["--nope"]) }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsOfferTheToolsOptions(shell: String) throws {
        let script = try #require(Completions.script(for: shell, command: SplashHUDClient.spec, verbs: SplashHUDClient.allVerbs))
        for option in ["no-screen", "profile", "scale", "background", "apng", "all-formats"] {
            #expect(script.contains(option), "\(shell): --\(option)")
        }
    }
}
