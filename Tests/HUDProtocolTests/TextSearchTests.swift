// SPDX-License-Identifier: MIT
// The substring search that keeps _StringProcessing out of the daemon and the client, against
// _StringProcessing's own firstRange(of:) (the tests may link it).
import Testing
import HUDProtocol

@Suite struct TextSearchTests {
    static let cases: [(String, String)] = [
        ("usb keyboard", "keyboard"), ("usb keyboard", "usb"), ("usb keyboard", "board"), ("abc", "abc"),
        ("abc", "abcd"), ("abc", ""), ("", ""), ("", "a"), ("aaab", "aab"), ("abababc", "ababc"),
        ("HDMI-A-1 -> DSI-1", "->"), ("no arrow", "->"), ("cafe\u{301}", "e"), ("cafe\u{301}", "e\u{301}"),
        ("caf\u{e9}!", "e\u{301}"), ("x\r\ny", "\n"), ("💡🔥💡", "🔥💡"), ("yn", "n"), ("Ünïcödé", "cöd"),
    ]

    @Test(arguments: cases) func matchesFirstRangeOf(haystack: String, needle: String) {
        #expect(haystack.firstRange(ofText: needle) == haystack.firstRange(of: needle))
        // By Characters, as firstRange(of:) (contains(_:) finds "\n" inside "\r\n" and never "").
        #expect(haystack.containsText(needle) == (haystack.firstRange(of: needle) != nil))
    }

    @Test func findsInSubstrings() {
        let line = "input: Logitech USB Receiver"
        let name = line[line.index(line.startIndex, offsetBy: 7)...]
        let found = name.firstRange(ofText: "USB")
        #expect(found.map { String(name[$0]) } == "USB")
        #expect(found?.lowerBound == line.firstRange(of: "USB")?.lowerBound)
        #expect(!name.containsText("input"))
    }
}
