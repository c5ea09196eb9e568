// SPDX-License-Identifier: MIT
// The splash in a real initramfs. scripts/qemu/initramfs-boot.py installs the release binaries with
// scripts/install.sh --initramfs into a staging directory, builds an image with Debian's own
// mkinitramfs (our hook and scripts beside Debian's hooks: udev, busybox, kmod...), makes an ext4
// root file system holding the daemon, the client, the units and the rule, and boots both on
// virtio-gpu under QEMU: udev loads the driver, init-premount starts the splash, a probe after it
// reports /proc/mounts and asks for a screendump while the root is not yet mounted; init-bottom
// moves the daemon into the real root (`splashhud newroot`), where it lives on: the real root's
// init (a script playing systemd's part) skips splashhud.service on the kept daemon's mark, then runs
// splashhud-quit.service's command line, which ends it and gives the console back. One boot of
// about 30 s plus 10-40 s to build the image.
//
// The dracut module (Debian's dracut-core installs beside initramfs-tools): an image without systemd
// in it (the module's pre-trigger and pre-pivot hooks, the probe as a pre-mount hook; the pre-pivot
// hook keeps the daemon as init-bottom does) booted the same way, its root LUKSEndToEndTests's LUKS2 disk (cached): dracut's crypt module asks through
// `plymouth` (the module's link to the client), luks-boot.py's typist types the passphrase on a
// virtio keyboard and the prompt's screendump is held against the memory display's render; the
// unlock is the only time it adds to the boot, rather than a boot of its own. And two images built
// with `dracut --no-hostonly -m "…splashhud"`, with and without systemd, whose contents lsinitrd
// lists. And a dracut image with systemd (initramfs-boot.py sd-boot): systemd-cryptsetup asks
// through systemd's Plymouth agent and our socket for the LUKS2 root's passphrase (a wrong one
// first) and for the PIN of a second volume whose key a software TPM (swtpm) seals.
import Assets
import Foundation
import Raster
import Testing

@Suite("The splash in the initramfs under QEMU", .serialized)
struct InitramfsEndToEndTests {
    static let helper = VMSelftestTests.repo.appendingPathComponent("scripts/qemu/initramfs-boot.py").path

    static func requireTools(_ tools: [String]) throws {
        let dirs = ((ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") + ":/usr/sbin:/sbin").split(separator: ":")
        for tool in tools {
            try #require(dirs.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") },
                         "\(tool) is not installed: run scripts/setup.sh --tests")
        }
    }

    /// The release binaries' directory (both built in .build-release, as shipped).
    static func binDir() throws -> String {
        let daemon = try GuestProgram.path(product: "splashhudd", release: true)
        _ = try GuestProgram.path(product: "splashhud", release: true)
        return URL(fileURLWithPath: daemon).deletingLastPathComponent().path
    }

    /// The release daemon beside the fully static client `scripts/install.sh --static-stdlib`
    /// installs (scripts/test.sh builds it and names it in SPLASHHUD_STATIC_CLIENT), else the
    /// release client: the real root's scripts then run a client that needs no library at all
    /// (the image's is a link to the daemon's binary).
    static func binDirWithStaticClient(in dir: String) throws -> String {
        guard let client = ProcessInfo.processInfo.environment["SPLASHHUD_STATIC_CLIENT"] else { return try binDir() }
        let bin = "\(dir)/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(bin)/splashhudd", withDestinationPath: "\(try binDir())/splashhudd")
        try FileManager.default.createSymbolicLink(atPath: "\(bin)/splashhud", withDestinationPath: client)
        return bin
    }

