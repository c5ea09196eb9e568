// SPDX-License-Identifier: MIT
// udev/90-splashhud.rules: its syntax, checked twice. Our own reading of udev(7)'s grammar (every
// `KEY[{attr}]OP"value"` pair, which operators each key takes, GOTO targets that exist) runs
// everywhere. Debian 12's udev (252) has no `udevadm verify` (new in 254), but `udevadm test` parses
// every rules file it loads and names the file and line of each error; it only reads the system's
// rules folders, so it runs in a private mount namespace with a tmpfs over /run/udev/rules.d
// (`unshare -m`, root only; reported as a skipped test where it cannot run).
import Foundation
import Testing

/// One `KEY{attr}OP"value"` of a rule line.
struct UdevPair: Equatable {
    var key: String
    var attribute: String?
    var op: String
    var value: String
}

enum UdevRulesSyntax {
    /// Keys that only match, keys that only assign, and keys that may do both (udev(7)).
    static let matchOnly: Set<String> = ["ACTION", "DEVPATH", "KERNEL", "KERNELS", "SUBSYSTEM", "SUBSYSTEMS", "DRIVER", "DRIVERS",
                                         "ATTRS", "TAGS", "TEST", "PROGRAM", "RESULT", "CONST", "SYMLINK", "NAME", "SYSCTL"]
    static let assignOnly: Set<String> = ["OWNER", "GROUP", "MODE", "SECLABEL", "RUN", "LABEL", "GOTO", "OPTIONS", "IMPORT", "WAIT_FOR"]
    static let both: Set<String> = ["ATTR", "ENV", "TAG", "SYMLINK", "NAME", "SYSCTL"]
    static let withAttribute: Set<String> = ["ATTR", "ATTRS", "ENV", "TEST", "IMPORT", "RUN", "SYSCTL", "CONST", "SECLABEL"]
    static let operators = ["==", "!=", "+=", "-=", ":=", "="]

    /// The pairs of one rule line, or what is wrong with it.
    static func pairs(_ line: String) throws -> [UdevPair] {
        var out: [UdevPair] = []
        var s = Substring(line)
        func skipBlanks() { s = s.drop { $0 == " " || $0 == "\t" } }
        while true {
            skipBlanks()
            let key = s.prefix { $0.isUppercase || $0 == "_" }
            guard !key.isEmpty else { throw UdevSyntaxError("expected a KEY at '\(s)'") }
            s = s.dropFirst(key.count)
            var attribute: String?
            if s.first == "{" {
                guard let close = s.firstIndex(of: "}") else { throw UdevSyntaxError("unclosed { after \(key)") }
                attribute = String(s[s.index(after: s.startIndex)..<close])
                s = s[s.index(after: close)...]
            }
            skipBlanks()
            guard let op = operators.first(where: { s.hasPrefix($0) }) else { throw UdevSyntaxError("no operator after \(key)") }
            s = s.dropFirst(op.count)
            skipBlanks()
            guard s.first == "\"", let end = s.dropFirst().firstIndex(of: "\"") else { throw UdevSyntaxError("\(key): value must be \"quoted\"") }
            let value = String(s[s.index(after: s.startIndex)..<end])
            s = s[s.index(after: end)...]
            out.append(UdevPair(key: String(key), attribute: attribute, op: op, value: value))
            skipBlanks()
            if s.isEmpty { return out }
            guard s.first == "," else { throw UdevSyntaxError("expected ',' between pairs at '\(s)'") }
            s = s.dropFirst()
        }
    }

    /// Every problem in a rules file, as "line N: what"; empty when it is well formed.
    static func problems(_ text: String) -> [String] {
        var problems: [String] = [], labels: Set<String> = [], gotos: [(Int, String)] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasSuffix("\\") { problems.append("line \(i + 1): continuation lines are not used here"); continue }
            do {
                for p in try pairs(line) {
                    let known = matchOnly.contains(p.key) || assignOnly.contains(p.key) || both.contains(p.key)
                    if !known { problems.append("line \(i + 1): unknown key \(p.key)"); continue }
                    let matching = p.op == "==" || p.op == "!="
                    if matching && assignOnly.contains(p.key) { problems.append("line \(i + 1): \(p.key) cannot match (\(p.op))") }
                    if !matching && matchOnly.contains(p.key) && !both.contains(p.key) { problems.append("line \(i + 1): \(p.key) cannot be assigned (\(p.op))") }
                    if p.attribute == nil && withAttribute.contains(p.key) && p.key != "RUN" && p.key != "IMPORT" && p.key != "TEST" {
                        problems.append("line \(i + 1): \(p.key) needs {attribute}")
                    }
                    if p.key == "LABEL" { labels.insert(p.value) }
                    if p.key == "GOTO" { gotos.append((i + 1, p.value)) }
                }
            } catch { problems.append("line \(i + 1): \(error)") }
        }
        for (line, label) in gotos where !labels.contains(label) { problems.append("line \(line): GOTO \(label) has no LABEL") }
        return problems
    }
}

struct UdevSyntaxError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

@Suite("udev/ rules", .serialized)
struct UdevRulesTests {
    static let rules = ServiceUnitTests.udev + "/90-splashhud.rules"

