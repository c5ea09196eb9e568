// SPDX-License-Identifier: MIT
// VKMSCopyMixes: the CRCs of a frame half copied over another, which the vkms suite accepts for
// pictures composed after their buffers went back, against pictures built pixel by pixel here,
// and against the ones a loaded CI run recorded (no QEMU).
import Foundation
import Testing

@Suite("vkms: pictures of a frame half copied over another")
struct VKMSCopyMixesTests {
    static let (w, h) = (24, 12)

    /// Frame `n` of a made-up spinner: grey, with a white 3x3 box stepping along the middle row.
    static func frame(_ n: Int) -> [UInt32] {
        var p = [UInt32](repeating: 0xFF20_2020, count: w * h)
        for y in 4..<7 { for x in 2 + 2 * n..<5 + 2 * n { p[y * w + x] = 0xFFFF_FFFF } }
        return p
    }

    static func crc(_ p: [UInt32]) -> UInt32 { VKMSEndToEndTests.vkmsCRC(xrgb: p, width: w, height: h) }

    /// `top` up to pixel index `split` (not included), `bottom` from there.
    static func split(_ top: [UInt32], _ bottom: [UInt32], at split: Int) -> [UInt32] {
        Array(top[..<split] + bottom[split...])
    }

    @Test func everySplitOfFramesApartIsAMixAndNothingElse() {
        let frames = (0..<8).map(Self.frame)
        let set = VKMSCopyMixes.crcs(frames: frames, crcs: frames.map(Self.crc), width: Self.w, height: Self.h, apart: 1...2)
        func isMix(_ p: [UInt32]) -> Bool { set.contains(Self.crc(p)) }  // a Bool: a failure lists no set
        // Frame 3 copied over frame 1 (two apart), stopped in row 5 at column 9: vkms read ahead.
        #expect(isMix(Self.split(frames[1], frames[3], at: 5 * Self.w + 9)))
        // The copy overtook vkms: frame 4 on top of frame 3, split in row 4.
        #expect(isMix(Self.split(frames[4], frames[3], at: 4 * Self.w + 10)))
        // Across the end of the turn: frame 7 then frame 0 (one apart, cyclic).
        #expect(isMix(Self.split(frames[0], frames[7], at: 5 * Self.w + 3)))
        // Whole frames are not mixes (the drawn set holds them).
        #expect(frames.allSatisfy { !isMix($0) })
        // Three apart is beyond `apart`.
        #expect(!isMix(Self.split(frames[1], frames[4], at: 5 * Self.w + 9)))
        // Two crossings (frame 3's middle row inside frame 1): no single pass draws that.
        var twice = frames[1]
        for x in 0..<Self.w { twice[5 * Self.w + x] = frames[3][5 * Self.w + x] }
        #expect(!isMix(twice))
        // A pixel no frame has.
        var stray = frames[2]
        stray[5 * Self.w + 7] = 0xFF00_FF00
        #expect(!isMix(stray))
    }

    /// The 11 pictures the vkms suite found "no frame" in CI on 2026-11-30 (all 298 entries of the
    /// spinner composed late): each is the 640x480 spinner's frame split over another 3-4 steps
    /// before it (measured with this model: old frame on top, the copy had overtaken vkms).
    @Test func theLoadedRunsPicturesWereHalfCopiedFrames() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("splashhud-mixes-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (w, h) = (VKMSEndToEndTests.W, VKMSEndToEndTests.H)
        let steps = try VKMSEndToEndTests.renderedFrames(script: "@0 show \"Working\"\n", at: (0..<60).map { 3 + Double($0) / 60 },
                                                         width: w, height: h, dir: dir)
        let seen: [UInt32] = [0x4e29_e970, 0xf0b7_b126, 0xbbb7_b7fa, 0xaa4a_b59e, 0x68c9_b660, 0x7bf5_afa9,
                              0xdb64_0f1c, 0x1f81_1c66, 0x0066_5def, 0xdd44_bde4, 0x0bfc_baff]
        let stepCRCs = steps.map { VKMSEndToEndTests.vkmsCRC(xrgb: $0, width: w, height: h) }
        let mixes = VKMSCopyMixes.crcs(frames: steps, crcs: stepCRCs, width: w, height: h, apart: 1...15)
        #expect(seen.filter { !mixes.contains($0) }.isEmpty)
        // None of them is a whole frame, and a mix set this size leaves room for almost nothing else.
        let drawn = Set(stepCRCs)
        #expect(drawn.count == 60 && seen.allSatisfy { !drawn.contains($0) })
        #expect(mixes.count < 2_000_000, "\(mixes.count) mixes")
    }

    /// The C floor's pictures a CI run's vkms showed that are none of its 16 frames (2026-12-02,
    /// the floor at 88 % of vblanks: 1 in its 5 s, 7 away on VT 2) are each a frame copied over
    /// the one two before it, the frame its buffer held (the floor's two buffers).
    @Test func theFastFloorsPicturesWereFramesDrawnOverTheOneTwoBefore() {
        let (w, h) = (VKMSEndToEndTests.W, VKMSEndToEndTests.H)
        let frames = (0..<16).map { VKMSEndToEndTests.floorFrame($0, width: w, height: h) }
        let crcs = frames.map { VKMSEndToEndTests.vkmsCRC(xrgb: $0, width: w, height: h) }
        let seen: [UInt32] = [0x1361_da50, 0x59cc_5377, 0x76fb_58bb, 0xaaea_fdeb, 0xb5b9_ce47, 0xc2f1_9b9f, 0xf31e_5e5c, 0xf42d_0c9e]
        let two = VKMSCopyMixes.crcs(frames: frames, crcs: crcs, width: w, height: h, apart: 2...2)
        #expect(seen.filter { !two.contains($0) }.isEmpty)
    }
}
