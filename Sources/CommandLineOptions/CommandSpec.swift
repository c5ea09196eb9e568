// SPDX-License-Identifier: MIT
// What a command accepts, as a table: its options (GNU long options, a few with a letter) and its
// operands. The table drives both the parse (glibc's getopt_long) and the --help text, so the two
// never disagree. Foundation-free on purpose: the daemon and the client run in early boot.

/// One option: `--name`, `--name VALUE` / `--name=VALUE`, or a value that may be left out.
public struct OptionSpec: Sendable {
    public enum Value: Sendable, Equatable {
        /// A flag: present or not.
        case none
        /// Takes a value, shown as `<name>` in the help.
        case required(String)
        /// May stand alone (`--plymouth`), meaning `bare`; a following word that is not an
        /// option is its value, as with `.required`.
        case optional(String, bare: String)
    }

    public let name: String
    public let letter: Character?
    public let value: Value
    public let help: String

    public init(_ name: String, letter: Character? = nil, value: Value = .none, help: String) {
        self.name = name
        self.letter = letter
        self.value = value
        self.help = help
    }

    /// An option with a value: `.option("socket", "path", help: …)`.
    public static func option(_ name: String, _ valueName: String, letter: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name, letter: letter, value: .required(valueName), help: help)
    }

    /// A flag: `.flag("retain", help: …)`.
    public static func flag(_ name: String, letter: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name, letter: letter, help: help)
    }
}

/// One operand's help: `<name>` and what it is. (A struct, not a `(name, help)` tuple: the first
/// array of tuples a process makes builds the tuple's type at run time.)
public struct OperandHelp: Sendable {
    public let name: String
    public let help: String

    public init(_ name: String, _ help: String) {
        self.name = name
        self.help = help
    }
}

/// A command (or one verb of a command with verbs): its name, what it does, its options and operands.
public struct CommandSpec: Sendable {
    public let name: String
    public let abstract: String
    public let discussion: String
    public let options: [OptionSpec]
    /// The operands as the usage line shows them, e.g. `<fraction> [<status> ...]`.
    public let operands: String
    /// Each operand's help, in order.
    public let operandHelp: [OperandHelp]
    /// How many operands are required, and at most (nil: no limit).
    public let operandCount: ClosedRange<Int>?

    public init(name: String, abstract: String, discussion: String = "", options: [OptionSpec] = [], operands: String = "",
                operandHelp: [OperandHelp] = [], operandCount: ClosedRange<Int>? = 0...0) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.operands = operands
        self.operandHelp = operandHelp
        self.operandCount = operandCount
    }

    /// Every command answers `--help` (and `-h`).
    static let help = OptionSpec.flag("help", letter: "h", help: "Show this help.")
}