    @Test func ourReaderAcceptsTheRulesAndCatchesBrokenOnes() throws {
        let text = try String(contentsOfFile: Self.rules, encoding: .utf8)
        #expect(UdevRulesSyntax.problems(text) == [])
        // The reader is not a rubber stamp: each of these is a real mistake.
        #expect(UdevRulesSyntax.problems("SUBSYSTEM=\"drm\"\n") == ["line 1: SUBSYSTEM cannot be assigned (=)"])
        #expect(UdevRulesSyntax.problems("KERNEL==\"card0\" TAG+=\"systemd\"\n").first?.contains("expected ','") == true)
        #expect(UdevRulesSyntax.problems("GOTO=\"nowhere\"\n") == ["line 1: GOTO nowhere has no LABEL"])
        #expect(UdevRulesSyntax.problems("ENV=\"x\"\n") == ["line 1: ENV needs {attribute}"])
        #expect(UdevRulesSyntax.problems("SUBSYSTEM==drm\n").first?.contains("quoted") == true)
    }

    @Test func rulesStartTheSplashForCardsAndPlainFramebuffers() throws {
        let text = try String(contentsOfFile: Self.rules, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        let rules = try lines.map(UdevRulesSyntax.pairs)
        func wants(_ r: [UdevPair]) -> Bool {
            r.contains(UdevPair(key: "TAG", attribute: nil, op: "+=", value: "systemd"))
                && r.contains(UdevPair(key: "ENV", attribute: "SYSTEMD_WANTS", op: "+=", value: "splashhud.service"))
        }
        let drm = try #require(rules.first { $0.contains(UdevPair(key: "SUBSYSTEM", attribute: nil, op: "==", value: "drm")) })
        #expect(wants(drm))
        let kernel = try #require(drm.first { $0.key == "KERNEL" }).value
        #expect(kernel == "card[0-9]|card[0-9][0-9]", "card nodes only: not renderD*, not card0-HDMI-A-1")
        let fb = try #require(rules.first { $0.contains(UdevPair(key: "SUBSYSTEM", attribute: nil, op: "==", value: "graphics")) })
        #expect(wants(fb))
        #expect(fb.contains(UdevPair(key: "ATTR", attribute: "name", op: "!=", value: "*drmfb")))
        #expect(rules.first?.contains(UdevPair(key: "ACTION", attribute: nil, op: "!=", value: "add")) == true)
        // Once the boot is over (splashhud-quit.service's file), no card starts it: the test comes
        // before every rule that wants the unit and skips them all.
        let ended = try #require(rules.firstIndex { $0.contains(UdevPair(key: "TEST", attribute: nil, op: "==", value: "/run/splashhud/boot-ended")) })
        #expect(rules[ended].contains(UdevPair(key: "GOTO", attribute: nil, op: "=", value: "splashhud_end")))
        #expect(rules.indices.filter { wants(rules[$0]) }.allSatisfy { $0 > ended })
    }

    /// Whether udevadm's own parser can be run here: it needs root (for the private mount
    /// namespace), udevadm, unshare and /sys. Without them the test shows as skipped; with them any
    /// failure to run it fails the test.
    static let udevadmTestRuns = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/udevadm")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        && FileManager.default.fileExists(atPath: "/sys/devices/virtual/mem/null")

    /// udevadm's own parser, in a private mount namespace so the system's rules are not touched.
    @Test(.enabled(if: udevadmTestRuns, "needs root, /usr/bin/udevadm, /usr/bin/unshare and /sys (our own reader still runs)"))
    func udevadmTestParsesTheRulesWithoutErrors() throws {
        /// udevadm's lines about our file; the run itself must succeed (it does even for a file with
        /// errors: those are only reported).
        func check(_ rulesFile: String) throws -> [String] {
            let script = """
                set -e
                mkdir -p /run/udev/rules.d
                mount -t tmpfs splashhud-rules-test /run/udev/rules.d
                cp '\(rulesFile)' /run/udev/rules.d/90-splashhud.rules
                udevadm test --action=add /devices/virtual/mem/null 2>&1
                """
            let (status, output) = try SplashBinary.run("/usr/bin/unshare", ["-m", "sh", "-c", script])
            #expect(status == 0, "unshare -m + udevadm test failed with status \(status): \(output)")
            return output.split(separator: "\n").map(String.init).filter { $0.contains("90-splashhud.rules") }
        }
        let lines = try check(Self.rules)
        #expect(lines.contains { $0.contains("Reading rules file") }, "udevadm did not read our file: \(lines)")
        let errors = lines.filter { !$0.contains("Reading rules file") }
        #expect(errors.isEmpty, "udevadm: \(errors.joined(separator: "\n"))")
        // And it does complain about a broken copy, so silence above means something.
        let broken = NSTemporaryDirectory() + "splashhud-broken-\(UInt32.random(in: 0...UInt32.max)).rules"
        try "SUBSYSTEM=\"drm\", TAG+=\"systemd\"\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let brokenLines = try check(broken)
        #expect(brokenLines.contains { $0.contains(":1") && $0.lowercased().contains("invalid") }, "\(brokenLines)")
    }
}
