// SPDX-License-Identifier: MIT
// The pixel formula behind Fixtures/make-fixtures.py, recomputed here so tests know every value the
// fixtures hold without trusting any decoder.

import Foundation

/// Path of a file in Tests/AssetsTests/Fixtures.
func fixturePath(_ name: String, filePath: String = #filePath) -> String {
    URL(fileURLWithPath: filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent(name).path
}

func fixtureBytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixturePath(name))))
}

/// How one good fixture was written (see make-fixtures.py).
struct FixtureSpec: CustomStringConvertible, Sendable {
    static let width = 13, height = 11

    var name: String
    var colorType: Int  // 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA
    var depth: Int
    var entries = 0  // palette size
    var trns = false

    var description: String { name }

    static func sample(_ x: Int, _ y: Int, _ c: Int, _ depth: Int) -> Int {
        (x * 9973 + y * 7919 + c * 30011 + x * y * 131) & ((1 << depth) - 1)
    }

    /// A sample scaled to 8 bits as the decoder does: high byte of 16-bit, bit replication below 8.
    static func to8(_ v: Int, _ depth: Int) -> UInt8 {
        if depth == 16 { return UInt8(v >> 8) }
        return UInt8(v * 255 / ((1 << depth) - 1))
    }

    static func paletteEntry(_ i: Int) -> (UInt8, UInt8, UInt8) {
        (UInt8((i * 53 + 7) & 255), UInt8((i * 97 + 11) & 255), UInt8((i * 151 + 13) & 255))
    }

    /// Straight-alpha RGBA8 the fixture holds at (x, y).
    func expected(_ x: Int, _ y: Int) -> [UInt8] {
        let s = { (c: Int) in FixtureSpec.sample(x, y, c, depth) }
        let v = { (c: Int) in FixtureSpec.to8(s(c), depth) }
        switch colorType {
        case 0:
            let key = FixtureSpec.sample(5, 2, 0, depth)
            return [v(0), v(0), v(0), trns && s(0) == key ? 0 : 255]
        case 2:
            let key = (0..<3).map { FixtureSpec.sample(3, 4, $0, depth) }
            return [v(0), v(1), v(2), trns && (0..<3).map(s) == key ? 0 : 255]
        case 3:
            let i = s(0) % entries
            let (r, g, b) = FixtureSpec.paletteEntry(i)
            let alpha: UInt8 = trns && i < entries / 2 ? UInt8((i * 71 + 5) & 255) : 255
            return [r, g, b, alpha]
        case 4:
            return [v(0), v(0), v(0), v(3)]
        default:
            return [v(0), v(1), v(2), v(3)]
        }
    }

    static let all: [FixtureSpec] = [
        FixtureSpec(name: "gray1", colorType: 0, depth: 1),
        FixtureSpec(name: "gray2", colorType: 0, depth: 2),
        FixtureSpec(name: "gray4", colorType: 0, depth: 4),
        FixtureSpec(name: "gray8", colorType: 0, depth: 8),
        FixtureSpec(name: "gray16", colorType: 0, depth: 16),
        FixtureSpec(name: "gray8-trns", colorType: 0, depth: 8, trns: true),
        FixtureSpec(name: "graya8", colorType: 4, depth: 8),
        FixtureSpec(name: "graya16", colorType: 4, depth: 16),
        FixtureSpec(name: "rgb8", colorType: 2, depth: 8),
        FixtureSpec(name: "rgb16", colorType: 2, depth: 16),
        FixtureSpec(name: "rgb8-trns", colorType: 2, depth: 8, trns: true),
        FixtureSpec(name: "rgba8", colorType: 6, depth: 8),
        FixtureSpec(name: "rgba16", colorType: 6, depth: 16),
        FixtureSpec(name: "palette1", colorType: 3, depth: 1, entries: 2),
        FixtureSpec(name: "palette2", colorType: 3, depth: 2, entries: 4),
        FixtureSpec(name: "palette4-trns", colorType: 3, depth: 4, entries: 16, trns: true),
        FixtureSpec(name: "palette8-trns", colorType: 3, depth: 8, entries: 200, trns: true),
        FixtureSpec(name: "gray1-adam7", colorType: 0, depth: 1),
        FixtureSpec(name: "graya8-adam7", colorType: 4, depth: 8),
        FixtureSpec(name: "palette4-trns-adam7", colorType: 3, depth: 4, entries: 16, trns: true),
        FixtureSpec(name: "rgba8-adam7", colorType: 6, depth: 8),
        FixtureSpec(name: "rgba16-adam7", colorType: 6, depth: 16),
    ]
}
