// SPDX-License-Identifier: MIT
import CommandLineOptions
import Testing

@Suite struct OptionParserTests {
    static let spec = CommandSpec(
        name: "tool", abstract: "A tool.",
        options: [
            .option("socket", "path", help: "The socket."),
            .option("timeout", "ms", help: "How long."),
            .flag("retain", help: "Keep it."),
            .option("asset-dir", "dir", help: "Repeatable."),
            OptionSpec("plymouth", value: .optional("mode", bare: "on"), help: "Plymouth."),
            .flag("verbose", letter: "v", help: "Talk."),
        ],
        operands: "<text> ...", operandHelp: [OperandHelp("text", "Words.")], operandCount: 0...3)

    func parse(_ words: [String]) throws(UsageError) -> ParsedOptions { try OptionParser.parse(words, spec: Self.spec) }

    @Test func valuesEitherWayAndOperandsAnywhere() throws {
        let p = try parse(["hello", "--socket", "/run/s", "--timeout=250", "world", "--retain"])
        #expect(p.value("socket") == "/run/s")
        #expect(try p.integer("timeout", in: 1...1000) == 250)
        #expect(p.flag("retain") && !p.flag("verbose"))
        #expect(p.operands == ["hello", "world"])
        #expect(!p.wantsHelp)
    }

    @Test func doubleDashEndsOptions() throws {
        let p = try parse(["--retain", "--", "--socket", "-v"])
        #expect(p.operands == ["--socket", "-v"])
        #expect(p.value("socket") == nil && !p.flag("verbose"))
    }

    @Test func repeatedOptionsKeepEveryValueAndTheLastWins() throws {
        let p = try parse(["--asset-dir", "/a", "--asset-dir=/b", "--socket", "x", "--socket", "y"])
        #expect(p.values("asset-dir") == ["/a", "/b"])
        #expect(p.value("socket") == "y")
    }

    @Test func uniquePrefixesAndLetters() throws {
        let p = try parse(["--sock", "/s", "-v"])
        #expect(p.value("socket") == "/s" && p.flag("verbose"))
    }

    @Test func anOptionalValueMayStandAlone() throws {
        #expect(try parse(["--plymouth"]).value("plymouth") == "on")
        #expect(try parse(["--plymouth", "--retain"]).value("plymouth") == "on")
        #expect(try parse(["--plymouth", "auto"]).value("plymouth") == "auto")
        #expect(try parse(["--plymouth=off"]).value("plymouth") == "off")
        #expect(try parse(["--", "--plymouth"]).operands == ["--plymouth"])
    }

    @Test func mistakesAreWordedAsWritten() {
        #expect(throws: UsageError("unknown option '--nope'")) { try parse(["--nope"]) }
        #expect(throws: UsageError("unknown option '-x'")) { try parse(["-x"]) }
        #expect(throws: UsageError("--socket needs a value")) { try parse(["--socket"]) }
        #expect(throws: UsageError("--retain takes no value, got '--retain=yes'")) { try parse(["--retain=yes"]) }
        #expect(throws: UsageError("unexpected argument 'd'")) { try parse(["a", "b", "c", "d"]) }
        #expect(throws: UsageError("--timeout must be a whole number from 1 to 1000, got '0'")) {
            try parse(["--timeout", "0"]).integer("timeout", in: 1...1000)
        }
        #expect(throws: UsageError("--plymouth must be on, off or auto, got 'maybe'")) {
            try parse(["--plymouth", "maybe"]).choice("plymouth", of: ["on", "off", "auto"])
        }
    }

    @Test func missingOperandsNameThem() {
        let spec = CommandSpec(name: "image", abstract: "", operands: "<path> [<status> ...]", operandCount: 1...Int.max)
        #expect(throws: UsageError("missing <path> [<status> ...]")) { try OptionParser.parse([], spec: spec) }
        #expect(throws: Never.self) { try OptionParser.parse(["/x.png", "a", "b"], spec: spec) }
    }

    @Test func helpWinsOverEverythingElse() throws {
        #expect(try parse(["a", "b", "c", "d", "--help"]).wantsHelp)
        #expect(try parse(["-h"]).wantsHelp)
    }

    @Test func helpTextListsEveryOptionAndOperand() {
        let text = Self.spec.helpText(program: "tool", version: "1.0")
        for needle in ["OVERVIEW: A tool.", "USAGE:\n  tool [--socket <path>]", "<text>", "--socket <path>", "--plymouth[=<mode>]",
                       "-v, --verbose", "--help", "--version"] {
            #expect(text.contains(needle), "\(needle)")
        }
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    /// getopt's state is global: parses on many threads at once must not see each other's.
    @Test func parsesInParallelStayApart() async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<64 {
                group.addTask {
                    let p = try OptionParser.parse(["--socket", "/s\(i)", "op\(i)", "--timeout=\(i + 1)"], spec: Self.spec)
                    return p.value("socket") == "/s\(i)" && p.operands == ["op\(i)"] && p.value("timeout") == "\(i + 1)"
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }
}
