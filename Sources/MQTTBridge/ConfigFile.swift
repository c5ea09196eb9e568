// SPDX-License-Identifier: MIT
// /etc/splashhud/mqtt.conf: the same keys as the long options, one `key = value` (or `key value`)
// a line, `#` comments and blank lines skipped. Its settings come before the command line's, so
// an option given on both wins from the command line; the repeatable ones (`group`, `allow`) add up.
// `config` and the one-shot `remove-discovery` are command-line only.
import CommandLineOptions

enum ConfigFile {
    static let defaultPath = "/etc/splashhud/mqtt.conf"

    /// The options in `text`, checked against `spec` (an unknown key is an error with its line).
    static func options(_ text: String, spec: CommandSpec, path: String) throws(UsageError) -> [ParsedOptions.Option] {
        var out: [ParsedOptions.Option] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            let key = line.prefix { $0 != " " && $0 != "\t" && $0 != "=" }
            var value = line.dropFirst(key.count).drop { $0 == " " || $0 == "\t" }
            if value.hasPrefix("=") { value = value.dropFirst().drop { $0 == " " || $0 == "\t" } }
            while value.last == " " || value.last == "\t" || value.last == "\r" { value = value.dropLast() }
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
            guard let option = spec.options.first(where: { $0.name == key }), key != "config", key != "remove-discovery" else {
                throw UsageError("\(path):\(n + 1): unknown key '\(key)'")
            }
            guard option.value == .none || !value.isEmpty else { throw UsageError("\(path):\(n + 1): '\(key)' needs a value") }
            out.append(ParsedOptions.Option(String(key), String(value)))
        }
        return out
    }
}
