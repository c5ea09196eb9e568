// SPDX-License-Identifier: MIT
// What the memory display shows for a passphrase prompt with some characters typed: a daemon on
// the host asked through its control socket (ask-password), the keys typed on a pseudo-terminal
// (--prompt-tty), its snapshot; to hold a guest's screendump of the same prompt against.
import Assets
import Foundation
import GoldenSupport
import Raster

enum PromptRender {
    /// Keeps a boot's prompt screendump as `.build/qemu-shots/NAME.png`, rewritten on every run:
    /// docs/passphrases.md's pictures are these (scripts/passphrase-pictures.sh copies them).
    static func keepForDocs(_ dump: ScreenDump, _ name: String) {
        let keep = VMSelftestTests.repo.appendingPathComponent(".build/qemu-shots").path
        try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
        try? PNGEncoder.write(dump.pixmap, to: "\(keep)/\(name).png")
    }

    /// `onlyFonts`: the font files a guest carries (an initramfs: DejaVu Sans alone). The daemon
    /// then runs in a mount namespace whose /usr/share/fonts holds those files and no other, so
    /// its default chains, bold included (a face without its bold file is emboldened), are the guest's.
    /// `profile`: the board profile the guest's daemon ran with (its on-screen keyboard and layout).
    static func memoryDisplay(width: Int32, height: Int32, prompt: String, typed: String, onlyFonts: [String]? = nil,
                              profile: String? = nil) throws -> Pixmap {
        let daemon = try GuestProgram.path(product: "splashhudd"), client = try GuestProgram.path(product: "splashhud")
        let dir = NSTemporaryDirectory() + "splashhud-prompt-render-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tty = try PseudoTerminal()
        let hud = Process()
        let arguments = ["--display", "memory:\(width)x\(height)", "--socket", "\(dir)/control", "--prompt-tty", tty.path,
                         "--duration", "60", "--log-level", "error"] + (profile.map { ["--profile", $0] } ?? [])
        if let onlyFonts {
            let root = "/usr/share/fonts/"
            for font in onlyFonts {
                precondition(font.hasPrefix(root), "\(font) is not under \(root)")
                let copy = "\(dir)/fonts/\(font.dropFirst(root.count))"
                try FileManager.default.createDirectory(atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: font, toPath: copy)
            }
            // unshare without --fork execs in place: `hud` is the daemon itself.
            hud.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            hud.arguments = ["-m", "/bin/sh", "-c", "mount --bind \"$0\" /usr/share/fonts && exec \"$@\"", "\(dir)/fonts", daemon] + arguments
        } else {
            hud.executableURL = URL(fileURLWithPath: daemon)
            hud.arguments = arguments
        }
        try hud.run()
        defer { if hud.isRunning { hud.terminate() }; hud.waitUntilExit() }
        let end = Date().addingTimeInterval(20)
        while Date() < end, (try? runProcess(client, ["ping", "--socket", "\(dir)/control"]).0) != 0 { Thread.sleep(forTimeInterval: 0.05) }
        let asking = Process()
        asking.executableURL = URL(fileURLWithPath: client)
        asking.arguments = ["ask-password", prompt, "--socket", "\(dir)/control"]
        asking.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try asking.run()
        while Date() < end, !((try? runProcess(client, ["state", "--socket", "\(dir)/control"]).1) ?? "").contains("mode prompt") {
            Thread.sleep(forTimeInterval: 0.05)
        }
        tty.type(typed)
        Thread.sleep(forTimeInterval: 0.5)
        _ = try runProcess(client, ["snapshot", "\(dir)/prompt.png", "--socket", "\(dir)/control"])
        tty.type("\r")
        asking.waitUntilExit()
        return try PNGDecoder.decode(contentsOf: "\(dir)/prompt.png")
    }

    /// Pixels of `dump` whose RGB differs from `image`'s (all of them when the sizes differ).
    static func differing(_ image: Pixmap, _ dump: ScreenDump) -> Int {
        guard image.width == dump.width, image.height == dump.height else { return Int(dump.width * dump.height) }
        var count = 0
        for y in 0..<image.height {
            let row = image.view.row(y)
            for x in 0..<Int(image.width) {
                let p = row[x], i = (Int(y) * Int(image.width) + x) * 3
                if UInt8(truncatingIfNeeded: p >> 16) != dump.rgb[i] || UInt8(truncatingIfNeeded: p >> 8) != dump.rgb[i + 1]
                    || UInt8(truncatingIfNeeded: p) != dump.rgb[i + 2] { count += 1 }
            }
        }
        return count
    }
}
