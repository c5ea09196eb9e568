// SPDX-License-Identifier: MIT
// Unlocking a LUKS2 root in a real initramfs. scripts/qemu/luks-boot.py encrypts initramfs-boot.py's
// root file system as LUKS2 on the host (cached by its inputs), builds an image with Debian's
// mkinitramfs (cryptsetup-initramfs, console-setup's keymap, our hook, a crypttab for the root, no
// Plymouth), boots it on virtio-gpu with a virtio keyboard, and a probe in the initramfs types the
// passphrase at each prompt through QMP key events (the physical keys of a layout), with
// screendumps of the prompt and of the first keys typed. Two boots: Debian's console prompt with
// the splash off (about 40 s in the VM), and the splash's prompt with a German keymap and a wrong
// passphrase first (about 110 s; it was 4 to 5 minutes before vmtest.py's boots had a small TCG
// translation cache: see its --tb-size), each plus 10 s to build the image.
//
// The passphrase, "zauber@Y1", has keys that differ between the US and German layouts (z/y swapped,
// @ on AltGr+q). In the splash's boot the wrong attempt is the US key positions typed on the
// virtio keyboard (the image's German keymap refuses them), and the right one is tapped on the
// prompt's on-screen keyboard through the virtio tablet (a profile with `on-screen-keyboard =
// always` and `keymap = de`): z and Y are where QWERTZ has them, @ on the symbols level.
import Foundation
import Testing

@Suite("A LUKS2 root unlocked in the initramfs under QEMU", .serialized)
struct LUKSEndToEndTests {
    static let helper = VMSelftestTests.repo.appendingPathComponent("scripts/qemu/luks-boot.py").path

