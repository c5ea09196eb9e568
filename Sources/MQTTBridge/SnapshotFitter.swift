// SPDX-License-Identifier: MIT
// A snapshot that fits the broker: the daemon's PNG as it is when it fits in `limit` bytes, else
// the picture halved (2x2 box filter) until its PNG does. Brokers drop, or disconnect for, a
// publish over their Maximum Packet Size (AWS IoT Core takes 128 KB, Azure IoT Hub 256 KiB), so
// the bridge never sends one; the publish says by how much it was scaled (user properties).
import Images

struct FittedSnapshot: Equatable, Sendable {
    var png: [UInt8]
    /// The picture's size as sent, and the daemon's.
    var width: UInt32, height: UInt32
    var originalWidth: UInt32, originalHeight: UInt32
    /// 1 when sent as the daemon made it, else 2, 4, 8…: each side divided by this.
    var scaleDivisor: UInt32
}

enum SnapshotFitter {
    enum Failure: Error, Equatable, CustomStringConvertible {
        case unreadable(String)
        case cannotFit(limit: Int)
        var description: String {
            switch self {
            case .unreadable(let why): return "the daemon's PNG does not decode: \(why)"
            case .cannotFit(let limit): return "no scale of the snapshot fits in \(limit) bytes"
            }
        }
    }

    /// `png` scaled down until `png.count <= budget` (the packet limit less the topic and properties).
    static func fit(_ png: [UInt8], budget: Int) throws(Failure) -> FittedSnapshot {
        let raw: PNGRawImage
        do { raw = try PNGDecoder.decodeRaw(png) } catch { throw .unreadable("\(error)") }
        if png.count <= budget {
            return FittedSnapshot(png: png, width: raw.width, height: raw.height, originalWidth: raw.width,
                                  originalHeight: raw.height, scaleDivisor: 1)
        }
        var image = (rgba: raw.rgba, width: raw.width, height: raw.height)
        var divisor: UInt32 = 1
        while image.width > 1 || image.height > 1 {
            image = halve(image.rgba, width: image.width, height: image.height)
            divisor *= 2
            let encoded: [UInt8]
            do { encoded = try encode(image.rgba, width: image.width, height: image.height) } catch { throw .unreadable("\(error)") }
            if encoded.count <= budget {
                return FittedSnapshot(png: encoded, width: image.width, height: image.height, originalWidth: raw.width,
                                      originalHeight: raw.height, scaleDivisor: divisor)
            }
        }
        throw .cannotFit(limit: budget)
    }

    /// Each output pixel the mean of (up to) 2x2 input pixels, RGBA straight alpha.
    static func halve(_ rgba: [UInt8], width: UInt32, height: UInt32) -> (rgba: [UInt8], width: UInt32, height: UInt32) {
        let w = Int(width), h = Int(height)
        let ow = max(1, (w + 1) / 2), oh = max(1, (h + 1) / 2)
        var out = [UInt8](repeating: 0, count: ow * oh * 4)
        for oy in 0..<oh {
            for ox in 0..<ow {
                var sum: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
                var n: UInt32 = 0
                for y in (oy * 2)..<min(h, oy * 2 + 2) {
                    for x in (ox * 2)..<min(w, ox * 2 + 2) {
                        let i = (y * w + x) * 4
                        sum.0 += UInt32(rgba[i]); sum.1 += UInt32(rgba[i + 1]); sum.2 += UInt32(rgba[i + 2]); sum.3 += UInt32(rgba[i + 3])
                        n += 1
                    }
                }
                let o = (oy * ow + ox) * 4
                out[o] = UInt8((sum.0 + n / 2) / n); out[o + 1] = UInt8((sum.1 + n / 2) / n)
                out[o + 2] = UInt8((sum.2 + n / 2) / n); out[o + 3] = UInt8((sum.3 + n / 2) / n)
            }
        }
        return (out, UInt32(ow), UInt32(oh))
    }

    /// RGB when every pixel is opaque (a screen always is), else RGBA.
    private static func encode(_ rgba: [UInt8], width: UInt32, height: UInt32) throws -> [UInt8] {
        var opaque = true
        for i in stride(from: 3, to: rgba.count, by: 4) where rgba[i] != 255 { opaque = false; break }
        guard opaque else { return try PNGEncoder.encode(samples: rgba, width: width, height: height, colorType: .rgba) }
        var rgb = [UInt8](); rgb.reserveCapacity(rgba.count / 4 * 3)
        for i in stride(from: 0, to: rgba.count, by: 4) { rgb.append(rgba[i]); rgb.append(rgba[i + 1]); rgb.append(rgba[i + 2]) }
        return try PNGEncoder.encode(samples: rgb, width: width, height: height, colorType: .rgb)
    }
}