    static func workDirectory(_ name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-\(name)-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("mkinitramfs's image: the splash before the root is mounted, its daemon kept through switch_root into the real root, the console back at the end")
    func debianInitramfs() throws {
        try VMSelftestTests.requireQEMUTools()
        try Self.requireTools(["mkinitramfs", "lsinitramfs", "unmkinitramfs", "mke2fs", "zstd"])
        let dir = try Self.workDirectory("initramfs-vm")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bin = try Self.binDirWithStaticClient(in: dir)
        let (status, output) = try VMBootLock.holding(exclusive: true) {
            try runProcess("python3", [Self.helper, "boot", "--bin-dir", bin, "--work", "\(dir)/work", "--shots-dir", "\(dir)/shots"])
        }
        let lines = output.split(whereSeparator: \.isNewline).map(String.init)
        print(lines.filter { !$0.hasPrefix("IMAGE") && !$0.hasPrefix("[") }.joined(separator: "\n"))
        try #require(status == 0, "the boot failed (\(status)):\n\(output)")

        // What the hook put into the image, at the paths the scripts use.
        let image = Set(lines.filter { $0.hasPrefix("IMAGE ") }.map { String($0.dropFirst(6)) })
        for path in ["usr/bin/splashhudd", "usr/bin/splashhud", "usr/lib/splashhud/splashhud-initrd",
                     "usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "usr/share/splashhud/boards/qemu-virtio.conf",
                     "etc/splashhud/initrd.conf", "scripts/init-premount/splashhud", "scripts/init-bottom/splashhud",
                     "scripts/panic/splashhud"] {
            #expect(image.contains(path), "\(path) is not in the initramfs")
        }
        #expect(lines.contains("IMAGE-LINK usr/bin/splashhud -> splashhudd"), "the client is not a link to the daemon's binary")
        #expect(image.contains { $0.hasSuffix("/virtio-gpu.ko") }, "initrd.conf's SPLASHHUD_DRM_MODULES did not add virtio-gpu")
        // init-bottom: ours before udev's, which moves /dev away (the daemon leaves its frame in /dev/fb0 as it quits).
        let order = lines.filter { $0.hasPrefix("ORDER init-bottom /scripts/") }
        let ours = order.firstIndex { $0.contains("/splashhud ") }, udev = order.firstIndex { $0.contains("/udev ") }
        #expect(ours != nil && udev != nil && ours! < udev!, "init-bottom order: \(order)")
        try checkBoot(lines: lines, output: output, dir: dir, bin: bin, name: "initramfs-tools", kept: true)
    }

    @Test("dracut's image without systemd: the same boot through the module's pre-trigger and pre-pivot hooks, its LUKS2 root unlocked at the crypt module's prompt on the HUD")
    func dracutBoot() throws {
        try VMSelftestTests.requireQEMUTools()
        try Self.requireTools(["dracut", "lsinitrd", "mke2fs", "zstd", "cryptsetup"])
        let bin = try Self.binDir()
        let dir = try Self.workDirectory("dracut-vm")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, output) = try VMBootLock.holding(exclusive: true) {
            try runProcess("python3", [Self.helper, "dracut-boot", "--bin-dir", bin, "--work", "\(dir)/work", "--shots-dir", "\(dir)/shots"])
        }
        let lines = output.split(whereSeparator: \.isNewline).map(String.init)
        print(lines.filter { !$0.hasPrefix("[") }.joined(separator: "\n"))
        try #require(status == 0, "the boot failed (\(status)):\n\(output)")
        // The root is luks-boot.py's LUKS2 image, opened as dracut names it (rd.luks.uuid=).
        try checkBoot(lines: lines, output: output, dir: dir, bin: bin, name: "dracut",
                      root: "/dev/mapper/luks-5a1a5b0d-1dd5-4c2e-9a3c-6c75c0ffee01 ext4", kept: true, newroot: "/sysroot")
        try checkDracutUnlock(lines: lines, output: output, dir: dir)
    }

