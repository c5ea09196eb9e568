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
        let options = spec.options + [CommandSpec.help]
        let words = fillBareValues(words, options: options)
        let scanned = scan(words, options: options)
        var parsed = ParsedOptions(operands: scanned.operands)
        for match in scanned.matches {
            switch match.code {
            case Int32(UInt8(ascii: "?")):
                // A known long option in optopt: it was given a value it does not take.
                if match.failed >= 256, let o = optionSpec(for: match.failed, in: options) {
                    throw UsageError("--\(o.name) takes no value, got '\(match.word ?? "?")'")
                }
                throw UsageError(match.failed > 0 && match.failed < 256
                    ? "unknown option '-\(Character(Unicode.Scalar(UInt8(match.failed))))'"
                    : "unknown option '\(match.word ?? "?")'")
            case Int32(UInt8(ascii: ":")):
                let name = optionSpec(for: match.failed, in: options)?.name ?? match.word ?? "?"
                throw UsageError("--\(name) needs a value")
            default:
                guard let o = optionSpec(for: match.code, in: options) else { throw UsageError("unknown option '\(match.word ?? "?")'") }
                if o.name == CommandSpec.help.name { parsed.wantsHelp = true; continue }
                parsed.given.append((o.name, match.argument ?? ""))
            }
        }
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
    static func fillBareValues(_ words: [String], options: [OptionSpec]) -> [String] {
        var out = words
        var i = 0
        while i < out.count && out[i] != "--" {
            for o in options {
                guard case .optional(_, let bare) = o.value, out[i] == "--" + o.name else { continue }
                if i + 1 == out.count || out[i + 1].hasPrefix("-") { out[i] = "--\(o.name)=\(bare)" }
            }
            i += 1
        }
        return out
    }

    /// The option a getopt code stands for: a long option's val is 256 + its index, a short one is its letter.
    static func optionSpec(for code: Int32, in options: [OptionSpec]) -> OptionSpec? {
        if code >= 256 { return Int(code - 256) < options.count ? options[Int(code - 256)] : nil }
        return options.first { $0.letter?.asciiValue.map(Int32.init) == code }
    }

    struct Match {
        let code: Int32
        let failed: Int32
        let argument: String?
        let word: String?
    }

    /// One getopt_long scan over copies of the strings, freed afterwards.
    static func scan(_ words: [String], options: [OptionSpec]) -> (matches: [Match], operands: [String]) {
        // argv[0] is the program's place; getopt starts at 1.
        var argv: [UnsafeMutablePointer<CChar>?] = (["splashhud"] + words).map { strdup($0) }
        argv.append(nil)
        var names: [UnsafeMutablePointer<CChar>?] = []
        var long: [CGetOpt.option] = []
        for (i, o) in options.enumerated() {
            let name = strdup(o.name)
            names.append(name)
            long.append(CGetOpt.option(name: name, has_arg: o.value == .none ? no_argument : required_argument, flag: nil, val: 256 + Int32(i)))
        }
        long.append(CGetOpt.option(name: nil, has_arg: 0, flag: nil, val: 0))
        defer {
            argv.forEach { free($0) }
            names.forEach { free($0) }
        }
        // ':' first: a missing value returns ':' rather than '?'.
        var short = ":"
        for o in options { if let l = o.letter { short += String(l) + (o.value == .none ? "" : ":") } }
        var raw = [CGetOpt_Match](repeating: CGetOpt_Match(), count: words.count + 1)
        var first: Int32 = 0
        let argc = Int32(words.count + 1)
        let count = argv.withUnsafeMutableBufferPointer { args in
            long.withUnsafeBufferPointer { longs in
                CGetOpt_scan(argc, args.baseAddress, short, longs.baseAddress, &raw, Int32(raw.count), &first)
            }
        }
        let matches = raw.prefix(Int(count)).map {
            Match(code: $0.code, failed: $0.failed, argument: $0.argument.map { String(cString: $0) }, word: $0.word.map { String(cString: $0) })
        }
        let operands = argv[Int(first)..<Int(argc)].map { String(cString: $0!) }
        return (matches, operands)
    }
}
