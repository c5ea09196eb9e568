// SPDX-License-Identifier: MIT
// The systemd units in udev/: every ExecStart/ExecStop command line is one the real daemon or client
// accepts (DaemonOptions and SplashHUDClient.parse, so every option exists and every line is valid), the boot
// rules the units promise hold (never holding boot), and `systemd-analyze verify` finds nothing
// to say about them (a skipped test where it is not installed).
import Foundation
import HUDProtocol
import Testing
@testable import ClientCommand
@testable import splashhudd

@Suite("udev/ systemd units")
struct ServiceUnitTests {
    static let udev = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("udev").path
    static let units = ["splashhud.service", "splashhud-quit.service", "splashhud-initramfs.service", "splashhud-update-example.service",
                        "splashhud-ask-password.path", "splashhud-ask-password.service"] + shutdownUnits.map(\.unit)
    /// The splash of each end of the machine, its Plymouth mode, and the unit systemd ends it with.
    static let shutdownUnits = [("splashhud-poweroff.service", "shutdown", "poweroff"), ("splashhud-reboot.service", "reboot", "reboot"),
                                ("splashhud-halt.service", "shutdown", "halt"), ("splashhud-kexec.service", "shutdown", "kexec")]
        .map { (unit: $0.0, mode: $0.1, end: $0.2) }

