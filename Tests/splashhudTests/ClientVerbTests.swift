// SPDX-License-Identifier: MIT
// The client's verb tables: a call builds only the verb it names (`ClientVerb.named`, a switch),
// so the list --help shows and the switch must name the same verbs.
import CommandLineOptions
import HUDProtocol
import Testing
@testable import ClientCommand

@Suite struct ClientVerbTests {
    @Test func everyListedVerbIsFoundByItsName() {
        #expect(Set(ClientVerb.names).count == ClientVerb.names.count, "a verb listed twice")
        for name in ClientVerb.names { #expect(ClientVerb.named(name)?.name == name, "\(name)") }
        #expect(ClientVerb.all.map(\.name) == ClientVerb.names)
    }

    @Test func theSocketsHelpNamesTheDefault() {
        #expect(ClientOptions.specs.first { $0.name == "socket" }?.help.hasSuffix("else \(ControlProtocol.defaultSocketPath)).") == true)
    }

    @Test func otherNamesAreNoVerb() {
        for name in SplashHUDClient.toolVerbs + ["", "nope", "Show", "--help"] { #expect(ClientVerb.named(name) == nil, "\(name)") }
    }

    @Test func aVerbIsReadAndCheckedBeforeAnythingIsSent() throws {
        let (verb, options, connection) = try SplashHUDClient.parse(["progress", "0.5", "Copying", "files", "--timeout=250"])
        #expect(verb.name == "progress" && options.operands == ["0.5", "Copying", "files"] && connection.timeout == 250)
        #expect(commandLine("progress", ["0.5"], text: ["Copying", "files"]) == "progress 0.5 \"Copying files\"")
        #expect(commandLine("show", [], text: []) == "show")
        #expect(throws: UsageError("unknown verb 'nope'; the verbs are demo, render, probe, \(ClientVerb.names.joined(separator: ", "))")) {
            try SplashHUDClient.parse(["nope"])
        }
        #expect(throws: UsageError.self) { try SplashHUDClient.parse(["progress", "lots"]) }
    }

    /// The image verbs' flags, in either order, go into the line after the verb; a text that is one
    /// of them is quoted, so the daemon reads it as the text.
    @Test func imageFlagsGoIntoTheLine() throws {
        let (verb, options, _) = try SplashHUDClient.parse(["error", "--support", "--stay", "Image", "invalid"])
        #expect(verb.name == "error" && options.operands == ["Image", "invalid"])
        let line = commandLine(ClientVerb.staying("error", options), [], text: options.operands)
        #expect(line == "error --stay --support \"Image invalid\"")
        #expect(try CommandParser.parse(line) == .image(.error, status: "Image invalid", stays: true, support: true))
        #expect(commandLine("error --support", [], text: ["--support"]) == "error --support \"--support\"")
        #expect(commandLine("info", [], text: ["--stay"]) == "info \"--stay\"")
        let (_, plain, _) = try SplashHUDClient.parse(["image", "/a.png"])
        #expect(ClientVerb.staying("image", plain) == "image")
    }
}
