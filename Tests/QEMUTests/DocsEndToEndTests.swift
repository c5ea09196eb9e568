// SPDX-License-Identifier: MIT
// The docs run: the shell blocks README.md and docs/install.md mark with `<!-- run: PHASE -->`
// (scripts/doc-blocks.py extracts them) run verbatim, as root in a copy of the tree, in a Debian 12
// guest with Debian's Plymouth installed and in its initramfs (scripts/qemu/debian-guest.py: an
// mmdebstrap image cached in .build/qemu, the guest kernel's modules, no Swift). Boot 1 runs the
// `install` blocks: the fully static pair scripts/test.sh builds is installed without swift, the
// profile chosen in /etc/default/splashhud, Plymouth replaced, the initramfs rebuilt. The rebuilt
// initrd is read out of the image and booted: the splash is SplashHUD's from the initramfs on,
// its daemon (with the documented profile) kept through switch_root in place of splashhud.service's;
// the `check` block's `plymouth --ping && plymouth display-message` is answered by splashhudd and
// the message is on the screendump, bit for bit the memory display's render. An offline update's
// Plymouth commands (PackageKit's through Debian's client, fwupd's through ours) fill the update
// modes' rings. Then `systemctl poweroff`: splashhud-initramfs.service's stop ends the kept daemon,
// and splashhud-poweroff.service's daemon, spared by systemd-shutdown's final kill, answers its
// hook and draws until the guest is off. Boot 3's `uninstall` block gives
// Plymouth back. A block that fails (bash -e) fails the boot and this test.
import Assets
import Foundation
import Raster
import Testing

// About 10 minutes of one core under TCG, two update-initramfs of 150-300 s each: scripts/test.sh
// runs it (SPLASHHUD_DOCS_VM=1) beside the sanitizer builds, where it holds no timed guest back; a
// plain `swift test` skips it. Alone: `SPLASHHUD_DOCS_VM=1 ./scripts/test.sh --filter DocsEndToEndTests`.
@Suite("The docs' blocks in a Debian 12 guest with Plymouth", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["SPLASHHUD_DOCS_VM"] == "1", "SPLASHHUD_DOCS_VM=1 runs it (10 minutes; scripts/test.sh sets it)"))
struct DocsEndToEndTests {
    static let driver = VMSelftestTests.repo.appendingPathComponent("scripts/qemu/debian-guest.py").path

    @Test("install, profile, replacing Plymouth, the initramfs, uninstall: as the docs say, in Debian 12")
    func docsRunInDebian() throws {
        try VMSelftestTests.requireQEMUTools()
        try InitramfsEndToEndTests.requireTools(["mmdebstrap", "mke2fs", "debugfs"])
        let dir = try InitramfsEndToEndTests.workDirectory("docs-vm")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Exclusive: mmdebstrap and the guest's update-initramfs load both cores.
        let (status, output) = try VMBootLock.holding(exclusive: true) {
            try runProcess("python3", [Self.driver, "run", "--work", "\(dir)/work", "--shots-dir", "\(dir)/shots"])
        }
        let lines = output.split(whereSeparator: \.isNewline).map(String.init)
        print(lines.filter { $0.hasPrefix("TIME") || $0.hasPrefix("BLOCKS") || $0.hasPrefix("HOST") || $0.contains("guest said:") }.joined(separator: "\n"))
        try #require(status == 0, "the guest failed (\(status)):\n\(output)")
        // The guest's facts, and the host's about the initrds it read out of the guest's disk.
        func info(_ prefix: String) -> String? {
            for marker in ["guest said: INFO \(prefix) ", "HOST \(prefix) "] {
                if let line = lines.first(where: { $0.contains(marker) }) { return String(line[line.range(of: marker)!.upperBound...]) }
            }
            return nil
        }

        // Every marked block ran, and each one succeeded (the guest stops at the first failure).
        let extracted = lines.filter { $0.hasPrefix("BLOCKS ") }
        let ran = lines.filter { $0.contains("guest said: INFO BLOCK ") }
        #expect(extracted.count >= 5 && ["install", "check", "uninstall"].allSatisfy { p in extracted.contains { $0.hasPrefix("BLOCKS \(p) ") } },
                "\(extracted)")
        #expect(ran.count == extracted.count && ran.allSatisfy { $0.contains(" status 0 ") }, "\(ran)")