    /// `key=value` lines by section, in order (systemd.syntax(7): comments with # or ;, no continuation used here).
    static func entries(_ unit: String) throws -> [(section: String, key: String, value: String)] {
        let text = try String(contentsOfFile: "\(udev)/\(unit)", encoding: .utf8)
        var section = ""
        var out: [(String, String, String)] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") { section = String(line.dropFirst().dropLast()); continue }
            guard let eq = line.firstIndex(of: "=") else { Issue.record("\(unit): not key=value: \(line)"); continue }
            out.append((section, String(line[..<eq]), String(line[line.index(after: eq)...])))
        }
        return out
    }

    /// systemd's command-line splitting for the simple forms used: words, "double" and 'single' quotes.
    static func words(_ command: String) -> [String] {
        var out: [String] = [], word = "", quote: Character?, inWord = false
        for c in command {
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c; inWord = true
            } else if c == " " || c == "\t" {
                if inWord { out.append(word); word = ""; inWord = false }
            } else {
                word.append(c); inWord = true
            }
        }
        if inWord { out.append(word) }
        return out
    }

    @Test(arguments: units)
    func execLinesParseWithTheRealCLI(unit: String) throws {
        let execs = try Self.entries(unit).filter { $0.key.hasPrefix("Exec") }
        #expect(!execs.isEmpty || unit.hasSuffix(".path"))
        for e in execs {
            var argv = Self.words(e.value)
            // Prefixes: "-" ignores failure, "@", "+", "!", ":" change how it runs; none changes the words.
            while let first = argv.first?.first, "-@+!:".contains(first) { argv[0].removeFirst() }
            if argv.first == "/bin/rm" {
                // The initramfs's hand-over file, read once (EnvironmentFile=); the mark of a
                // daemon it kept, gone with the boot's QUIT.
                #expect((unit == "splashhud.service" && e.key == "ExecStartPost" && argv == ["/bin/rm", "-f", "/run/initramfs/splashhud.env"])
                        || (unit == "splashhud-quit.service" && e.key == "ExecStartPost" && e.value.hasPrefix("-")
                            && argv == ["/bin/rm", "-f", "/run/splashhud/initramfs-daemon"]),
                        "\(unit) \(e.key): \(e.value)")
                continue
            }
            if unit == "splashhud-initramfs.service" {
                // Nothing to start (the daemon runs); its stop ends the kept daemon with the real
                // client's quit, only while the mark says it is there.
                if e.key == "ExecStart" { #expect(argv == ["/bin/true"]); continue }
                #expect(e.key == "ExecStop" && e.value.hasPrefix("-") && argv.count == 3 && argv[0] == "/bin/sh", "\(e.value)")
                let steps = (argv.last ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                #expect(steps.first == "[ -e /run/splashhud/initramfs-daemon ] || exit 0" && steps.last == "rm -f /run/splashhud/initramfs-daemon", "\(steps)")
                let quit = Self.words(steps.count == 3 ? steps[1] : "")
                #expect(quit.first == "/usr/bin/splashhud" && quit.dropFirst().first == "quit", "\(quit)")
                do {
                    let (_, _, connection) = try SplashHUDClient.parse(Array(quit.dropFirst()))
                    #expect(connection.timeout <= 1000, "\(e.value)")
                } catch { Issue.record("\(unit): `\(steps)` is refused by the client: \(error)") }
                continue
            }
            if argv.first == "/usr/bin/systemd-tty-ask-password-agent" {
                // systemd's own agent in its Plymouth mode, as Plymouth's unit runs it.
                #expect(unit == "splashhud-ask-password.service" && argv.dropFirst() == ["--watch", "--plymouth"], "\(unit): \(e.value)")
                continue
            }
            if argv.first == "/bin/sh" {
                // A shell line (the example's agent loop): it reports through the client.
                #expect(e.value.contains("/usr/bin/splashhud progress"), "\(unit) \(e.key)")
                continue
            }
            if argv.first == "/bin/mkdir" || argv.first == "/bin/touch" {
                // The quit's file that says the boot is over (90-splashhud.rules reads it).
                #expect(unit == "splashhud-quit.service" && e.value.hasPrefix("-"), "\(unit): \(e.value)")
                continue
            }
            #expect(e.value.hasPrefix("-") || e.key == "ExecStart", "\(unit) \(e.key): a missing splash must not fail the unit")
            if argv.first == "/usr/bin/splashhudd", let end = Self.shutdownUnits.first(where: { $0.unit == unit }) {
                #expect(e.key == "ExecStart" && argv.last == "$SPLASHHUD_OPTIONS", "\(unit): \(e.value)")
                do {
                    let daemon = try DaemonOptions(arguments: Array(argv.dropFirst().dropLast()))
                    #expect(daemon.mode == end.mode && daemon.surviveFinalKill, "\(unit): \(e.value)")
                    #expect(daemon.socket == "/run/splashhud/control" && daemon.plymouth == .auto, "\(unit): \(e.value)")
                } catch {
                    Issue.record("\(unit) \(e.key): `\(e.value)` is refused by splashhudd: \(error)")
                }
                continue
            }
            if argv.first == "/usr/bin/splashhudd" {
                #expect(unit == "splashhud.service" && e.key == "ExecStart")
                // "$SPLASHHUD_HANDOVER" (systemd splits the variable into words): none without the
                // initramfs, the resume script after its hand-over (what initramfs/splashhud-initrd writes).
                #expect(argv.last == "$SPLASHHUD_HANDOVER", "\(unit) \(e.key): \(e.value)")
                let base = Array(argv.dropFirst().filter { !$0.hasPrefix("$") })
                let handedOver = base + ["--script", "/run/initramfs/splashhud-resume.hud"]
                var parsed: [DaemonOptions] = []
                for args in [base, handedOver] {
                    do { parsed.append(try DaemonOptions(arguments: args)) } catch {
                        Issue.record("\(unit) \(e.key): `\(args.joined(separator: " "))` is refused by splashhudd: \(error)")
                    }
                }
                guard let daemon = parsed.first else { continue }
                #expect(daemon.socket == "/run/splashhud/control")
                #expect(daemon.psplashFifo == "/run/psplash_fifo")
                #expect(daemon.plymouth == .auto)
                #expect(daemon.plymouthPidFile == "/run/plymouth/pid")
                continue
            }
            #expect(argv.first == "/usr/bin/splashhud", "\(unit) \(e.key) runs \(argv.first ?? "nothing")")
            let connection: ClientOptions
            do { (_, _, connection) = try SplashHUDClient.parse(Array(argv.dropFirst())) } catch {
                Issue.record("\(unit) \(e.key): `\(e.value)` is refused by the client: \(error)")
                continue
            }
            #expect(connection.timeout <= 1000, "\(unit) \(e.key): a client call must never wait long")
        }
    }

    /// The daemon the initramfs keeps: the helper's mark is the path splashhud.service's condition
    /// skips on, the one splashhud-initramfs.service stands for, and the one the boot's QUIT
    /// removes; that unit ends the daemon before any shutdown splash starts.
    @Test func theKeptDaemonsMarkIsOnePathEverywhere() throws {
        let mark = "/run/splashhud/initramfs-daemon"
        let helper = try String(contentsOfFile: "\(Self.udev)/../initramfs/splashhud-initrd", encoding: .utf8)
        #expect(helper.contains("\nkept_mark=\(mark)\n"), "the helper writes another mark")
        let daemon = try Self.entries("splashhud.service"), kept = try Self.entries("splashhud-initramfs.service")
        #expect(daemon.contains { $0.key == "ConditionPathExists" && $0.value == "!\(mark)" })
        #expect(kept.contains { $0.key == "ConditionPathExists" && $0.value == mark })
        #expect(kept.contains { $0.key == "Conflicts" && $0.value == "shutdown.target" })
        #expect(kept.contains { $0.key == "DefaultDependencies" && $0.value == "no" })
        let before = Set(kept.filter { $0.key == "Before" }.flatMap { $0.value.split(separator: " ").map(String.init) })
        for end in Self.shutdownUnits { #expect(before.contains(end.unit), "\(end.unit) starts before the kept daemon has ended") }
        let quit = try Self.entries("splashhud-quit.service")
        #expect(quit.contains { $0.key == "Wants" && $0.value.split(separator: " ").contains("splashhud-initramfs.service") })
        #expect(quit.contains { $0.key == "ExecStartPost" && $0.value == "-/bin/rm -f \(mark)" })
    }

    @Test func theSplashNeverHoldsBoot() throws {
        let e = try Self.entries("splashhud.service")
        func value(_ key: String) -> String? { e.last { $0.key == key }?.value }
        #expect(value("DefaultDependencies") == "no")
        #expect(value("Type") == "notify")
        #expect(value("NotifyAccess") == "main")
        #expect(value("Restart") == "no")
        #expect(value("KillMode") == "mixed")
        #expect((Double(value("TimeoutStopSec") ?? "") ?? 99) <= 5)
        #expect((Double(value("TimeoutStartSec") ?? "") ?? 99) <= 10)
        let after = e.filter { $0.key == "After" }.flatMap { $0.value.split(separator: " ") }
        #expect(after.isEmpty, "ordered after \(after): the splash must not wait for other units")
        let quit = try Self.entries("splashhud-quit.service")
        #expect(quit.contains { $0.key == "Type" && $0.value == "oneshot" })
        #expect(quit.contains { $0.key == "WantedBy" && $0.value.contains("multi-user.target") })
        // Before every getty (agetty tells a splash it cannot reach within 1 s to quit).
        #expect(quit.contains { $0.key == "Before" && $0.value.split(separator: " ").contains("getty-pre.target") })
        #expect(quit.contains { $0.key == "Wants" && $0.value.split(separator: " ").contains("getty-pre.target") })
        // The daemon is in the boot's first transaction, so the quit's After= orders them (udev
        // alone reached the card after the quit on a slow boot); the quit leaves the file after
        // which the udev rule starts no splash (UdevRulesTests), before it sends QUIT.
        #expect(quit.contains { $0.key == "Wants" && $0.value.split(separator: " ").contains("splashhud.service") })
        #expect(quit.contains { $0.key == "After" && $0.value.split(separator: " ").contains("splashhud.service") })
        let pre = quit.filter { $0.key == "ExecStartPre" }.map(\.value)
        #expect(pre == ["-/bin/mkdir -p /run/splashhud", "-/bin/touch /run/splashhud/boot-ended"], "\(pre)")
        // Started that early, the daemon waits for its card rather than failing without one.
        #expect(value("ExecStart")?.split(separator: " ").contains("--wait-for-display") == true)
    }

    /// The shutdown's splash is never stopped by the shutdown transaction (no default dependencies,
    /// no conflict with shutdown.target), comes up before systemd's last unit ends the machine,
    /// after the boot's daemon has gone, and holds the shutdown 5 s at most.
    @Test(arguments: shutdownUnits.map(\.unit))
    func theShutdownSplashLastsToTheEnd(unit: String) throws {
        let end = try #require(Self.shutdownUnits.first { $0.unit == unit }).end
        let e = try Self.entries(unit)
        func values(_ key: String) -> [Substring] { e.filter { $0.key == key }.flatMap { $0.value.split(separator: " ") } }
        #expect(values("DefaultDependencies") == ["no"])
        #expect(values("Conflicts").isEmpty && values("Requires").isEmpty)
        #expect(values("Before") == ["systemd-\(end).service"])
        #expect(values("After").contains("splashhud.service"))
        #expect(values("WantedBy") == ["\(end).target"])
        #expect(values("Type") == ["notify"] && values("NotifyAccess") == ["main"])
        #expect((Double(values("TimeoutStartSec").first ?? "") ?? 99) <= 5)
        #expect(values("ConditionPathExists") == ["!/usr/sbin/plymouthd"], "Plymouth's own unit shows its screen where it is installed")
    }

    /// systemd-analyze, when installed (else the verify test shows as skipped).
    static let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(where: FileManager.default.isExecutableFile)

    /// systemd-analyze verify on copies whose command paths point at the built binary (it checks
    /// that they are executable). Unknown keys and bad values only print warnings, so any output
    /// about our units fails the test, and so does a nonzero status.
    @Test(.enabled(if: analyze != nil, "systemd-analyze is not installed"))
    func systemdAnalyzeVerifyIsSilent() throws {
        let analyze = try #require(Self.analyze)
        let binary = try SplashBinary.path()
        let dir = try temporaryDirectory("units")
        for unit in Self.units {
            let text = try String(contentsOfFile: "\(Self.udev)/\(unit)", encoding: .utf8)
            try text.replacingOccurrences(of: "/usr/bin/splashhud", with: binary).write(toFile: "\(dir)/\(unit)", atomically: true, encoding: .utf8)
        }
        let (status, output) = try SplashBinary.run(analyze, ["verify", "--man=no"] + Self.units.map { "\(dir)/\($0)" })
        #expect(status == 0, "systemd-analyze verify: \(output)")
        let ours = output.split(separator: "\n").filter { $0.contains("splashhud") }
        #expect(ours.isEmpty, "systemd-analyze verify: \(ours.joined(separator: "\n"))")
    }
}
