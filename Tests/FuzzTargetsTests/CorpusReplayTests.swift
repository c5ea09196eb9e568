// SPDX-License-Identifier: MIT
// Every file of the fuzz corpus (the seeds, and each crash libFuzzer found, kept as a regression
// test) through its target in a plain build: none may trap. The same functions run under
// libFuzzer in scripts/fuzz.sh.
import Foundation
import SplashFuzzTargets
import Testing

@Suite("Fuzz corpus replay")
struct CorpusReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus")

    @Test("each target's corpus replays without a trap", arguments: FuzzTarget.allCases)
    func replay(target: FuzzTarget) throws {
        let dir = Self.corpus.appendingPathComponent(target.rawValue)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(!files.isEmpty, "no seeds for \(target.rawValue)")
        for name in files {
            let data = try Data(contentsOf: dir.appendingPathComponent(name))
            target.run([UInt8](data))
        }
    }

    @Test("the invariants the targets check do hold for inputs built to probe them")
    func probes() {
        // Pieces of every size, lines over the limit, bad UTF-8, NUL words, partial Plymouth requests.
        for step in 0..<17 {
            FuzzTarget.control.run([UInt8(step)] + Array("show a\n".utf8) + [UInt8](repeating: 0x41, count: 5000) + [0x0A, 0xC3, 0x28, 0x0A])
            FuzzTarget.fifo.run([UInt8(step)] + Array("MSG x\0PROGRESS 101\0QUIT".utf8))
            FuzzTarget.plymouth.run([UInt8(step)] + Array("M\u{02}\u{05}abc".utf8))
        }
        FuzzTarget.commands.run(Array("set offset 2048,-2048\nprogress 1e9\nset label \"\\u{0}\"\nshow \"a\" b\n".utf8))
        FuzzTarget.font.run(Array("OTTO\0\0\0\0".utf8))
        FuzzTarget.evdev.run([UInt8](repeating: 0xFF, count: 240))
    }
}
