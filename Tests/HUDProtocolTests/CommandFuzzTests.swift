// SPDX-License-Identifier: MIT
// Random bytes never crash the parser: every line either parses (and then prints back to a line
// that parses to the same command) or throws a CommandError with a message.
import GoldenSupport
import Testing
import Raster
@testable import HUDProtocol

@Suite struct CommandFuzzTests {
    /// Pieces that reach deep into the grammar, mixed with arbitrary bytes.
    static let pieces: [String] = CommandParser.verbs + CommandParser.keys + CommandParser.compatibilityVerbs + [
        " ", " ", " ", "\t", "\"", "'", "\\", "\\u{", "}", "#", "@", "-", ".", "0", "1", "5", "50", "100",
        "0.5", "1e3", "x", ",", "#FF00FF", "#12345678", "inf", "forever", "on", "off", "dark", "black",
        "zoom-in", "custom", "正在", "😀", "\n", "\r", "é",
    ]

    func check(_ bytes: [UInt8]) {
        do {
            guard let command = try CommandParser.parse(bytes: bytes) else { return }
            let line = command.description
            do {
                #expect(try CommandParser.parse(line) == command, "\(bytes) → \(line)")
            } catch {
                Issue.record("\(bytes) parsed as \(command) but '\(line)' fails: \(error)")
            }
        } catch {
            #expect(!error.message.isEmpty)
        }
    }

    @Test func randomBytesNeverCrash() {
        var random = SplitMix64(state: 0x5EED)
        for _ in 0..<10_000 {
            let count = random.below(24)
            check((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
    }

    @Test func randomGrammarPiecesNeverCrash() {
        var random = SplitMix64(state: 42)
        var parsed = 0
        for _ in 0..<10_000 {
            var bytes: [UInt8] = []
            for _ in 0..<random.below(8) {
                if random.below(10) == 0 {
                    bytes.append(UInt8(truncatingIfNeeded: random.next()))
                } else {
                    bytes += Array(Self.pieces[random.below(Self.pieces.count)].utf8)
                }
            }
            if (try? CommandParser.parse(bytes: bytes)) != nil { parsed += 1 }
            check(bytes)
        }
        // The generator really exercises the parser, not only its error paths.
        #expect(parsed > 150)
    }

    @Test func randomScriptsNeverCrash() {
        var random = SplitMix64(state: 7)
        let pieces = Self.pieces + ["@0 ", "@1.5 ", "@0.25 ", "\n@2 "]
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<random.below(10) { text += pieces[random.below(pieces.count)] }
            do {
                let commands = try CommandParser.parseScript(text)
                #expect(zip(commands, commands.dropFirst()).allSatisfy { $0.time <= $1.time && $0.line < $1.line })
            } catch {
                #expect(error.line != nil, "\(text): \(error)")
            }
        }
    }
}
