// SPDX-License-Identifier: MIT
// The one privilege table, read by the daemon and the MQTT bridge: each privileged verb is what
// the lines that use it parse to, every other verb is ordinary, and each has its `--allow` name
// and a purpose for the refusal. (A new request or setting without an entry does not compile: the
// table's switches have no default.)
import Testing
import HUDProtocol

@Suite struct PrivilegedVerbTests {
    /// Lines that use each privileged verb. A verb added to the table without lines here fails.
    static let privilegedLines: [PrivilegedVerb: [String]] = [
        .quit: ["quit", "quit --retain", "QUIT", "exit"],
        .image: ["image /srv/logo.png", "image /srv/logo.png \"Updated\""],
        .setFont: ["set font /usr/share/fonts/x.ttf"],
        .subscribeKeys: ["subscribe keys"],
        .askPassword: ["ask-password \"PIN\""],
        .newRoot: ["newroot /root", "newroot \"/mnt/real root\""],
    ]

    @Test func eachPrivilegedVerbIsWhatItsLinesParseTo() throws {
        #expect(Set(Self.privilegedLines.keys) == Set(PrivilegedVerb.allCases), "every verb has lines here")
        for (verb, lines) in Self.privilegedLines {
            for line in lines {
                #expect(try ControlRequest.parse(line)?.privilegedVerb == verb, "\(line)")
            }
        }
    }

    @Test func everythingElseIsOrdinary() throws {
        let lines = ["ping", "version", "state", "wait", "subscribe", "snapshot", "snapshot HDMI-A-1", "show", "show \"Hi\"",
                     "progress 0.5 \"Copying\"", "success", "error \"No\"", "info", "status \"x\"",
                     "dismiss", "pop", "reset", "press", "progress-over 0.5 10", "PROGRESS 40", "MSG \"x\"",
                     "set font-size 20", "set foreground-color #FFFFFF", "set max-fps 15", "set label \"Loading\""]
        for line in lines {
            let request = try #require(try ControlRequest.parse(line), "\(line)")
            #expect(request.privilegedVerb == nil, "\(line) is not privileged")
        }
    }

    @Test func namesAndPurposes() {
        for verb in PrivilegedVerb.allCases {
            #expect(PrivilegedVerb(allowName: verb.rawValue) == verb)
            #expect(PrivilegedVerb(allowName: verb.rawValue.replacing("-", with: " ")) == verb)
            #expect(!verb.purpose.isEmpty)
        }
        #expect(Set(PrivilegedVerb.allCases.map(\.purpose)).count == PrivilegedVerb.allCases.count, "each refusal says which")
        #expect(PrivilegedVerb(allowName: "ping") == nil)
    }
}
