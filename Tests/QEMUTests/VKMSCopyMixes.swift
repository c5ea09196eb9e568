// SPDX-License-Identifier: MIT
// The pictures vkms composes from a buffer the daemon is copying a frame into. Once a flip's
// event gives a buffer back, the daemon copies its next frame's damage into it (one rect for a
// spinner, PageDamage.swift; rows top down, left to right, convertingBlit), while vkms, its
// composer refreshes late under QEMU, may still be reading that buffer top down for an older
// vblank. Two sequential passes over the same memory cross at most once, so such a picture is the
// buffer's old frame up to one pixel in row order and the new frame after it (vkms read ahead of
// the copy), or the new frame and then the old (the copy overtook vkms). Nothing else: a torn
// rect, a half-drawn layer or a frame the memory display never draws is none of these.
//
// vkms's CRC (VKMSEndToEndTests.vkmsCRC) is the kernel's crc32_le seeded with 0 and not inverted,
// which is linear: CRC(x ^ y) = CRC(x) ^ CRC(y) for inputs of one length. So a mix's CRC is
// CRC(old) ^ the CRCs of the differences it takes from the new frame, each a pixel's 8 bytes
// followed by the zero bytes after it, which zlib's crc32_combine_op shifts into place.
import CZlib

enum VKMSCopyMixes {
    /// vkms's CRCs of every mix of two of `frames` (XRGB8888 words, `width` x `height`, in the
    /// order the spinner shows them, cyclic; `crcs`, vkms's CRC of each, as the caller has them)
    /// in either order, the second `apart` frames after the first: the frames a buffer holds and
    /// gets next when the loop presents every frame, or skips some. Only the pixels in which some
    /// frames differ are visited.
    static func crcs(frames: [[UInt32]], crcs: [UInt32], width: Int, height: Int, apart: ClosedRange<Int>) -> Set<UInt32> {
        precondition(apart.lowerBound >= 1 && crcs.count == frames.count && frames.allSatisfy { $0.count == width * height })
        let box = changedBox(frames, width: width)
        let total = Int64(width * height * 8)
        var shifts: [Int: UInt] = [:]  // pixel index -> crc32_combine_op's operator for the bytes after it
        var out = Set<UInt32>()
        for a in frames.indices {
            for d in apart where d < frames.count {
                let b = (a + d) % frames.count
                var taken: UInt = 0  // the CRC of (a ^ b) up to here, a linear sum
                frames[a].withUnsafeBufferPointer { pa in
                    frames[b].withUnsafeBufferPointer { pb in
                        for y in box.rows {
                            for x in box.columns {
                                let i = y &* width &+ x
                                let delta = pa[i] ^ pb[i]
                                guard delta & 0xFF_FFFF != 0 else { continue }
                                let shift = shifts[i] ?? {
                                    let op = crc32_combine_gen(Int(total - Int64(i + 1) * 8))
                                    shifts[i] = op
                                    return op
                                }()
                                taken ^= crc32_combine_op(pixelCRC(delta), 0, shift)
                                out.insert(crcs[a] ^ UInt32(truncatingIfNeeded: taken))  // b up to here, then a
                                out.insert(crcs[b] ^ UInt32(truncatingIfNeeded: taken))  // a up to here, then b
                            }
                        }
                    }
                }
            }
        }
        return out.subtracting(crcs)
    }

    /// The CRC, seeded with 0 and not inverted, of one pixel's XOR in vkms's row format (u16
    /// alpha, red, green, blue, each 8-bit channel times 257, little endian; alpha XORs to 0).
    static func pixelCRC(_ delta: UInt32) -> UInt {
        var bytes = [UInt8](repeating: 0, count: 8)
        for (k, shift) in [16, 8, 0].enumerated() {
            let c = UInt16(truncatingIfNeeded: delta >> UInt32(shift)) & 0xFF &* 257
            bytes[2 + 2 * k] = UInt8(truncatingIfNeeded: c)
            bytes[3 + 2 * k] = UInt8(truncatingIfNeeded: c >> 8)
        }
        return crc32(0xFFFF_FFFF, bytes, 8) ^ 0xFFFF_FFFF
    }

    /// The rows and columns in which any frame differs from the first.
    static func changedBox(_ frames: [[UInt32]], width: Int) -> (rows: Range<Int>, columns: Range<Int>) {
        var (x0, y0, x1, y1) = (Int.max, Int.max, -1, -1)
        frames[0].withUnsafeBufferPointer { first in
            for f in frames.dropFirst() {
                f.withUnsafeBufferPointer { p in
                    for i in 0..<p.count where (p[i] ^ first[i]) & 0xFF_FFFF != 0 {
                        let (y, x) = i.quotientAndRemainder(dividingBy: width)
                        x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
                    }
                }
            }
        }
        return x1 < 0 ? (0..<0, 0..<0) : (y0..<y1 + 1, x0..<x1 + 1)
    }
}
