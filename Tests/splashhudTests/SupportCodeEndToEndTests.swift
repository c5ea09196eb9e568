// SPDX-License-Identifier: MIT
// The support QR code scans: the real daemon on a memory display, a board profile naming a support
// address, `error --stay --support REASON` from a script, and the last frame as the display got it
// (shown-last.png, after the output's rotation) decoded by a real decoder, zbar's `zbarimg`
// (zbar-tools, scripts/setup.sh --tests). The decoded text must be the address exactly.
import Foundation
import Testing

@Suite("Support code end to end", .serialized)
struct SupportCodeEndToEndTests {
    static let reason = "Image invalid or corrupted. Not installing ..."
    static let encodedReason = "Image%20invalid%20or%20corrupted.%20Not%20installing%20..."

    /// Runs the daemon on `display` with `profile` (the text of a .conf file) showing `line`;
    /// returns what zbarimg decodes from the last frame (nil: no code found) and the daemon's log.
    static func scan(profile: String, display: String, line: String = "error --stay --support \(Self.reason.quoted)",
                     daemon: String? = nil) throws -> (decoded: String?, log: String) {
        let zbarimg = "/usr/bin/zbarimg"
        try #require(FileManager.default.isExecutableFile(atPath: zbarimg), "zbarimg is missing: scripts/setup.sh --tests installs zbar-tools")
        let dir = try temporaryDirectory("support-code")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try profile.write(toFile: "\(dir)/board.conf", atomically: true, encoding: .utf8)
        try "@0 \(line)\n".write(toFile: "\(dir)/script", atomically: true, encoding: .utf8)
        let (status, log) = try SplashBinary.run(try daemon ?? SplashBinary.path("splashhudd"), [
            "--display", display, "--profile", "\(dir)/board.conf", "--socket", "none", "--script", "\(dir)/script",
            "--duration", "1", "--retain", "--out", "\(dir)/out", "--log-level", "info",
        ])
        try #require(status == 0, "\(log)")
        // --raw: the symbol's text alone; -q: no statistics. Exit status 4: no symbol found.
        let (found, text) = try SplashBinary.runBytes(zbarimg, ["--raw", "-q", "\(dir)/out/shown-last.png"])
        if found == 4 { return (nil, log) }
        try #require(found == 0, "zbarimg exited \(found)")
        var decoded = String(decoding: text, as: UTF8.self)
        if decoded.hasSuffix("\n") { decoded.removeLast() }
        return (decoded, log)
    }

    static let profile = """
        [updates]
        support-url = https://support.example.com/kiosk
        device-id = hall-7/kiosk 2

        """

    @Test func theFailureScreenScansToTheSupportAddress() throws {
        let (decoded, log) = try Self.scan(profile: Self.profile, display: "memory:640x480")
        #expect(decoded == "https://support.example.com/kiosk?device=hall-7%2Fkiosk%202&error=\(Self.encodedReason)", "\(log)")
    }

    /// The fully static daemon (libqrencode.a linked in, scripts/qrencode-library.sh) draws it too.
    @Test(.enabled(if: !LinkRecords.daemon.isEmpty, "needs the static daemon (SPLASHHUD_STATIC_DAEMON, scripts/test.sh)"))
    func theStaticDaemonScansToo() throws {
        let (decoded, log) = try Self.scan(profile: Self.profile, display: "memory:640x480", daemon: LinkRecords.daemon)
        #expect(decoded == "https://support.example.com/kiosk?device=hall-7%2Fkiosk%202&error=\(Self.encodedReason)", "\(log)")
    }

    @Test func aRotatedPanelScansToo() throws {
        let profile = "[output]\nrotation = 90\n" + Self.profile.replacingOccurrences(of: "/kiosk\n", with: "/kiosk?lang=de\n")
        let (decoded, log) = try Self.scan(profile: profile, display: "memory:480x800")
        #expect(log.contains("rotation r90"), "\(log)")
        #expect(decoded == "https://support.example.com/kiosk?lang=de&device=hall-7%2Fkiosk%202&error=\(Self.encodedReason)", "\(log)")
    }

    @Test func aSmallPanelScansAtTwoPixelsAModule() throws {
        let profile = "[output]\nrotation = 180\n" + Self.profile
        let (decoded, log) = try Self.scan(profile: profile, display: "memory:480x272")
        #expect(decoded == "https://support.example.com/kiosk?device=hall-7%2Fkiosk%202&error=\(Self.encodedReason)", "\(log)")
    }

    @Test func theDeviceIDIsTheHostNameByDefault() throws {
        let host = try String(contentsOfFile: "/proc/sys/kernel/hostname", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let (decoded, log) = try Self.scan(profile: "[updates]\nsupport-url = http://s.example/k?\n", display: "memory:640x480",
                                           line: "error --support --stay \"Disk full\"")
        let encodedHost = host.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"))!
        #expect(decoded == "http://s.example/k?device=\(encodedHost)&error=Disk%20full", "\(log)")
    }

    /// `splashhud render --profile` shows a theme author the same code.
    @Test func aHeadlessRenderWithTheProfileHasItToo() throws {
        let dir = try temporaryDirectory("support-render")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.profile.write(toFile: "\(dir)/board.conf", atomically: true, encoding: .utf8)
        try "@0 error --stay --support \(Self.reason.quoted)\n".write(toFile: "\(dir)/script", atomically: true, encoding: .utf8)
        let (status, output) = try SplashBinary.run(try SplashBinary.path("splashhud-tools"), [
            "render", "\(dir)/script", "--profile", "\(dir)/board.conf", "--size", "480x320", "--at", "1", "--out", "\(dir)/frame.png",
        ])
        try #require(status == 0, "\(output)")
        let (found, text) = try SplashBinary.runBytes("/usr/bin/zbarimg", ["--raw", "-q", "\(dir)/frame.png"])
        #expect(found == 0 && String(decoding: text, as: UTF8.self)
                == "https://support.example.com/kiosk?device=hall-7%2Fkiosk%202&error=\(Self.encodedReason)\n")
    }

    @Test func noCodeWithoutAnAddressOrWithoutRoom() throws {
        // No support-url: --support changes nothing, said once.
        var (decoded, log) = try Self.scan(profile: "[hud]\nstyle = dark\n", display: "memory:640x480")
        #expect(decoded == nil)
        #expect(log.contains("--support: the board profile names no support address ([updates] support-url); no QR code shown"), "\(log)")
        // Without --support, no code either.
        (decoded, log) = try Self.scan(profile: Self.profile, display: "memory:640x480", line: "error --stay \(Self.reason.quoted)")
        #expect(decoded == nil, "\(log)")
        // A screen with no room for 2 px modules: left out, saying why.
        (decoded, log) = try Self.scan(profile: Self.profile, display: "memory:200x120")
        #expect(decoded == nil)
        #expect(log.contains("output memory: no support QR code: its") && log.contains("at 2 px a module"), "\(log)")
    }
}

extension String {
    /// In double quotes, for a script line.
    fileprivate var quoted: String { "\"" + self + "\"" }
}
