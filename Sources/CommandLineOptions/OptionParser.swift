// SPDX-License-Identifier: MIT
// Reads a command line against a CommandSpec with glibc's getopt_long, the parser every C daemon
// uses (GNU rules: options and operands in any order, `--name=value` or `--name value`, unique
// prefixes of a long name, `--` ends the options).
import CGetOpt
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

public enum OptionParser {
    /// Reads `words` (without the program's or verb's name) against `spec`.
    public static func parse(_ words: [String], spec: CommandSpec) throws(UsageError) -> ParsedOptions {
        let parsed = try scan(fillBareValues(words, options: spec.options), options: OptionTable(spec: spec))
        if parsed.wantsHelp { return parsed }
        if let range = spec.operandCount, !range.contains(parsed.operands.count) {
            if parsed.operands.count > range.upperBound {
                throw UsageError("unexpected argument '\(parsed.operands[range.upperBound])'")
            }
            throw UsageError("missing \(spec.operands.isEmpty ? "arguments" : spec.operands)")
        }
        return parsed
    }

    /// An option that may stand alone is given its bare value when no value follows it, so
    /// getopt can treat every option with a value alike (and `--plymouth /x` stays a value).
    /// Options outside, words inside: most options take no bare value and are passed over once,
    /// not once per word.
    static func fillBareValues(_ words: [String], options: [OptionSpec]) -> [String] {
        var out = words
        for o in options {
            guard case .optional(_, let bare) = o.value else { continue }
            let long = "--" + o.name
            var i = 0
            while i < out.count && out[i] != "--" {
                if out[i] == long && (i + 1 == out.count || out[i + 1].hasPrefix("-")) { out[i] = "--\(o.name)=\(bare)" }
                i += 1
            }
        }
        return out
    }

    /// A spec's options and then `--help`, by the index getopt hands back; read in place rather
    /// than copied into a new array with --help appended (the copy cost more than the scan).
    struct OptionTable {
        let spec: CommandSpec
        var count: Int { spec.options.count + 1 }
        /// `--help`'s index, after the spec's own options.
        var help: Int { spec.options.count }
        subscript(i: Int) -> OptionSpec { i < spec.options.count ? spec.options[i] : CommandSpec.help }

        /// The index of the option a getopt code stands for: a long option's val is 256 + its
        /// index, a short one is its letter.
        func index(for code: Int32) -> Int? {
            if code >= 256 { return code - 256 < count ? Int(code - 256) : nil }
            return (0..<count).first { self[$0].letter?.asciiValue.map(Int32.init) == code }
        }
    }

    /// One getopt_long scan over copies of the words, read into `ParsedOptions` (the first mistake
    /// throws, in command-line order); the copies are freed afterwards. Plain allocations, not
    /// arrays: this runs once per process, where each array type's first use costs more than the scan.
    static func scan(_ words: [String], options: OptionTable) throws(UsageError) -> ParsedOptions {
        // argv[0] is the program's place; getopt starts at 1.
        let argc = words.count + 1
        let argv = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: argc + 1)
        argv[0] = strdup("splashhud")
        // withCString, not the implicit String-to-pointer conversion, which copies each word
        // into a new array before strdup copies it again.
        for i in 0..<words.count { argv[i + 1] = words[i].withCString { strdup($0) } }
        argv[argc] = nil
        let long = UnsafeMutablePointer<CGetOpt.option>.allocate(capacity: options.count + 1)
        for i in 0..<options.count {
            let o = options[i]
            long[i] = CGetOpt.option(name: o.name.withCString { strdup($0) }, has_arg: o.value == .none ? no_argument : required_argument, flag: nil, val: 256 + Int32(i))
        }
        long[options.count] = CGetOpt.option(name: nil, has_arg: 0, flag: nil, val: 0)
        // Each getopt_long call takes at least one word: at most argc - 1 matches.
        let matches = UnsafeMutablePointer<CGetOpt_Match>.allocate(capacity: argc)
        defer {
            for i in 0..<argc { free(argv[i]) }
            for i in 0..<options.count { free(UnsafeMutableRawPointer(mutating: long[i].name)) }
            argv.deallocate()
            long.deallocate()
            matches.deallocate()
        }
        // ':' first: a missing value returns ':' rather than '?'.
        var short = ":"
        for i in 0..<options.count {
            guard let letter = options[i].letter else { continue }
            short.append(letter)
            if options[i].value != .none { short.append(":") }
        }
        var first: Int32 = 0
        let count = CGetOpt_scan(Int32(argc), argv, short, long, matches, Int32(argc), &first)
        var parsed = ParsedOptions()
        parsed.given.reserveCapacity(Int(count))
        for match in UnsafeBufferPointer(start: matches, count: Int(count)) {
            switch match.code {
            case Int32(UInt8(ascii: "?")):
                // A known long option in optopt: it was given a value it does not take.
                if match.failed >= 256, let i = options.index(for: match.failed) {
                    throw UsageError("--\(options[i].name) takes no value, got '\(word(match))'")
                }
                throw UsageError(match.failed > 0 && match.failed < 256
                    ? "unknown option '-\(Character(Unicode.Scalar(UInt8(match.failed))))'"
                    : "unknown option '\(word(match))'")
            case Int32(UInt8(ascii: ":")):
                throw UsageError("--\(options.index(for: match.failed).map { options[$0].name } ?? word(match)) needs a value")
            default:
                guard let i = options.index(for: match.code) else { throw UsageError("unknown option '\(word(match))'") }
                if i == options.help { parsed.wantsHelp = true; continue }
                parsed.given.append(ParsedOptions.Option(options[i].name, match.argument.map { String(cString: $0) } ?? ""))
            }
        }
        for i in Int(first)..<argc { parsed.operands.append(String(cString: argv[i]!)) }
        return parsed
    }

    /// The word a getopt call ended on, the one at fault.
    static func word(_ match: CGetOpt_Match) -> String { match.word.map { String(cString: $0) } ?? "?" }
}
