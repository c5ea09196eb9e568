// SPDX-License-Identifier: MIT
// The data of the `version` request's reply: `protocol 1 splashhud 0.9.0`, the control protocol's
// version and the daemon's own, as key/value words.
//
// Compatibility: a client and a daemon that say the same protocol number understand each other's
// lines whatever their software versions. A verb newer than the daemon gets `error syntax unknown
// verb`, and a reader skips state keys and reply words it does not know (later versions may add
// them), so nothing else is checked up front: a boot client pays no extra round trip. A daemon with
// another protocol number may mean something else by a reply; `splashhud version` says so and
// exits 76 (not the protocol), and a program that cares asks `version` once and compares.

public struct VersionReply: Equatable, Sendable {
    /// `ControlProtocol.version` of the daemon that replied.
    public var protocolVersion: Int
    /// `SplashHUDVersion.current` of the daemon that replied.
    public var software: String

    public init(protocolVersion: Int, software: String) {
        self.protocolVersion = protocolVersion
        self.software = software
    }

    /// What this build's daemon replies.
    public static let current = VersionReply(protocolVersion: ControlProtocol.version, software: SplashHUDVersion.current)

    /// The reply's data (after `ok `).
    public var line: String { "protocol \(protocolVersion) splashhud \(software)" }

    /// A reply's data read back, unknown key/value pairs skipped; nil without both keys.
    public init?(line: String) {
        guard let words = try? CommandLexer.words(line), words.count % 2 == 0 else { return nil }
        var protocolVersion: Int?, software: String?
        for i in stride(from: 0, to: words.count, by: 2) {
            switch words[i].text {
            case "protocol": protocolVersion = Int(words[i + 1].text)
            case "splashhud": software = words[i + 1].text
            default: continue
            }
        }
        guard let protocolVersion, let software else { return nil }
        self.init(protocolVersion: protocolVersion, software: software)
    }

    /// Whether this build's client reads the replies of a daemon that said `self`.
    public var speaksThisProtocol: Bool { protocolVersion == ControlProtocol.version }
}
