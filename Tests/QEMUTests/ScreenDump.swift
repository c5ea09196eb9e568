// SPDX-License-Identifier: MIT
// QEMU's `screendump` output (binary PPM, P6, maxval 255) and the pixel comparison the end-to-end
// display tests make between it and a MemoryDisplay's scanout.
import Assets
import Foundation
import Raster

/// An RGB picture read from a P6 PPM: `width x height` pixels, 3 bytes each, rows top to bottom.
struct ScreenDump {
    let width: Int32
    let height: Int32
    let rgb: [UInt8]

    enum ReadError: Error, CustomStringConvertible {
        case unreadable(String)
        case notPPM(String, String)
        var description: String {
            switch self {
            case .unreadable(let path): return "cannot read \(path)"
            case .notPPM(let path, let why): return "\(path) is not a binary PPM QEMU would write: \(why)"
            }
        }
    }

    init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw ReadError.unreadable(path) }
        let bytes = [UInt8](data)
        // Header: "P6", width, height, maxval, separated by whitespace ('#' comments allowed), then
        // exactly one whitespace byte before the samples.
        var at = 0
        func token() -> String? {
            while at < bytes.count {
                if bytes[at] == UInt8(ascii: "#") {
                    while at < bytes.count && bytes[at] != 0x0A { at += 1 }
                } else if [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) {
                    at += 1
                } else { break }
            }
            let start = at
            while at < bytes.count && ![0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
            return start < at ? String(decoding: bytes[start..<at], as: UTF8.self) : nil
        }
        guard token() == "P6" else { throw ReadError.notPPM(path, "no P6 magic") }
        guard let w = token().flatMap({ Int32($0) }), let h = token().flatMap({ Int32($0) }),
            let maxval = token().flatMap({ Int($0) }), w > 0, h > 0
        else { throw ReadError.notPPM(path, "bad size or maxval") }
        guard maxval == 255 else { throw ReadError.notPPM(path, "maxval \(maxval), not 255") }
        at += 1
        let count = Int(w) * Int(h) * 3
        guard bytes.count - at >= count else { throw ReadError.notPPM(path, "\(bytes.count - at) sample bytes for \(w)x\(h)") }
        width = w; height = h
        rgb = Array(bytes[at..<(at + count)])
    }

    /// The pixel at (x, y) as opaque premultiplied ARGB32.
    /// Lit (non-black) pixels in the rows above `row` and from it down: a VT's text on its first
    /// line against anything of ours left below it.
    func litPixels(splitAtRow row: Int32) -> (above: Int, below: Int) {
        var above = 0, below = 0
        for y in 0..<height {
            for x in 0..<width where argb(x: x, y: y) & 0xFF_FFFF != 0 {
                if y < row { above += 1 } else { below += 1 }
            }
        }
        return (above, below)
    }

    func argb(x: Int32, y: Int32) -> UInt32 {
        let i = (Int(y) * Int(width) + Int(x)) * 3
        return 0xFF00_0000 | UInt32(rgb[i]) << 16 | UInt32(rgb[i + 1]) << 8 | UInt32(rgb[i + 2])
    }

    var pixmap: Pixmap {
        let p = Pixmap(width: width, height: height)
        for y in 0..<height {
            let row = p.view.row(y)
            for x in 0..<width { row[Int(x)] = argb(x: x, y: y) }
        }
        return p
    }
}

/// How a screendump differs from the expected screen.
struct ScreenDifference: CustomStringConvertible {
    /// Pixels that differ outside the excluded rect.
    var count = 0
    /// The largest channel difference among them (0...255, after quantisation for 565).
    var maxChannel = 0
    /// The first differing pixel and its values (dump, expected).
    var first: (x: Int32, y: Int32, got: UInt32, want: UInt32)?
    /// Pixels that differ inside the excluded rect (fbcon's cursor cell).
    var excludedCount = 0
    /// Red where pixels differ, the dump dimmed elsewhere; the excluded rect tinted blue.
    var picture: Pixmap?

    var description: String {
        guard let f = first else { return "identical (\(excludedCount) differing pixels in the excluded cell)" }
        return "\(count) pixels differ, max channel difference \(maxChannel), first at (\(f.x), \(f.y)): screen "
            + "\(hex(f.got)) expected \(hex(f.want)); \(excludedCount) more in the excluded cell"
    }

    private func hex(_ v: UInt32) -> String { "#" + String(v & 0xFF_FFFF, radix: 16).leftPadded(6) }

    /// Writes the dump, the expectation and the difference picture to .build/qemu-failures/ as
    /// `NAME-screen.png`, `NAME-expected.png` and `NAME-diff.png`, for a person to look at.
    func save(_ name: String, dump: ScreenDump, expected: Pixmap) {
        let dir = VMSelftestTests.repo.appendingPathComponent(".build/qemu-failures").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let stem = "\(dir)/\(name)"
        try? PNGEncoder.write(dump.pixmap, to: stem + "-screen.png")
        try? PNGEncoder.write(expected, to: stem + "-expected.png")
        if let p = picture { try? PNGEncoder.write(p, to: stem + "-diff.png") }
    }
}

extension String {
    fileprivate func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}

/// Compares `dump` with `expected` (both scanout-sized). With `channelBits` (5, 6, 5 for RGB565)
/// channels are compared on their top bits only: QEMU widens 5/6-bit channels its own way, the
/// panel's information is the top bits. Pixels in `excluding` (fbcon's cursor cell) are counted
/// apart.
func compareScreens(_ dump: ScreenDump, _ expected: Pixmap, channelBits: (Int, Int, Int) = (8, 8, 8), excluding: IntRect = .zero) -> ScreenDifference {
    precondition(dump.width == expected.width && dump.height == expected.height, "sizes differ")
    var d = ScreenDifference()
    let picture = Pixmap(width: dump.width, height: dump.height)
    let shifts = [16, 8, 0]
    let bits = [channelBits.0, channelBits.1, channelBits.2]
    for y in 0..<dump.height {
        let want = expected.view.row(y), out = picture.view.row(y)
        for x in 0..<dump.width {
            let got = dump.argb(x: x, y: y), w = want[Int(x)]
            var worst = 0
            for c in 0..<3 {
                let drop = 8 - bits[c]
                let a = Int((got >> UInt32(shifts[c])) & 0xFF) >> drop, b = Int((w >> UInt32(shifts[c])) & 0xFF) >> drop
                worst = max(worst, abs(a - b) << drop)
            }
            let excluded = excluding.contains(x: x, y: y)
            if worst != 0 {
                if excluded {
                    d.excludedCount += 1
                } else {
                    d.count += 1
                    d.maxChannel = max(d.maxChannel, worst)
                    if d.first == nil { d.first = (x, y, got, w) }
                }
            }
            let grey = ((got >> 16 & 0xFF) + (got >> 8 & 0xFF) + (got & 0xFF)) / 12
            out[Int(x)] = worst != 0 && !excluded ? 0xFFFF_0000 : 0xFF00_0000 | grey << 16 | grey << 8 | (excluded ? 0xFF : grey)
        }
    }
    d.picture = picture
    return d
}

extension IntRect {
    fileprivate func contains(x px: Int32, y py: Int32) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }
}
