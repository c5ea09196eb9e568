// SPDX-License-Identifier: MIT
// roff escaping, by hand (the client links no _StringProcessing), against the replacements it stands for.
import Testing
@testable import CommandLineOptions

@Suite struct ManPageTests {
    static func replaced(_ text: String) -> String {
        var out = text.replacing("\\", with: "\\\\").replacing("-", with: "\\-")
        if out.first == "." || out.first == "'" { out = "\\&" + out }
        return out.replacing("\n.", with: "\n\\&.").replacing("\n'", with: "\n\\&'")
    }

    @Test(arguments: ["--socket PATH", ".TH at the start", "'quoted", "a\n.b\n'c\nd.e", "C:\\path-\\x", "",
                      "\n\n.", "x\r\n.y", "-", "--", "plain text"])
    func escapesAsTheReplacementsDid(text: String) {
        #expect(ManPage.escape(text) == Self.replaced(text))
    }

    @Test func escapesEachSpecialCharacter() {
        #expect(ManPage.escape(".a-b\\c\n'd") == "\\&.a\\-b\\\\c\n\\&'d")
    }
}
