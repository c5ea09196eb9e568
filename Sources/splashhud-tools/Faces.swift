// SPDX-License-Identifier: MIT
// `splashhud faces`: the faces texts need, for the initramfs hook and dracut module, which copy
// them into the image (subsetting large ones with hb-subset to these characters). The chain is the
// profile's `font` (every face it names: the HUD refuses a chain with one missing) before the
// default chain, whose faces are listed only when a text resolves to them.
import ArgumentParser
import Assets
import Board
import HUDProtocol

struct Faces: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the font faces these texts need: one line per face, PATH INDEX CODEPOINTS (hex, comma-separated; - for every character).")

    @Option(help: "A board profile, by name or path: its font chain comes first, its [modes] texts are added.")
    var profile: String?

    @Option(name: .customLong("text"), help: "A text the HUD will show (repeatable).")
    var texts: [String] = []

    func run() throws {
        var texts = self.texts, named: [FontSource] = []
        if let profile {
            let board = try ProfileLocator.load(profile)
            texts += board.modeTitles.values
            for case .font(let spec) in try board.hudSettings() { named = try FontSource.parse(spec) }
        }
        let defaults = try FontChain.systemDefault()
        let chain = named.isEmpty ? defaults : try FontChain(sources: named, after: defaults)
        var lines: [(path: String, index: Int32, text: String)] = named.map { ($0.path, $0.index, "-") }
        for need in chain.needs(for: texts) where !lines.contains(where: { $0.path == need.path && $0.index == need.index }) {
            lines.append((need.path, need.index, need.scalars.map { String($0, radix: 16) }.joined(separator: ",")))
        }
        for line in lines { print("\(line.path) \(line.index) \(line.text)") }
    }
}