    static func requirePackages() throws {
        try VMSelftestTests.requireQEMUTools()
        try InitramfsEndToEndTests.requireTools(["mkinitramfs", "unmkinitramfs", "mke2fs", "zstd", "cryptsetup", "ckbcomp", "setupcon"])
        try #require(FileManager.default.fileExists(atPath: "/usr/share/initramfs-tools/hooks/cryptroot"),
                     "cryptsetup-initramfs is not installed: run scripts/setup.sh --tests")
    }

    /// One `luks-boot.py boot`: its status, its output, and the guest's "INFO LUKS ..." and "INFO REALROOT ..." lines.
    struct Boot {
        let status: Int32
        let output: String
        let info: [String]
        let shots: String

        init(_ name: String, _ options: [String]) throws {
            try LUKSEndToEndTests.requirePackages()
            let bin = try InitramfsEndToEndTests.binDir()
            let dir = try InitramfsEndToEndTests.workDirectory(name)
            let shotsDir = "\(dir)/shots"
            shots = shotsDir
            // The guest keeps time for the prompt; the images are built while holding the lock too.
            let (code, text) = try VMBootLock.holding(exclusive: true) {
                try runProcess("python3", [LUKSEndToEndTests.helper, "boot", "--bin-dir", bin, "--work", "\(dir)/work",
                                           "--shots-dir", shotsDir] + options)
            }
            (status, output) = (code, text)
            let marker = "guest said: INFO "
            info = output.split(whereSeparator: \.isNewline).compactMap { line in line.range(of: marker).map { String(line[$0.upperBound...]) } }
            print(output.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("[") }.joined(separator: "\n"))
        }

        func value(_ prefix: String) -> String? {
            info.first { $0.hasPrefix(prefix + " ") }.map { String($0.dropFirst(prefix.count + 1)) }
        }

        /// Whether the guest sent "INFO <prefix>" (with or without more words after it).
        func has(_ prefix: String) -> Bool { info.contains { $0 == prefix || $0.hasPrefix(prefix + " ") } }

        /// The screendump `name` (a PPM in the shots directory).
        func shot(_ name: String) throws -> ScreenDump { try ScreenDump(contentsOf: "\(shots)/\(name).ppm") }

        func removeWork() { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: shots).deletingLastPathComponent().path) }

        /// The root opened and mounted, the real root's init ran from the mapping, and the times.
        func checkUnlocked(_ name: String) {
            #expect(value("LUKS unlocked") != nil, "\(name): /dev/mapper/cryptroot never appeared:\n\(output)")
            #expect(value("LUKS root-mounted") != nil, "\(name): the root was never mounted:\n\(output)")
            #expect(value("REALROOT pid") == "1" && value("REALROOT root") == "/dev/mapper/cryptroot ext4",
                    "\(name): the real root's init must run from the unlocked root:\n\(output)")
            #expect(value("LUKS key-to-mount").flatMap { Int($0) } != nil, "\(name): no time from the first key to the mount")
        }
    }

    static func differing(_ a: ScreenDump, _ b: ScreenDump) -> Int {
        guard a.width == b.width, a.height == b.height else { return Int(a.width * a.height) }
        var count = 0
        for i in stride(from: 0, to: a.rgb.count, by: 3) where a.rgb[i] != b.rgb[i] || a.rgb[i + 1] != b.rgb[i + 1] || a.rgb[i + 2] != b.rgb[i + 2] {
            count += 1
        }
        return count
    }

    @Test("The baseline without the splash: Debian's console prompt, the passphrase typed on a US keymap")
    func consoleUnlock() throws {
        let boot = try Boot("luks-console", [])
        defer { boot.removeWork() }
        try #require(boot.status == 0, "the boot failed (\(boot.status)):\n\(boot.output)")
        #expect(boot.output.contains("IMAGE-CRYPTTAB cryptroot UUID=5a1a5b0d-1dd5-4c2e-9a3c-6c75c0ffee01 none luks"), "\(boot.output)")
        #expect(boot.output.contains("IMAGE bin/plymouth -> /usr/bin/splashhud"), "the hook must link /bin/plymouth to the client in an image without Plymouth")
        #expect(boot.value("LUKS prompt 1")?.hasPrefix("method console") == true, "\(boot.output)")
        #expect(!boot.has("LUKS rejected 1") && !boot.has("LUKS prompt 2"), "one prompt, one right passphrase:\n\(boot.output)")
        boot.checkUnlocked("console")
        // The prompt is text on the VT (fbcon): lit pixels in the top rows, nothing of a HUD below.
        let prompt = try boot.shot("luks-prompt-1")
        let (text, below) = prompt.litPixels(splitAtRow: 16 * 12)
        #expect(text > 300 && below < 200, "the prompt shot shows \(text) lit pixels of text, \(below) below it")
    }

    @Test("With the splash: the prompt on the HUD through /bin/plymouth (the client's plymouth personality), a wrong passphrase typed first on a German keymap, the right one tapped on the on-screen keyboard")
    func splashUnlock() throws {
        let boot = try Boot("luks-splash", ["--splash", "--layout", "de", "--wrong-first", "--tap"])
        defer { boot.removeWork() }
        try #require(boot.status == 0, "the boot failed (\(boot.status)):\n\(boot.output)")
        #expect(boot.output.contains("IMAGE bin/plymouth -> /usr/bin/splashhud"), "the hook must link /bin/plymouth to the client in an image without Plymouth")
        #expect(boot.output.contains("luks-test: keymap"), "the test hook did not install the German keymap:\n\(boot.output)")
        for n in [1, 2] {
            #expect(boot.value("LUKS prompt \(n)")?.hasPrefix("method plymouth") == true, "askpass must ask through /bin/plymouth:\n\(boot.output)")
        }
        #expect(boot.value("LUKS typed 1") == "layout us" && boot.value("LUKS typed 2") == "layout tap", "\(boot.output)")
        // The daemon told the probe the keys it shows: four rows of the German layout and five more.
        #expect(boot.value("LUKS keyboard")?.hasPrefix("\(11 + 11 + 11 + 7 + 5) keys: TAP ") == true, "\(boot.output)")
        #expect(!boot.has("LUKS untappable"), "\(boot.output)")
        // The US key positions are refused and the prompt comes back; the tapped passphrase unlocks.
        #expect(boot.has("LUKS rejected 1") && !boot.has("LUKS rejected 2") && !boot.has("LUKS prompt 3"), "\(boot.output)")
        boot.checkUnlocked("splash")
        // initrd.conf names a profile (luks-tap) the real root's settings do not: the daemon is not
        // the one the real root would run, so it hands over rather than living on.
        #expect(boot.value("REALROOT handover")?.contains("splashhud-resume.hud") == true, "the splash must still be handed over:\n\(boot.output)")
        // The prompt is on the HUD (not fbcon's text), the first three keys are three bullets, and
        // the screen is what the memory display draws for that prompt, bit for bit.
        let prompt = try boot.shot("luks-prompt-2"), typed = try boot.shot("luks-typed-2")
        #expect(prompt.litPixels(splitAtRow: 16 * 4).below > 1000, "no HUD on the prompt shot")
        // The image carries DejaVu Sans alone (the hook's one face): the label's bold is it emboldened.
        // It shows the on-screen keyboard as the profile the image carries says.
        let profile = try #require(boot.output.split(whereSeparator: \.isNewline).first { $0.hasPrefix("PROFILE ") }?.dropFirst(8))
        let expected = try PromptRender.memoryDisplay(width: prompt.width, height: prompt.height,
                                                      prompt: "Please unlock disk cryptroot", typed: "abc",
                                                      onlyFonts: ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"], profile: String(profile))
        #expect(PromptRender.differing(expected, typed) == 0, "the typed prompt differs from the memory display's render")
        PromptRender.keepForDocs(typed, "initramfs-tools-touch-prompt")
        #expect(PromptRender.differing(expected, prompt) > 0, "typing did not change the prompt")
        #expect(boot.value("LUKS key-to-mount").flatMap { Int($0) }.map { $0 > 0 } == true)
    }
}
