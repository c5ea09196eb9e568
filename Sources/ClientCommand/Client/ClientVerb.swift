// SPDX-License-Identifier: MIT
// A verb of the client: its command-line table and what it does with what was read. Most verbs
// send one line of the command language and expect `ok` (`line`); the others read replies.
// A call builds only its own verb (`named`); every verb's table is built only for --help, the
// man page, completions and the unknown-verb error.
import CommandLineOptions
import HUDClient
import HUDProtocol

struct ClientVerb: Sendable {
    let spec: CommandSpec
    /// Runs the verb; standard output gets what it prints.
    let run: @Sendable (ParsedOptions, ClientOptions) throws(ClientFailure) -> Void
    /// Checks what `run` cannot know until it runs (a request line that would be refused).
    var check: @Sendable (ParsedOptions) throws(UsageError) -> Void = { _ in }

    var name: String { spec.name }

    /// Every verb's name, in the order --help lists them.
    static let names = hudVerbNames + queryVerbNames

    /// The verb called `name`, nil for none.
    static func named(_ name: String) -> ClientVerb? { hudVerb(named: name) ?? queryVerb(named: name) }

    /// Every verb, in the order of `names`.
    static var all: [ClientVerb] { names.map { named($0)! } }

    /// A verb that sends the line `line` makes of its operands and options, and expects `ok`.
    static func line(_ spec: CommandSpec, _ line: @escaping @Sendable (ParsedOptions) -> String) -> ClientVerb {
        ClientVerb(spec: spec, run: { p, connection throws(ClientFailure) in
            let client = try connection.connect()
            do throws(ControlClientError) { _ = try client.request(line(p)) } catch { throw ClientFailure(error) }
        }, check: { p throws(UsageError) in
            do { _ = try ControlRequest.parse(line(p)) } catch { throw UsageError("\(error)") }
        })
    }

    /// `spec` with the connection's options, as every verb takes them.
    static func spec(_ name: String, _ abstract: String, discussion: String = "", options: [OptionSpec] = [], operands: String = "",
                     operandHelp: [OperandHelp] = [], count: ClosedRange<Int>? = 0...0) -> CommandSpec {
        CommandSpec(name: name, abstract: abstract, discussion: discussion, options: options + ClientOptions.specs,
                    operands: operands, operandHelp: operandHelp, operandCount: count)
    }
}

/// `verb` + `fixed` words + the rest joined as one text word (absent when empty). Appended word by
/// word: `joined(separator:)` is not specialized for arrays of strings, and its first call looks up
/// its generic types at run time, which cost more than the rest of the verb.
func commandLine(_ verb: String, _ fixed: [String], text: [String] = []) -> String {
    var line = verb
    for word in fixed {
        line += " "
        line += CommandParser.word(word)
    }
    guard var joined = text.first else { return line }
    for word in text.dropFirst() {
        joined += " "
        joined += word
    }
    line += " "
    // A text that is an image's flag (--stay, --support) is quoted: unquoted, the verb takes it as the flag.
    line += CommandParser.imageFlagWords.contains(joined) ? CommandParser.quote(joined) : CommandParser.word(joined)
    return line
}