    @Test("dracut's image with systemd: systemd-cryptsetup's passphrase (a wrong one first, systemd asks again) and a TPM2+PIN volume's PIN asked through Plymouth's socket on the HUD, the splash handed over at switch-root")
    func dracutSystemdBoot() throws {
        try VMSelftestTests.requireQEMUTools()
        try Self.requireTools(["dracut", "lsinitrd", "mke2fs", "zstd", "cryptsetup", "swtpm", "systemd-cryptenroll", "tpm2_dictionarylockout"])
        let bin = try Self.binDir()
        let dir = try Self.workDirectory("dracut-systemd-vm")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, output) = try VMBootLock.holding(exclusive: true) {
            try runProcess("python3", [Self.helper, "sd-boot", "--bin-dir", bin, "--work", "\(dir)/work", "--shots-dir", "\(dir)/shots"])
        }
        let lines = output.split(whereSeparator: \.isNewline).map(String.init)
        print(lines.filter { !$0.hasPrefix("[") && !$0.contains("INFO SDLUKS journal") }.joined(separator: "\n"))
        try #require(status == 0, "the boot failed (\(status)):\n\(output)")
        // The module's systemd side: the daemon and systemd's Plymouth agent wanted from sysinit.target.
        for path in ["usr/lib/systemd/system/splashhud.service.d/initrd.conf", "usr/lib/systemd/system/splashhud-ask-password.path",
                     "usr/lib/systemd/system/splashhud-ask-password.service", "usr/lib/systemd/system/splashhud-ask-password.path.d/initrd.conf",
                     "usr/lib/systemd/system/sysinit.target.wants/splashhud.service -> ../splashhud.service",
                     "usr/lib/systemd/system/sysinit.target.wants/splashhud-ask-password.path -> ../splashhud-ask-password.path",
                     "usr/bin/systemd-tty-ask-password-agent", "usr/lib/systemd/systemd-cryptsetup", "usr/bin/plymouth -> splashhudd"] {
            #expect(lines.contains("IMAGE \(path)"), "\(path) is not in the systemd image:\n\(output)")
        }
        #expect(lines.contains("PINDUMP tpm2-pin: true"), "the second volume is not enrolled with a PIN:\n\(output)")
        try checkBoot(lines: lines, output: output, dir: dir, bin: bin, name: "dracut-systemd",
                      root: "/dev/mapper/luks-5a1a5b0d-1dd5-4c2e-9a3c-6c75c0ffee01 ext4")
        try checkSystemdUnlock(lines: lines, output: output, dir: dir)
    }

    /// systemd-cryptsetup asked through systemd's Plymouth agent and our socket: the PIN of the
    /// TPM2 volume in systemd's words, the root's passphrase twice (the wrong one refused), each
    /// prompt's screendump after three keys the memory display's render of the same prompt.
    func checkSystemdUnlock(lines: [String], output: String, dir: String) throws {
        func infos(_ prefix: String) -> [String] {
            lines.filter { $0.contains("guest said: INFO \(prefix) ") }.map { String($0[$0.range(of: "INFO \(prefix) ")!.upperBound...]) }
        }
        // "N KIND at UPTIME STATE": the typist answers what the HUD shows, by its text.
        let prompts = infos("SDLUKS prompt").map { $0.split(separator: " ", maxSplits: 4).map(String.init) }
        #expect(prompts.map { $0.count > 1 ? $0[1] : "" }.sorted() == ["passphrase", "pin", "wrong"],
                "one PIN prompt and two passphrase prompts, the second after the wrong one:\n\(output)")
        let wrongAt = prompts.firstIndex { $0.count > 1 && $0[1] == "wrong" }, rightAt = prompts.firstIndex { $0.count > 1 && $0[1] == "passphrase" }
        #expect(wrongAt != nil && rightAt != nil && wrongAt! < rightAt!, "\(prompts)")
        let disk = "Please enter passphrase for disk luks-5a1a5b0d-1dd5-4c2e-9a3c-6c75c0ffee01:"
        let texts = ["pin": "Please enter LUKS2 token PIN:", "wrong": disk, "passphrase": disk]
        for p in prompts where p.count == 5 {
            #expect(p[4].hasPrefix("visible yes mode prompt status \"\(texts[p[1]] ?? "?")\""), "prompt \(p[0]) (\(p[1])): \(p[4])")
        }
        // systemd refused the wrong passphrase and asked again; both volumes opened.
        #expect(output.contains("Failed to activate with specified passphrase. (Passphrase incorrect?)"), "\(output)")
        #expect(infos("SDLUKS unlocked").count == 1, "\(output)")
        // Through our socket: the daemon wrote /run/plymouth/pid, systemd's Plymouth agent ran, its console agent did not.
        let pid = try #require(infos("SDLUKS pidfile").first, "\(output)").split(separator: " ")
        #expect(pid.count == 3 && pid[0] == pid[2] && pid[0] != "none", "/run/plymouth/pid must name the initramfs's daemon: \(pid)")
        let units = Dictionary(infos("SDLUKS unit").compactMap { line -> (String, String)? in
            let w = line.split(separator: " ", maxSplits: 1).map(String.init)
            return w.count == 2 ? (w[0], w[1]) : nil
        }, uniquingKeysWith: { a, _ in a })
        #expect(units["splashhud-ask-password.service"] == "active yes", "\(units)")
        #expect(units["systemd-ask-password-console.service"]?.hasPrefix("inactive") == true, "the console agent must stay off: \(units)")
        for volume in ["01", "02"] {
            #expect(units["systemd-cryptsetup@luks\\x2d5a1a5b0d\\x2d1dd5\\x2d4c2e\\x2d9a3c\\x2d6c75c0ffee\(volume).service"] == "active yes", "\(units)")
        }
        // The prompts on the screen: bit for bit the memory display's, with systemd's text.
        for (kind, text) in [("pin", texts["pin"]!), ("wrong", disk)] {
            let prompt = try ScreenDump(contentsOf: "\(dir)/shots/sd-\(kind)-prompt.ppm")
            let typed = try ScreenDump(contentsOf: "\(dir)/shots/sd-\(kind)-typed.ppm")
            let expected = try PromptRender.memoryDisplay(width: typed.width, height: typed.height, prompt: text, typed: "abc",
                                                          onlyFonts: ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"])
            let off = PromptRender.differing(expected, typed)
            if off != 0 { save(typed.pixmap, "dracut-systemd-\(kind)-typed") }
            #expect(off == 0, "dracut-systemd \(kind): the typed prompt differs from the memory display's render in \(off) pixels")
            #expect(PromptRender.differing(expected, prompt) > 0, "dracut-systemd \(kind): typing did not change the prompt")
            // For docs/passphrases.md: systemd's prompts as the splash shows them.
            PromptRender.keepForDocs(typed, "initramfs-systemd-\(kind == "pin" ? "tpm2-pin" : "passphrase")-prompt")
        }
    }

    /// The crypt module's cryptroot-ask asked through `plymouth` (the module's link to the client):
    /// the prompt on the HUD, the passphrase typed on the virtio keyboard (US keymap) opened the root.
    func checkDracutUnlock(lines: [String], output: String, dir: String) throws {
        func info(_ prefix: String) -> String? {
            lines.first { $0.contains("guest said: INFO \(prefix) ") }.map { String($0[$0.range(of: "INFO \(prefix) ")!.upperBound...]) }
        }
        #expect(lines.contains("IMAGE usr/bin/plymouth -> splashhudd"), "no plymouth link to the client:\n\(output)")
        #expect(lines.contains("IMAGE usr/sbin/cryptroot-ask"), "the crypt module is not in the image:\n\(output)")
        // `plymouth ask-for-password --prompt "Password (/dev/vda)" --number-of-tries=5 --command=…`.
        #expect(info("LUKS prompt 1")?.hasPrefix("method plymouth") == true, "the crypt module must ask through plymouth:\n\(output)")
        #expect(info("LUKS state 1")?.contains("mode prompt status \"Password (/dev/vda)\"") == true, "\(output)")
        #expect(info("LUKS typed 1") == "layout us" && info("LUKS unlocked") != nil && info("LUKS root-mounted") != nil, "\(output)")
        #expect(info("LUKS key-to-mount").flatMap { Int($0) }.map { $0 > 0 } == true, "\(output)")
        // The first three keys are three bullets, bit for bit the memory display's render of the prompt.
        let prompt = try ScreenDump(contentsOf: "\(dir)/shots/luks-prompt-1.ppm"), typed = try ScreenDump(contentsOf: "\(dir)/shots/luks-typed-1.ppm")
        let expected = try PromptRender.memoryDisplay(width: typed.width, height: typed.height, prompt: "Password (/dev/vda)",
                                                      typed: "abc", onlyFonts: ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"])
        let off = PromptRender.differing(expected, typed)
        if off != 0 { save(typed.pixmap, "dracut-luks-typed") }
        #expect(off == 0, "dracut: the typed prompt differs from the memory display's render in \(off) pixels")
        PromptRender.keepForDocs(typed, "initramfs-dracut-prompt")
        #expect(PromptRender.differing(expected, prompt) > 0, "dracut: typing did not change the prompt")
    }

    /// What every boot must show: the HUD before the root is mounted and over switch_root, then
    /// either the initramfs's daemon living on in the real root (`kept`: initramfs-tools, dracut
    /// without systemd) or splashhud.service's command line taking the HUD over (the systemd
    /// initrd's hand-over), and the console back after splashhud-quit.service's.
    func checkBoot(lines: [String], output: String, dir: String, bin: String, name: String, root: String = "/dev/vda ext4",
                   kept: Bool = false, newroot: String = "/root") throws {
        func info(_ prefix: String) -> String? {
            lines.first { $0.contains("guest said: INFO \(prefix) ") }.map { String($0[$0.range(of: "INFO \(prefix) ")!.upperBound...]) }
        }
        // Early boot: the daemon started by the initramfs shows the spinner on the card udev brought
        // up, and nothing is mounted on the new root yet, neither then nor when the screendump was taken.
        #expect(info("INITRAMFS state")?.hasPrefix("visible yes mode spinner outputs card0-Virtual-1:1280x800") == true, "\(name):\n\(output)")
        for key in ["INITRAMFS mounts", "INITRAMFS shot-mounts"] {
            let mounts = try #require(info(key), "\(name): no \(key) line:\n\(output)").split(separator: " ")
            #expect(mounts.contains("/run") && !mounts.contains("/root") && !mounts.contains("/sysroot"), "\(name) \(key): \(mounts)")
        }
        #expect(info("REALROOT pid") == "1" && info("REALROOT root") == root, "\(name): the real root's init must run:\n\(output)")
        #expect(info("REALROOT state")?.hasPrefix("visible yes mode ring progress 0.5 status \"Initramfs\"") == true, "\(name):\n\(output)")
        #expect(info("REALROOT env-left") == "none", "\(name): ExecStartPost must remove the hand-over file")
        #expect(info("REALROOT quit") == "0", "\(name):\n\(output)")
        #expect(info("REALROOT mark-left") == "none", "\(name): the quit unit must remove the kept daemon's mark")
        let handover = try #require(output.split(separator: "\n").first { $0.contains("splashhud: handover: began ") }, "\(name):\n\(output)")
        if kept {
            // The real root: the initramfs's daemon lives on there, moved into it (its root is the
            // real one), its pid in the mark and in /run/plymouth/pid (systemd's password agent
            // asks through it); splashhud.service skipped its start; the quit unit ended it.
            let pid = try #require(info("REALROOT initramfs-daemon"), "\(name):\n\(output)")
            #expect(pid != "none" && info("REALROOT kept") == "\(pid) root / pidfile \(pid)", "\(name):\n\(output)")
            #expect(lines.contains { $0.contains("guest said: INFO REALROOT unit skipped") }, "\(name): splashhud.service started a second daemon:\n\(output)")
            #expect(info("REALROOT handover") == "none", "\(name):\n\(output)")
            #expect(["0", "gone"].contains(info("REALROOT daemon") ?? ""), "\(name):\n\(output)")
            #expect(output.contains("ended: QUIT (after the fade-out)"), "\(name): the kept daemon did not end on the quit unit's QUIT:\n\(output)")
            #expect(output.contains("moved into the new root \(newroot):"), "\(name):\n\(output)")
            #expect(handover.contains(", daemon kept ") && handover.contains("it lives on in the real root"), "\(name): \(handover)")
            #expect(!output.contains("the real root's splashhud.service takes the screen over"), "\(name):\n\(output)")
        } else {
            // The real root: the initramfs's daemon is gone, its HUD handed over through the unit's
            // EnvironmentFile (read once), the quit unit ends the new daemon cleanly.
            #expect(info("REALROOT initramfs-daemon") == "none", "\(name):\n\(output)")
            #expect(info("REALROOT kept") == "none root none pidfile none", "\(name):\n\(output)")
            #expect(info("REALROOT handover") == "SPLASHHUD_HANDOVER=\"--script /run/initramfs/splashhud-resume.hud\"", "\(name):\n\(output)")
            #expect(info("REALROOT daemon") == "0", "\(name):\n\(output)")
            #expect(output.contains("the real root's splashhud.service takes the screen over"), "\(name):\n\(output)")
            #expect(handover.contains(", daemon ended "), "\(name): \(handover)")
        }
        // The hand-over, logged on the kernel's clock: from its start to the daemon's end or move.
        let times = handover.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .punctuationCharacters)) }
        #expect(times.count == 2 && times[0] > 0 && times[1] >= times[0], "\(name): \(handover)")

        // The same HUD on the host's memory display, with the release daemon.
        try "@0 show\n@0 progress 0.5 Initramfs\n".write(toFile: "\(dir)/s.hud", atomically: true, encoding: .utf8)
        let (hostStatus, hostLog) = try runProcess("\(bin)/splashhudd", ["--display", "memory:1280x800", "--socket", "none",
                                                                     "--script", "\(dir)/s.hud", "--duration", "1.5", "--retain",
                                                                     "--out", "\(dir)/host", "--log-level", "error"])
        try #require(hostStatus == 0, "\(hostLog)")
        let expected = try PNGDecoder.decode(contentsOf: "\(dir)/host/shown-last.png")
        // Before the root is mounted; the frame kept over switch_root; the real root's daemon's.
        for shot in ["initramfs", "retained", "realroot"] {
            let screen = try PNGDecoder.decode(contentsOf: "\(dir)/shots/\(shot).png")
            try #require(screen.width == expected.width && screen.height == expected.height, "\(name) \(shot): \(screen.width)x\(screen.height)")
            let off = ServiceEndToEndTests.differing(expected, screen)
            if off != 0 { save(screen, "\(name)-\(shot)") }
            #expect(off == 0, "\(name) \(shot): \(off) pixels differ from the HUD on the memory display")
        }
        // The end: the HUD gone, fbcon drawing the text the real root wrote to tty1 (KD_TEXT again).
        let console = try ScreenDump(contentsOf: "\(dir)/shots/console.ppm")
        let cellRows: Int32 = 16 * 6  // six lines of the 8x16 console font
        let (text, below) = console.litPixels(splitAtRow: cellRows)
        if text < 3000 || below > 200 { save(console.pixmap, "\(name)-console") }
        #expect(text > 3000, "\(name): the console's six lines are not on the screen (\(text) lit pixels)")
        #expect(below <= 200, "\(name): \(below) lit pixels below the console's text (the HUD, or more than the cursor)")
    }

    @Test("dracut's module: the splash's files in images built with and without systemd")
    func dracutModule() throws {
        try Self.requireTools(["dracut", "lsinitrd", "zstd"])
        let bin = try Self.binDir()
        let dir = try Self.workDirectory("dracut")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Building images loads both cores: never beside a boot whose guest keeps time.
        let (status, output) = try VMBootLock.holding(exclusive: true) {
            try runProcess("python3", [Self.helper, "dracut", "--bin-dir", bin, "--work", dir])
        }
        try #require(status == 0, "dracut failed (\(status)):\n\(output)")
        let lines = Set(output.split(whereSeparator: \.isNewline).map(String.init))
        let common = ["usr/bin/splashhudd", "usr/bin/splashhud", "usr/lib/splashhud/splashhud-initrd", "etc/splashhud/initrd.conf",
                      "usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "usr/share/splashhud/boards/qemu-virtio.conf",
                      "usr/lib/dracut/hooks/emergency/50-splashhud-emergency.sh"]
        let variants = [
            "plain": common + ["usr/lib/dracut/hooks/pre-trigger/20-splashhud-pretrigger.sh", "usr/lib/dracut/hooks/pre-pivot/90-splashhud-newroot.sh"],
            "systemd": common + ["usr/lib/systemd/system/splashhud.service", "usr/lib/systemd/system/splashhud.service.d/initrd.conf",
                                 "etc/udev/rules.d/90-splashhud.rules", "usr/lib/systemd/system/sysinit.target.wants/splashhud.service",
                                 // systemd's Plymouth agent (no plymouth module in the image), wanted at sysinit.
                                 "usr/lib/systemd/system/splashhud-ask-password.path", "usr/lib/systemd/system/splashhud-ask-password.service",
                                 "usr/lib/systemd/system/splashhud-ask-password.path.d/initrd.conf",
                                 "usr/lib/systemd/system/sysinit.target.wants/splashhud-ask-password.path"],
        ]
        for (variant, paths) in variants {
            for path in paths { #expect(lines.contains("DRACUT-\(variant) \(path)"), "\(variant): \(path) missing:\n\(output)") }
            #expect(lines.contains("DRACUT-\(variant)-link usr/bin/splashhud -> splashhudd"), "\(variant): the client is not a link to the daemon's binary")
            // No plymouth module in either image: `plymouth` is the client (the crypt module calls it);
            // dracut's ln_r resolves the client's link, so it names the one binary.
            #expect(lines.contains("DRACUT-\(variant)-link usr/bin/plymouth -> splashhudd"), "\(variant): no plymouth link to the client:\n\(output)")
        }
        #expect(!lines.contains("DRACUT-systemd usr/lib/dracut/hooks/pre-trigger/20-splashhud-pretrigger.sh"), "systemd starts it from the unit")
        #expect(!lines.contains { $0.hasPrefix("DRACUT-plain ") && $0.contains("ask-password") }, "no systemd, no agent units")
        #expect(!lines.contains { $0.contains("-log ") }, "dracut complained:\n\(output)")
    }

    func save(_ picture: Pixmap, _ name: String) {
        let dir = VMSelftestTests.repo.appendingPathComponent(".build/qemu-failures").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try? PNGEncoder.write(picture, to: "\(dir)/initramfs-\(name).png")
    }
}
