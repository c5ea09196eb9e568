// SPDX-License-Identifier: MIT
/// A command line read against its `CommandSpec`: the options' values by name, in the order
/// given, and the operands. The typed getters check a value and word the error as the user wrote it.
public struct ParsedOptions: Sendable {
    public var operands: [String]
    /// The options given, in command-line order.
    public var given: [Option]
    /// Whether `--help` / `-h` was given (the command prints its help and exits 0).
    public var wantsHelp: Bool

    /// One option as given: its name and value (a flag's is ""). A struct, not a `(name, value)`
    /// tuple: the first array of tuples a process makes builds the tuple's type at run time.
    public struct Option: Sendable, Equatable {
        public let name: String
        public let value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(operands: [String] = [], given: [Option] = [], wantsHelp: Bool = false) {
        self.operands = operands
        self.given = given
        self.wantsHelp = wantsHelp
    }

    public func flag(_ name: String) -> Bool { given.contains { $0.name == name } }

    /// The last value given (a repeated option overrides, as with getopt programs).
    public func value(_ name: String) -> String? { given.last { $0.name == name }?.value }

    /// Every value given, for a repeatable option.
    public func values(_ name: String) -> [String] { given.filter { $0.name == name }.map(\.value) }

    public func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw UsageError("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return n
    }

    /// A number above `range`'s lower bound (exclusive) and at most its upper bound.
    public func number(_ name: String, above low: Double, atMost high: Double) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let n = Double(text), n.isFinite, n > low, n <= high else {
            throw UsageError("--\(name) must be above \(Self.plain(low)) and at most \(Self.plain(high)), got '\(text)'")
        }
        return n
    }

    /// One of `choices`.
    public func choice(_ name: String, of choices: [String]) throws(UsageError) -> String? {
        guard let text = value(name) else { return nil }
        guard choices.contains(text) else {
            throw UsageError("--\(name) must be \(Self.list(choices)), got '\(text)'")
        }
        return text
    }

    static func plain(_ n: Double) -> String { n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n) }

    static func list(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }
}
