// SPDX-License-Identifier: MIT
// Animated PNG (APNG) encoding by repacking libpng output — no hand-written deflate.
//
// Each frame is encoded by libpng as an ordinary RGBA8 PNG in memory; its IDAT payload (one zlib
// stream) is kept, and `encode()` assembles:
//
//   signature, IHDR, acTL(num_frames, num_plays),
//   fcTL(seq 0), IDAT…                      frame 0: also the default image plain decoders show
//   fcTL(seq 1), fdAT(seq 2, data)          frame 1
//   fcTL(seq 3), fdAT(seq 4, data)          frame 2 …
//   IEND
//
// fdAT is IDAT data behind a 4-byte sequence number; fcTL and fdAT share one sequence counter.
// Every frame covers the whole canvas with dispose_op NONE and blend_op SOURCE, so each frame
// replaces the previous one exactly (no dependence on how a viewer blends).
//
// Frames are always RGBA8 (colour type 6), even when opaque: all frames share one IHDR, and a frame
// is compressed as soon as it is added, before later frames are known. Memory held is the
// compressed frames only.

import Raster

/// Builds an animated PNG frame by frame.
public struct APNGEncoder: Sendable {
    /// A frame's display time: `numerator / denominator` seconds (a denominator of 0 means 1/100 s,
    /// as the APNG specification says).
    public struct Delay: Equatable, Sendable {
        public var numerator: UInt16
        public var denominator: UInt16
        public init(numerator: UInt16, denominator: UInt16) { self.numerator = numerator; self.denominator = denominator }
        /// `1 / fps` seconds.
        public static func fps(_ fps: UInt16) -> Delay { Delay(numerator: 1, denominator: fps) }
    }

    public let width: Int32
    public let height: Int32
    /// Default delay for frames added without one.
    public let delay: Delay
    /// How many times to play; 0 loops forever.
    public let loopCount: UInt32

    private var frames: [(data: [UInt8], delay: Delay)] = []
    private var header: PNGChunk?

    public var frameCount: Int { frames.count }

    public init(width: Int32, height: Int32, delay: Delay, loopCount: UInt32 = 0) {
        self.width = width; self.height = height; self.delay = delay; self.loopCount = loopCount
    }

    /// Compresses `view` (which must be `width` x `height`) and appends it as the next frame.
    public mutating func addFrame(_ view: PixmapView, delay: Delay? = nil) throws {
        guard view.width == width, view.height == height else {
            throw ImageError.unencodable("frame \(frames.count) is \(view.width)x\(view.height), the animation is \(width)x\(height)")
        }
        let (samples, _) = try PNGEncoder.straightSamples(view, forceAlpha: true)
        let png = try PNGEncoder.encode(samples: samples, width: UInt32(width), height: UInt32(height), colorType: .rgba)
        let chunks = try PNGChunk.parse(png)
        guard let ihdr = chunks.first, ihdr.type == "IHDR" else {
            throw ImageError.encoderFailed(reason: "libpng output does not start with IHDR")
        }
        if header == nil { header = ihdr }
        let data = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        frames.append((data, delay ?? self.delay))
    }

    /// Appends `pixmap` as the next frame.
    public mutating func addFrame(_ pixmap: Pixmap, delay: Delay? = nil) throws {
        try addFrame(pixmap.view, delay: delay)
    }

    /// The animation so far as APNG bytes. Deterministic: same frames → same bytes.
    public func encode() throws -> [UInt8] {
        guard let header, !frames.isEmpty else { throw ImageError.unencodable("an animated PNG needs at least one frame") }
        var chunks = [header]
        var actl = [UInt8]()
        actl.appendBigEndian(UInt32(frames.count))
        actl.appendBigEndian(loopCount)
        chunks.append(PNGChunk(type: "acTL", data: actl))

        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            chunks.append(PNGChunk(type: "fcTL", data: frameControl(sequence: sequence, delay: frame.delay)))
            sequence += 1
            if index == 0 {
                chunks.append(PNGChunk(type: "IDAT", data: frame.data))
            } else {
                var fdat = [UInt8]()
                fdat.reserveCapacity(frame.data.count + 4)
                fdat.appendBigEndian(sequence)
                fdat.append(contentsOf: frame.data)
                chunks.append(PNGChunk(type: "fdAT", data: fdat))
                sequence += 1
            }
        }
        chunks.append(PNGChunk(type: "IEND", data: []))
        return PNGChunk.stream(chunks)
    }

    /// Encodes and writes the animation to `path` (atomically).
    public func write(to path: String) throws {
        try ImageFile.writeAll(encode(), to: path)
    }

    /// fcTL: sequence, width, height, x/y offset 0, delay, dispose NONE, blend SOURCE.
    private func frameControl(sequence: UInt32, delay: Delay) -> [UInt8] {
        var data = [UInt8]()
        data.reserveCapacity(26)
        data.appendBigEndian(sequence)
        data.appendBigEndian(UInt32(width))
        data.appendBigEndian(UInt32(height))
        data.appendBigEndian(UInt32(0))
        data.appendBigEndian(UInt32(0))
        data.appendBigEndian(delay.numerator)
        data.appendBigEndian(delay.denominator)
        data.append(0)  // APNG_DISPOSE_OP_NONE
        data.append(0)  // APNG_BLEND_OP_SOURCE
        return data
    }
}
