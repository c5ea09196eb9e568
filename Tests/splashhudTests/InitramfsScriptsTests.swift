// SPDX-License-Identifier: MIT
// The initramfs integration's shell scripts (initramfs/): each parses with the shell that runs it
// (sh for initramfs-tools' hook and scripts, the helper and dracut's hooks; bash for dracut's
// module-setup.sh), shellcheck finds nothing (when installed), each is executable (initramfs-tools
// skips scripts that are not), their prerequisites order them as the hand-over needs, and the
// helper decides a real root takes the splash over only when that root will start it. The images
// themselves are built and booted by QEMUTests/InitramfsEndToEndTests.
import Foundation
import Testing

@Suite("initramfs/ scripts")
struct InitramfsScriptsTests {
    static let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("initramfs").path
    static let helper = "\(dir)/splashhud-initrd"

    /// Every script, with the shell that runs it.
    static let scripts: [(path: String, shell: String)] = [
        ("splashhud-initrd", "sh"), ("splashhud-fonts", "sh"), ("initramfs-tools/hooks/splashhud", "sh"),
        ("initramfs-tools/scripts/init-premount/splashhud", "sh"), ("initramfs-tools/scripts/init-bottom/splashhud", "sh"),
        ("initramfs-tools/scripts/panic/splashhud", "sh"), ("dracut/90splashhud/module-setup.sh", "bash"),
        ("dracut/90splashhud/splashhud-pretrigger.sh", "sh"), ("dracut/90splashhud/splashhud-newroot.sh", "sh"),
        ("dracut/90splashhud/splashhud-emergency.sh", "sh"),
    ]

    static let shellcheck = ["/usr/bin/shellcheck", "/bin/shellcheck"].first(where: FileManager.default.isExecutableFile)

    @Test(arguments: scripts.map(\.path))
    func parsesAndIsExecutable(_ script: String) throws {
        let path = "\(Self.dir)/\(script)"
        let shell = Self.scripts.first { $0.path == script }!.shell
        #expect(FileManager.default.isExecutableFile(atPath: path), "\(script) must be executable (initramfs-tools skips it otherwise)")
        let (status, output) = try SplashBinary.run("/bin/\(shell)", ["-n", path])
        #expect(status == 0, "\(shell) -n \(script): \(output)")
        if let shellcheck = Self.shellcheck {
            let (checkStatus, report) = try SplashBinary.run(shellcheck, ["-s", shell, path])
            #expect(checkStatus == 0 && report.isEmpty, "shellcheck \(script):\n\(report)")
        }
    }

    /// initramfs-tools orders scripts by `prereqs`: the start after udev (the driver is loaded); the
    /// hand-over with none, so it runs (by name) before udev's init-bottom moves /dev away.
    @Test func prerequisites() throws {
        for (script, expected) in [("scripts/init-premount/splashhud", "udev"), ("scripts/init-bottom/splashhud", ""),
                                   ("scripts/panic/splashhud", ""), ("hooks/splashhud", "")] {
            let (status, output) = try SplashBinary.run("/bin/sh", ["\(Self.dir)/initramfs-tools/\(script)", "prereqs"])
            #expect(status == 0 && output.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(script) prereqs: \(output)")
        }
        #expect("splashhud" < "udev", "init-bottom scripts without prerequisites run in name order")
    }

    /// `takes-over NEWROOT`: the daemon, its unit (not masked) and the udev rule that starts it
    /// must all be there, or the initramfs quits without retaining and the console comes back.
    @Test func aRealRootTakesOverOnlyWhenItWillStartTheSplash() throws {
        let base = try temporaryDirectory("takeover")
        defer { try? FileManager.default.removeItem(atPath: base) }
        let fm = FileManager.default
        func root(_ name: String, daemon: String? = "usr/bin", unit: String? = "etc/systemd/system", rule: String? = "etc/udev/rules.d",
                  masked: Bool = false) throws -> String {
            let r = "\(base)/\(name)"
            if let daemon {
                try fm.createDirectory(atPath: "\(r)/\(daemon)", withIntermediateDirectories: true)
                #expect(fm.createFile(atPath: "\(r)/\(daemon)/splashhudd", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
            }
            if let unit {
                try fm.createDirectory(atPath: "\(r)/\(unit)", withIntermediateDirectories: true)
                #expect(fm.createFile(atPath: "\(r)/\(unit)/splashhud.service", contents: Data("[Service]\n".utf8)))
            }
            if masked {
                try fm.createDirectory(atPath: "\(r)/etc/systemd/system", withIntermediateDirectories: true)
                try fm.createSymbolicLink(atPath: "\(r)/etc/systemd/system/splashhud.service", withDestinationPath: "/dev/null")
            }
            if let rule {
                try fm.createDirectory(atPath: "\(r)/\(rule)", withIntermediateDirectories: true)
                #expect(fm.createFile(atPath: "\(r)/\(rule)/90-splashhud.rules", contents: Data()))
            }
            return r
        }
        let cases: [(String, Bool)] = [
            (try root("installed"), true),
            (try root("packaged", unit: "usr/lib/systemd/system", rule: "usr/lib/udev/rules.d"), true),
            (try root("local", daemon: "usr/local/bin"), true),
            (try root("no-daemon", daemon: nil), false),
            (try root("no-unit", unit: nil), false),
            (try root("no-rule", rule: nil), false),
            (try root("masked", unit: "usr/lib/systemd/system", masked: true), false),
            ("\(base)/missing", false),
        ]
        let cmdline = (try? String(contentsOfFile: "/proc/cmdline", encoding: .utf8)) ?? ""
        try #require(!cmdline.contains("splashhud.enable=0"), "this host's command line turns the splash off")
        for (newroot, expected) in cases {
            let (status, output) = try SplashBinary.run("/bin/sh", [Self.helper, "takes-over", newroot])
            #expect((status == 0) == expected, "\(URL(fileURLWithPath: newroot).lastPathComponent): status \(status) \(output)")
        }
    }

