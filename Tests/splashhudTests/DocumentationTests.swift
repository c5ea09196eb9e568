// SPDX-License-Identifier: MIT
// The README and docs/ against the repository and the programs (issue 28): every relative link
// (and image) of the README, the pages under docs/ and the other READMEs they link leads to a file
// that is there, and every #anchor to a heading GitHub renders with that anchor; every command in the
// README's fenced `sh` blocks is one its program accepts, read by that program's own parser without
// running anything (the client's verbs and options, splashhud-tools' verbs through ArgumentParser,
// the daemon's options, Plymouth's command line as the `plymouth` personality reads it, the
// scripts' flags with `--help` appended, the units systemctl is given), and the same for
// SplashHUD's own commands in the sh blocks under docs/; and the README stays a short front door
// (under 200 lines). A second or two: nothing is built or started but
// `scripts/install.sh ... --help` and each program's `--help`.
import Foundation
import Testing
@testable import ClientCommand
@testable import splashhud_tools
@testable import splashhudd

@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    // MARK: Markdown, as much of it as links and headings need

    /// The lines of `text` outside fenced code blocks (``` or ~~~, up to three spaces in), with
    /// their 1-based numbers; and the fenced blocks, each with its info string and first line number.
    static func split(_ text: String) -> (prose: [(Int, String)], blocks: [(info: String, line: Int, body: [String])]) {
        var prose: [(Int, String)] = []
        var blocks: [(info: String, line: Int, body: [String])] = []
        var fence: (char: Character, count: Int)?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            let char = trimmed.first
            let run = char.map { c in trimmed.prefix { $0 == c }.count } ?? 0
            if let open = fence {
                if indent < 4, char == open.char, run >= open.count, trimmed.dropFirst(run).allSatisfy({ $0 == " " }) {
                    fence = nil
                } else {
                    blocks[blocks.count - 1].body.append(line)
                }
            } else if indent < 4, let c = char, c == "`" || c == "~", run >= 3 {
                fence = (c, run)
                blocks.append((String(trimmed.dropFirst(run)).trimmingCharacters(in: .whitespaces), index + 1, []))
            } else {
                prose.append((index + 1, line))
            }
        }
        return (prose, blocks)
    }

    /// `line` without its inline code spans (`…`, ``…``).
    static func withoutCodeSpans(_ line: String) -> String {
        var out = ""
        var rest = Substring(line)
        while let tick = rest.firstIndex(of: "`") {
            out += rest[..<tick]
            let run = rest[tick...].prefix { $0 == "`" }
            let after = rest[run.endIndex...]
            if let close = after.range(of: String(run)) {
                rest = after[close.upperBound...]
            } else {
                out += run
                rest = after
            }
        }
        return out + rest
    }

    /// The destinations of the inline links and images of `line` (`[text](dest "title")`,
    /// `![alt](dest)`, `<dest>` forms) and of a reference definition (`[name]: dest`).
    static func destinations(in line: String) throws -> [String] {
        // Swift's Regex is slow in a debug build: lines that cannot hold a link are passed by.
        guard line.contains("](") || line.contains("]:") else { return [] }
        let text = withoutCodeSpans(line)
        var out: [String] = []
        for match in text.matches(of: Patterns.inlineLink) {
            if let d = match.output[1].substring ?? match.output[2].substring { out.append(String(d)) }
        }
        if let definition = text.firstMatch(of: Patterns.definition), let d = definition.output[1].substring {
            out.append(String(d))
        }
        return out
    }

    /// The regular expressions, made once.
    enum Patterns {
        nonisolated(unsafe) static let inlineLink = try! Regex(#"\]\(\s*(?:<([^>]*)>|([^\s)]+))(?:\s+"[^"]*")?\s*\)"#)
        nonisolated(unsafe) static let definition = try! Regex(#"^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)"#)
        nonisolated(unsafe) static let linkText = try! Regex(#"!?\[([^\]]*)\]\([^)]*\)"#)
        nonisolated(unsafe) static let htmlTag = try! Regex(#"<[^>]+>"#)
        nonisolated(unsafe) static let heading = try! Regex(#"^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$"#)
        nonisolated(unsafe) static let htmlAnchor = try! Regex(#"<[a-zA-Z][^>]*\s(?:id|name)="([^"]+)""#)
        nonisolated(unsafe) static let scheme = try! Regex("^[a-zA-Z][a-zA-Z0-9+.-]*:")
        nonisolated(unsafe) static let lineAnchor = try! Regex("^L[0-9]+(-L[0-9]+)?$")
    }

    /// The anchor GitHub gives a heading: its rendered text lowercased, everything but letters,
    /// digits, marks, `_`, `-` and spaces dropped, spaces made hyphens.
    static func anchor(_ heading: String) -> String {
        var text = heading
        // Links and images render as their text; code spans as their content; emphasis and HTML tags vanish.
        if text.contains("](") { text = text.replacing(Patterns.linkText) { String($0.output[1].substring ?? "") } }
        if text.contains("<") { text = text.replacing(Patterns.htmlTag, with: "") }
        text = text.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "*", with: "")
        var out = ""
        for scalar in text.lowercased().unicodeScalars {
            if scalar == " " {
                out += "-"
            } else if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Every anchor a page has: its ATX headings' (a repeated one gets -1, -2, … as GitHub numbers
    /// them) and its HTML `id`/`name` attributes.
    static func anchors(of text: String) throws -> Set<String> {
        var out = Set<String>()
        var seen: [String: Int] = [:]
        for (_, line) in split(text).prose {
            if line.drop(while: { $0 == " " }).hasPrefix("#"), let match = line.firstMatch(of: Patterns.heading), let title = match.output[1].substring {
                let base = anchor(String(title))
                let n = seen[base, default: 0]
                seen[base] = n + 1
                out.insert(n == 0 ? base : "\(base)-\(n)")
            }
            guard line.contains("id=") || line.contains("name=") else { continue }
            for match in line.matches(of: Patterns.htmlAnchor) { if let id = match.output[1].substring { out.insert(String(id)) } }
        }
        return out
    }

    /// The pages checked: the README, every page under docs/, and every other Markdown file they
    /// link to inside the repository (boards/README.md, udev/README.md, …), transitively.
    static func pages() throws -> [String] {
        var pages = ["README.md"]
        let docs = root.appendingPathComponent("docs")
        if let walk = FileManager.default.enumerator(atPath: docs.path) {
            while let path = walk.nextObject() as? String { if path.hasSuffix(".md") { pages.append("docs/" + path) } }
        }
        var queue = pages
        while let page = queue.popLast() {
            for link in try links(of: page) where link.path.hasSuffix(".md") && !pages.contains(link.path) {
                if FileManager.default.fileExists(atPath: root.appendingPathComponent(link.path).path) {
                    pages.append(link.path); queue.append(link.path)
                }
            }
        }
        return pages.sorted()
    }

    struct Link { let page: String; let line: Int; let written: String; let path: String; let fragment: String? }

    /// The relative links of `page`, each resolved to a path from the repository's root (no scheme,
    /// no absolute path; `#x` alone names `page` itself).
    static func links(of page: String) throws -> [Link] {
        let text = try read(page)
        let directory = (page as NSString).deletingLastPathComponent
        var out: [Link] = []
        for (number, line) in split(text).prose {
            for destination in try destinations(in: line) {
                if destination.contains(":") && !destination.hasPrefix("#") && destination.firstMatch(of: Patterns.scheme) != nil { continue }
                if destination.hasPrefix("/") { continue }
                let parts = destination.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                let fragment = parts.count > 1 ? String(parts[1]) : nil
                let path = file.isEmpty ? page : normalized(directory.isEmpty ? file : directory + "/" + file)
                out.append(Link(page: page, line: number, written: destination, path: path, fragment: fragment))
            }
        }
        return out
    }

    /// `path` without `.` and empty components, each `..` taking the one before it away (a
    /// leading `..` stays: out of the repository).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    // MARK: Tests

    @Test func theReadmeIsShort() throws {
        let lines = try Self.read("README.md").filter { $0 == "\n" }  // as wc -l counts them
        #expect(lines.count < 200, "README.md has \(lines.count) lines: the front door stays under 200; move the rest under docs/")
    }

    /// scripts/install.sh copies docs/*.md and udev/README.md to PREFIX/share/doc/splashhud: each
    /// unit's Documentation= page must be one of them.
    @Test func everyUnitsDocumentationIsInstalled() throws {
        let units = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("udev").path)
            .filter { $0.hasSuffix(".service") || $0.hasSuffix(".path") }
        let prefix = "Documentation=file:///usr/share/doc/splashhud/"
        var named = 0
        for unit in units {
            for line in try Self.read("udev/" + unit).components(separatedBy: "\n") where line.hasPrefix("Documentation=") {
                #expect(line.hasPrefix(prefix), "\(unit): \(line) is not under /usr/share/doc/splashhud")
                let page = String(line.dropFirst(prefix.count))
                let installed = (page.hasPrefix("docs/") && page.hasSuffix(".md") && !page.dropFirst(5).contains("/")) || page == "udev/README.md"
                #expect(installed, "\(unit): install.sh does not install \(page)")
                #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(page).path), "\(unit): \(page) is missing")
                named += 1
            }
        }
        #expect(named >= units.count)
    }

    /// bash's brace expansion of one `{a,b,…}` group in a word, as the blocks name units with it.
    static func expandingBraces(_ word: String) -> [String] {
        guard let open = word.firstIndex(of: "{"), let close = word[open...].firstIndex(of: "}") else { return [word] }
        let choices = word[word.index(after: open)..<close].split(separator: ",", omittingEmptySubsequences: false)
        guard choices.count > 1 else { return [word] }
        return choices.map { String(word[..<open]) + $0 + String(word[word.index(after: close)...]) }
    }

    @Test func everyRelativeLinkResolves() throws {
        let pages = try Self.pages()
        #expect(pages.contains("docs/install.md") && pages.contains("boards/README.md"), "\(pages)")
        var anchors: [String: Set<String>] = [:]
        var checked = 0
        for page in pages {
            for link in try Self.links(of: page) {
                checked += 1
                let where_ = "\(link.page):\(link.line): (\(link.written))"
                #expect(!link.path.hasPrefix("../"), "\(where_) leads out of the repository")
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(link.path).path, isDirectory: &isDirectory)
                #expect(exists, "\(where_): no file \(link.path)")
                guard exists, let fragment = link.fragment, !fragment.isEmpty else { continue }
                guard link.path.hasSuffix(".md") else {
                    // GitHub's #L12 or #L12-L20 in a source file.
                    #expect(fragment.wholeMatch(of: Patterns.lineAnchor) != nil, "\(where_): an anchor in a file that is not Markdown")
                    continue
                }
                if anchors[link.path] == nil { anchors[link.path] = try Self.anchors(of: Self.read(link.path)) }
                let known = anchors[link.path] ?? []
                #expect(known.contains(fragment.removingPercentEncoding ?? fragment),
                        "\(where_): \(link.path) has no heading with the anchor #\(fragment)")
            }
        }
        #expect(checked > 100, "only \(checked) links found: is the link reader broken?")
    }

    // MARK: The README's commands

    /// The simple commands of a shell line, each as its words: quotes removed, `# comments`,
    /// redirections (`> file`) and environment assignments dropped, split at `&&`, `||`, `;` and `|`.
    static func commands(in line: String) -> [[String]] {
        var commands: [[String]] = [[]]
        var word: String?
        var redirect = false
        var chars = Array(line)[...]
        func end() {
            if let w = word {
                if redirect { redirect = false } else { commands[commands.count - 1].append(w) }
            }
            word = nil
        }
        while let c = chars.popFirst() {
            switch c {
            case "'":
                word = (word ?? "") + String(chars.prefix { $0 != "'" })
                chars = chars.drop { $0 != "'" }.dropFirst()
            case "\"":
                var w = word ?? ""
                while let d = chars.popFirst(), d != "\"" {
                    if d == "\\", let e = chars.first, "\"\\$`".contains(e) { w.append(chars.removeFirst()) } else { w.append(d) }
                }
                word = w
            case "\\":
                if let d = chars.popFirst() { word = (word ?? "") + String(d) }
            case "#" where word == nil:
                chars = []
            case " ", "\t":
                end()
            case ";", "&", "|":
                end()
                while let d = chars.first, d == "&" || d == "|" { chars.removeFirst() }
                commands.append([])
            case ">", "<":
                if let w = word, w.allSatisfy(\.isNumber) { word = nil }  // 2>&1: the 2 is no word
                end()
                while let d = chars.first, d == ">" || d == "&" { chars.removeFirst() }
                redirect = true
            default:
                word = (word ?? "") + String(c)
            }
        }
        end()
        return commands.map { words in Array(words.drop { $0.contains("=") && !$0.hasPrefix("-") }) }.filter { !$0.isEmpty }
    }

    /// The commands of the README's fenced `sh` blocks, with their line numbers.
    static func readmeCommands(_ page: String = "README.md") throws -> [(line: Int, words: [String])] {
        var out: [(line: Int, words: [String])] = []
        for block in split(try read(page)).blocks where ["sh", "shell", "bash"].contains(block.info) {
            for (offset, line) in block.body.enumerated() {
                for words in commands(in: line) {
                    let command = words.first == "sudo" ? Array(words.dropFirst()) : words
                    if !command.isEmpty { out.append((block.line + 1 + offset, command)) }
                }
            }
        }
        return out
    }

    @Test func theShellReaderSplitsAsTheShellDoes() {
        #expect(Self.commands(in: "a 'b c' \"d \\\"e\" && f|g ; h # i") == [["a", "b c", "d \"e"], ["f"], ["g"], ["h"]])
        #expect(Self.commands(in: "printf 'x\\n' > out.txt") == [["printf", "x\\n"]])
        #expect(Self.commands(in: "make 2>&1 | tee log") == [["make"], ["tee", "log"]])
        #expect(Self.normalized("docs/../udev/./README.md") == "udev/README.md" && Self.normalized("docs/../../x") == "../x")
        #expect(Self.commands(in: "X=1 splashhud send --text=\"a b\"   # c") == [["splashhud", "send", "--text=a b"]])
    }

    /// What the README's readers are told to run that is not SplashHUD's: accepted as written.
    static let otherPrograms: Set<String> = ["systemctl", "udevadm", "update-initramfs", "dracut", "apt", "apt-get", "printf", "echo", "swift", "sudo", "cat"]

    @Test func everyReadmeCommandIsAccepted() throws {
        let commands = try Self.readmeCommands()
        #expect(commands.count >= 15, "\(commands.count) commands found in README.md's sh blocks")
        var programs = Set<String>()
        for (line, words) in commands {
            programs.insert((words[0] as NSString).lastPathComponent)
            try Self.check(words, at: "README.md:\(line)", othersAllowed: Self.otherPrograms)
        }
        #expect(programs.isSuperset(of: ["splashhud", "splashhudd", "install.sh"]), "\(programs)")
    }

    /// The pages under docs/ show many more commands; SplashHUD's own (the client, the daemon,
    /// `plymouth`, the scripts) are held to the same parsers. Synopses (`[--size WxH]`) are passed by.
    @Test func everyCommandOfOursInTheDocsIsAccepted() throws {
        var checked = 0
        for page in try Self.pages() where page.hasPrefix("docs/") {
            for (line, words) in try Self.readmeCommands(page) where !words.contains(where: { $0.hasPrefix("[") || $0.hasSuffix("]") || $0 == "…" || $0 == "..." }) {
                let program = words[0]
                guard ["splashhud", "splashhudd", "plymouth"].contains(program) || program.hasPrefix("scripts/") || program.hasPrefix("./scripts/") else { continue }
                checked += 1
                try Self.check(words, at: "\(page):\(line)", othersAllowed: nil)
            }
        }
        #expect(checked > 10, "only \(checked) commands found under docs/")
    }

    /// `words` (a command) as its program reads it; a program not SplashHUD's must be in
    /// `othersAllowed` (nil: any).
    static func check(_ words: [String], at place: String, othersAllowed: Set<String>?) throws {
        let where_ = "\(place): \(words.joined(separator: " "))"
        let program = words[0], arguments = Array(words.dropFirst())
        switch program {
        case "splashhud":
            guard let verb = arguments.first else { Issue.record("\(where_): no verb"); return }
            if SplashHUDClient.toolVerbs.contains(verb) {
                #expect(throws: Never.self, "\(where_)") { _ = try SplashHUDTools.parseAsRoot(arguments) }
            } else {
                #expect(throws: Never.self, "\(where_)") { _ = try SplashHUDClient.parse(arguments) }
            }
        case "splashhudd":
            do {
                let options = try DaemonOptions(arguments: arguments)
                if let profile = options.profile, !profile.contains("/") {
                    #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("boards/\(profile).conf").path),
                            "\(where_): no board profile boards/\(profile).conf")
                }
            } catch {
                Issue.record("\(where_): \(error)")
            }
        case "plymouth":
            // The client's `plymouth` personality (a link named plymouth), which answers boot
            // scripts' calls through the daemon.
            #expect(PlymouthArguments.parse(arguments).understood, "\(where_)")
        case "systemctl" where othersAllowed != nil:
            // Our units must be those udev/ holds (install.sh installs them from there).
            for unit in arguments.dropFirst().flatMap(Self.expandingBraces) where unit.hasPrefix("splashhud") {
                #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("udev/\(unit)").path), "\(where_): no unit udev/\(unit)")
            }
        case _ where program.hasPrefix("scripts/") || program.hasPrefix("./scripts/"):
            let script = Self.root.appendingPathComponent(program).path
            #expect(FileManager.default.isExecutableFile(atPath: script), "\(where_): \(program) is not an executable file")
            // install.sh reads its flags in order and stops at --help: one it does not know
            // exits 64 first. The others run when called (builds, tests), so only their presence is checked.
            if program.hasSuffix("scripts/install.sh"), FileManager.default.isExecutableFile(atPath: script) {
                let (status, output) = try SplashBinary.run(script, arguments + ["--help"], timeout: 30)
                #expect(status == 0, "\(where_): \(output)")
            }
        default:
            #expect(othersAllowed?.contains(program) ?? true, "\(where_): \(program) is neither SplashHUD's nor a known program")
        }
    }

    /// The programs themselves, not only their parsers: each verb the README's commands use is one
    /// the built client shows help for, and the daemon starts as far as its help.
    @Test func theBuiltProgramsKnowTheReadmesVerbs() throws {
        var verbs = Set<String>()
        for (_, words) in try Self.readmeCommands() where words[0] == "splashhud" && words.count > 1 { verbs.insert(words[1]) }
        #expect(!verbs.isEmpty)
        let client = try SplashBinary.path()
        for verb in verbs.sorted() {
            let (status, output) = try SplashBinary.run(client, [verb, "--help"], timeout: 30)
            #expect(status == 0, "splashhud \(verb) --help: \(output)")
        }
        let (status, output) = try SplashBinary.run(try SplashBinary.path("splashhudd"), ["--help"], timeout: 30)
        #expect(status == 0 && output.contains("--profile"), "splashhudd --help: \(output)")
    }
}