        // Boot 1: Debian's Plymouth, no Swift; after the blocks the image holds our splash, not plymouthd.
        #expect(info("BOOT1 plymouth")?.hasPrefix("install ok installed") == true && info("BOOT1 plymouth")?.hasSuffix("swift none") == true,
                "\(output)")
        #expect(info("BOOT1 image-plymouthd") == "0 image-splashhudd 1 default 1", "the rebuilt initramfs:\n\(output)")
        #expect(info("BOOT1 diversions") == "6", "Plymouth's client, daemon, hook and three scripts diverted:\n\(output)")

        // Boot 2: the HUD on the card, shown by the daemon the initramfs started with the profile of
        // /etc/default/splashhud and kept through switch_root (the settings are the image's, so
        // splashhud-initrd keeps it): splashhud.service skipped its start, splashhud-initramfs.service
        // stands for it, no hand-over file.
        #expect(info("BOOT2 state")?.hasPrefix("visible yes mode spinner outputs card0-Virtual-1:1280x800") == true, "\(output)")
        let daemon = try #require(info("BOOT2 daemon"), "\(output)")
        #expect(daemon.contains("--plymouth=auto ") && daemon.contains("--plymouth-pid-file /run/plymouth/pid"), "\(daemon)")
        #expect(daemon.contains(" --profile qemu-virtio "), "the documented profile is not on the daemon's command line: \(daemon)")
        #expect(daemon.contains("--script /run/initramfs/splashhud.hud"), "not the initramfs's daemon: \(daemon)")
        let unit = try #require(info("BOOT2 unit")).split(separator: " ")
        #expect(unit.count == 5 && unit[0] == "0" && unit[2] == "kept" && unit[3] == unit[1] && unit[4] == "active",
                "the daemon is not the initramfs's, kept: \(unit)")
        #expect(info("BOOT2 plymouthd") == "none" && info("BOOT2 handover-env") == "none", "\(output)")
        #expect(info("BOOT2 initramfs-log").flatMap { Int($0) }.map { $0 > 0 } == true, "the initramfs's daemon left no log:\n\(output)")
        #expect(output.contains("it lives on in the real root") && output.contains("moved into the new root /root"), "\(output)")
        #expect(info("BOOT2 message")?.contains("status \"Booting\"") == true, "display-message did not reach the HUD:\n\(output)")
        #expect(info("BOOT2 shown")?.hasPrefix("visible yes mode ring progress 0.5 status \"Booting\"") == true, "\(output)")

        // The screendumps: the message on the HUD, then the offline update, bit for bit what the
        // memory display draws with the same profile (the daemon scripts/test.sh built, the one
        // installed in the guest).
        try Self.expectScreen("check", equalTo: "@0 show\n@0 progress 0.5 Booting\n", dir: dir)

        // An offline update's commands, as PackageKit sends them through Debian's own client and
        // as fwupd sends them through ours: the modes' rings, filled by system-update.
        #expect(info("BOOT2 offline-packagekit")?.hasPrefix("0 visible yes mode ring progress 0.4 status \"Installing updates\"") == true, "\(output)")
        try Self.expectScreen("offline", equalTo: "@0 show\n@0 progress 0.4 Installing updates\n", dir: dir)
        #expect(info("BOOT2 offline-fwupd")?.hasPrefix("0 visible yes mode ring progress 0.6 status \"Upgrading the system\"") == true, "\(output)")

        // The power-off: splashhud-poweroff.service's daemon, enabled by the install block, in
        // the shutdown mode and marked for systemd-shutdown ('@'), answers after the final kill
        // (systemd-shutdown's hook), draws what it is told, and its log goes on after the kill.
        #expect(info("BOOT2 poweroff-unit") == "enabled", "\(output)")
        let daemonAfterKill = try #require(info("POWEROFF action"), "the shutdown hook did not run:\n\(output)")
        #expect(daemonAfterKill.hasPrefix("poweroff daemon ") && daemonAfterKill.contains(" @usr/bin/splashhudd --mode shutdown --survive-final-kill "),
                "\(daemonAfterKill)")
        let shutdownState = info("POWEROFF state") ?? ""
        #expect(shutdownState.hasPrefix("visible yes mode spinner") && shutdownState.contains("status \"Shutting down\""), "\(output)")
        #expect(info("POWEROFF after")?.hasPrefix("visible yes mode ring progress 0.5 status \"Powering off\"") == true, "\(output)")
        try Self.expectScreen("poweroff", equalTo: "@0 show\n@0 progress 0.5 Powering off\n", dir: dir)
        let log = lines.filter { $0.contains("guest said: INFO POWEROFF log ") }
        let spared = log.firstIndex { $0.contains("systemd-shutdown's final kill spares this daemon") }
        let late = log.firstIndex { $0.contains("HUD: Powering off") }
        #expect(spared != nil && late != nil && spared! < late!, "the daemon's log:\n\(log.joined(separator: "\n"))")
        #expect(output.contains("the guest powered off"), "\(output)")

        // Boot 3's uninstall block: Plymouth's files and units back, ours gone, its initramfs again.
        #expect(info("BOOT3 after diversions") == "0 plymouth file plymouthd yes start static splashhudd no", "\(output)")
        #expect(info("BOOT3 after image-plymouthd") == "1 image-splashhudd 0", "\(output)")
        if let total = lines.first(where: { $0.hasPrefix("TIME total ") }) { print("docs guest: \(total)") }
    }

    /// The guest's screendump `name` equals, bit for bit, what the memory display draws for
    /// `script` with the guest's profile (the daemon scripts/test.sh built, installed in the guest).
    static func expectScreen(_ name: String, equalTo script: String, dir: String) throws {
        let host = ProcessInfo.processInfo.environment["SPLASHHUD_STATIC_DAEMON"]
            ?? VMSelftestTests.repo.appendingPathComponent(".build-static-executable/release/splashhudd").path
        try script.write(toFile: "\(dir)/\(name).hud", atomically: true, encoding: .utf8)
        let profile = VMSelftestTests.repo.appendingPathComponent("boards/qemu-virtio.conf").path
        let (hostStatus, hostLog) = try runProcess(host, ["--profile", profile, "--display", "memory:1280x800", "--socket", "none",
                                                          "--script", "\(dir)/\(name).hud", "--duration", "1.5", "--retain",
                                                          "--out", "\(dir)/host-\(name)", "--log-level", "error"])
        try #require(hostStatus == 0, "\(hostLog)")
        let expected = try PNGDecoder.decode(contentsOf: "\(dir)/host-\(name)/shown-last.png")
        let screen = try PNGDecoder.decode(contentsOf: "\(dir)/shots/\(name).png")
        try #require(screen.width == expected.width && screen.height == expected.height, "\(name): \(screen.width)x\(screen.height)")
        let off = ServiceEndToEndTests.differing(expected, screen)
        if off != 0 {
            let failures = VMSelftestTests.repo.appendingPathComponent(".build/qemu-failures").path
            try? FileManager.default.createDirectory(atPath: failures, withIntermediateDirectories: true)
            try? PNGEncoder.write(screen, to: "\(failures)/docs-\(name).png")
        }
        #expect(off == 0, "\(name): \(off) pixels differ from the HUD on the memory display")
    }
}