    /// `keeps NEWROOT`: the daemon lives on only where the real root would start the same one:
    /// its unit, rule and daemon installed, no Plymouth of its own, the settings the image was
    /// built with, holding only options the initramfs's daemon took, and the same board profile.
    @Test func theDaemonLivesOnOnlyAsTheRealRootWouldRunIt() throws {
        let base = try temporaryDirectory("keeps")
        defer { try? FileManager.default.removeItem(atPath: base) }
        let fm = FileManager.default
        func root(_ name: String, options: String, plymouth: String? = nil) throws -> String {
            let r = "\(base)/\(name)"
            for (dir, file, mode) in [("usr/bin", "splashhudd", 0o755), ("etc/systemd/system", "splashhud.service", 0o644),
                                      ("etc/udev/rules.d", "90-splashhud.rules", 0o644), ("etc/default", "splashhud", 0o644)]
                + (plymouth.map { [($0, "plymouthd", 0o755)] } ?? []) {
                try fm.createDirectory(atPath: "\(r)/\(dir)", withIntermediateDirectories: true)
                let text = file == "splashhud" && dir == "etc/default" ? "SPLASHHUD_OPTIONS=\"\(options)\"\n" : "\n"
                #expect(fm.createFile(atPath: "\(r)/\(dir)/\(file)", contents: Data(text.utf8), attributes: [.posixPermissions: mode]))
            }
            return r
        }
        /// The image: its initrd.conf (SPLASHHUD_KEEP, SPLASHHUD_PROFILE) and its copy of the settings.
        func keeps(_ newroot: String, image options: String, keep: String = "yes", profile: String = "") throws -> Bool {
            let image = "\(base)/image-\(UInt32.random(in: 0...UInt32.max))"
            try fm.createDirectory(atPath: image, withIntermediateDirectories: true)
            try "SPLASHHUD_KEEP=\"\(keep)\"\nSPLASHHUD_PROFILE=\"\(profile)\"\n".write(toFile: "\(image)/initrd.conf", atomically: true, encoding: .utf8)
            try "SPLASHHUD_OPTIONS=\"\(options)\"\n".write(toFile: "\(image)/default", atomically: true, encoding: .utf8)
            let (status, output) = try SplashBinary.run("/usr/bin/env", ["SPLASHHUD_CONF=\(image)/initrd.conf", "SPLASHHUD_DEFAULT=\(image)/default",
                                                                         "/bin/sh", Self.helper, "keeps", newroot])
            #expect(output.isEmpty, "\(output)")
            return status == 0
        }
        let portable = "--profile qemu-virtio --boot-estimate --log-level info --max-fps=15 --state-dir /var/lib/x"
        #expect(try keeps(try root("plain", options: ""), image: ""))
        #expect(try keeps(try root("portable", options: portable), image: portable))
        #expect(try !keeps(try root("turned-off", options: ""), image: "", keep: "no"))
        // Wherever the daemon's --plymouth=auto would find it.
        for dir in ["usr/sbin", "sbin", "usr/bin"] {
            #expect(try !keeps(try root("plymouth-\(dir.replacingOccurrences(of: "/", with: "-"))", options: "", plymouth: dir), image: ""),
                    "its plymouthd in /\(dir) wants the socket")
        }
        #expect(try !keeps(try root("changed", options: "--boot-estimate"), image: ""), "the image is older than the settings")
        #expect(try !keeps(try root("group", options: "--socket-group video"), image: "--socket-group video"), "an option the daemon did not take")
        #expect(try !keeps(try root("dangling", options: "--max-fps"), image: "--max-fps"))
        #expect(try !keeps(try root("profile", options: ""), image: "", profile: "rpi4"), "initrd.conf's profile is not the real root's")
        #expect(try keeps(try root("same-profile", options: "--profile rpi4"), image: "--profile rpi4", profile: "rpi4"))
        #expect(try !keeps("\(base)/missing", image: ""))
    }
}
