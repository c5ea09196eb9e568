// SPDX-License-Identifier: MIT
// Shell completions (bash, zsh, fish) from the same tables the parser reads: the verbs of a
// command with verbs, and each one's options (or the options of a command without verbs).

public enum Completions {
    public static let shells = ["bash", "zsh", "fish"]

    /// The script for `shell`, nil for a shell we do not know. `verbs` empty: `command`'s options.
    public static func script(for shell: String, command: CommandSpec, verbs: [CommandSpec] = []) -> String? {
        let p = command.name
        let commandOptions = words(command.options + [CommandSpec.help])
        let function = "_" + p.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
        switch shell {
        case "bash":
            var s = "# bash completion for \(p)\n\(function)() {\n    local cur=${COMP_WORDS[COMP_CWORD]}\n"
            if verbs.isEmpty {
                s += "    COMPREPLY=($(compgen -W \"\(commandOptions)\" -- \"$cur\"))\n"
            } else {
                s += "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
                s += "        COMPREPLY=($(compgen -W \"\(verbs.map(\.name).joined(separator: " ")) \(commandOptions)\" -- \"$cur\"))\n        return\n    fi\n"
                s += "    case ${COMP_WORDS[1]} in\n"
                for v in verbs { s += "        \(v.name)) COMPREPLY=($(compgen -W \"\(words(v.options + [CommandSpec.help]))\" -- \"$cur\")) ;;\n" }
                s += "    esac\n"
            }
            return s + "}\ncomplete -o default -F \(function) \(p)\n"
        case "zsh":
            var s = "#compdef \(p)\n\(function)() {\n"
            if verbs.isEmpty {
                s += "    compadd -- \(commandOptions)\n"
            } else {
                s += "    if (( CURRENT == 2 )); then\n        compadd -- \(verbs.map(\.name).joined(separator: " ")) \(commandOptions)\n        return\n    fi\n"
                s += "    case $words[2] in\n"
                for v in verbs { s += "        \(v.name)) compadd -- \(words(v.options + [CommandSpec.help])) ;;\n" }
                s += "    esac\n"
            }
            return s + "}\n\(function) \"$@\"\n"
        case "fish":
            var s = "# fish completion for \(p)\n"
            if verbs.isEmpty {
                for o in command.options + [CommandSpec.help] { s += "complete -c \(p) \(fish(o))\n" }
            } else {
                for v in verbs { s += "complete -c \(p) -f -n '__fish_use_subcommand' -a \(v.name) -d \(quoted(v.abstract))\n" }
                for o in command.options + [CommandSpec.help] { s += "complete -c \(p) -n '__fish_use_subcommand' \(fish(o))\n" }
                for v in verbs {
                    for o in v.options + [CommandSpec.help] {
                        s += "complete -c \(p) -n '__fish_seen_subcommand_from \(v.name)' \(fish(o))\n"
                    }
                }
            }
            return s
        default:
            return nil
        }
    }

    static func words(_ options: [OptionSpec]) -> String { options.map { "--" + $0.name }.joined(separator: " ") }

    static func fish(_ o: OptionSpec) -> String {
        "-l \(o.name)" + (o.value == .none ? "" : " -r") + " -d \(quoted(firstSentence(o.help)))"
    }

    static func firstSentence(_ text: String) -> String {
        var s = String(text.prefix { $0 != ":" && $0 != "." && $0 != "(" })
        while s.last == " " { s.removeLast() }
        return s
    }

    /// Single-quoted for a shell.
    static func quoted(_ text: String) -> String { "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'" }
}
