// Random bytes never crash the parser: every line either parses (and then prints back to a line
// that parses to the same command) or throws a CommandError with a message.
import Testing
import Raster
@testable import HUDProtocol

/// A small deterministic generator (SplitMix64), so a failure replays exactly.
struct CommandFuzzRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

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
        var random = CommandFuzzRandom(state: 0x5EED)
        for _ in 0..<10_000 {
            let count = random.below(24)
            check((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
    }

    @Test func randomGrammarPiecesNeverCrash() {
        var random = CommandFuzzRandom(state: 42)
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
        var random = CommandFuzzRandom(state: 7)
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
